"""Step marking for browser-use agents: ``Agent.run(on_step_start=..., on_step_end=...)`` hooks that call the recorder."""

from __future__ import annotations

import json
import logging
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple

from .errors import RecorderError

log = logging.getLogger("agent_flight_recorder")

AgentHook = Callable[[Any], Awaitable[None]]

#: Longest action text sent (the recorder takes 16 KiB for action, target and label together).
MAX_ACTION_CHARS = 2000


def _dump(model: Any) -> Any:
    """A pydantic model (browser-use's ActionModel) as plain data, without the fields left unset."""
    if hasattr(model, "model_dump"):
        return model.model_dump(exclude_unset=True, exclude_none=True)
    return model


def describe_actions(actions: List[Any]) -> Tuple[str, Optional[str]]:
    """
    ``[{"click": {"index": 12}}, {"input": {"index": 3, "text": "..."}}]`` as ``click(index=12); input(...)``,
    and the first element index as the target (``element index 12``).
    """
    parts: List[str] = []
    target: Optional[str] = None
    for action in actions:
        data = _dump(action)
        if not isinstance(data, dict):
            parts.append(str(data))
            continue
        for name, params in data.items():
            if isinstance(params, dict):
                if target is None and isinstance(params.get("index"), int):
                    target = f"element index {params['index']}"
                args = ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in params.items())
                parts.append(f"{name}({args})")
            else:
                parts.append(f"{name}({json.dumps(params, ensure_ascii=False)})")
    return "; ".join(parts)[:MAX_ACTION_CHARS], target


def step_from_agent(agent: Any) -> Dict[str, Any]:
    """The ``step`` call for the step a browser-use agent just finished (its last model output and results)."""
    state = getattr(agent, "state", None)
    output = getattr(state, "last_model_output", None)
    results = getattr(state, "last_result", None) or []
    number = getattr(state, "n_steps", None)
    actions = list(getattr(output, "action", None) or [])
    action, target = describe_actions(actions)
    errors = [str(r.error) for r in results if getattr(r, "error", None)]
    step: Dict[str, Any] = {
        "action": action or "(no action)",
        "outcome": "fail" if errors else "ok",
    }
    if number is not None:
        # n_steps is already the next step's number when on_step_end runs.
        step["label"] = f"browser-use step {max(1, int(number) - 1)}" + (f": {errors[0][:200]}" if errors else "")
    elif errors:
        step["label"] = errors[0][:200]
    if target:
        step["target"] = target
    goal = getattr(output, "next_goal", None)
    if goal:
        step["goal"] = str(goal)
    reasoning = getattr(output, "thinking", None) or getattr(output, "evaluation_previous_goal", None)
    if reasoning:
        step["reasoning"] = str(reasoning)
    return step


def model_name(agent: Any) -> Optional[str]:
    """The model of the agent's LLM (browser-use's chat models keep it in ``model``, LangChain's in ``model_name``)."""
    llm = getattr(agent, "llm", None)
    for attribute in ("model", "model_name"):
        value = getattr(llm, attribute, None)
        if isinstance(value, str) and value:
            return value
    return None


def calls_from_agent(agent: Any) -> Tuple[Optional[Dict[str, Any]], List[Dict[str, Any]]]:
    """
    What browser-use exposes of the step's calls: the model call (its model, and the output it planned:
    actions, next goal, thinking) when the model is known, and each action as a tool call (its name and
    parameters, the result's extracted content, ``error`` when the result reports one).
    """
    state = getattr(agent, "state", None)
    output = getattr(state, "last_model_output", None)
    results = list(getattr(state, "last_result", None) or [])
    actions = [_dump(a) for a in (getattr(output, "action", None) or [])]
    model = model_name(agent)
    model_call: Optional[Dict[str, Any]] = None
    if model and output is not None:
        response = {"action": actions}
        for field in ("thinking", "evaluation_previous_goal", "memory", "next_goal"):
            value = getattr(output, field, None)
            if value:
                response[field] = str(value)
        model_call = {"model": model, "response": response}
    tools: List[Dict[str, Any]] = []
    for i, action in enumerate(actions):
        if not isinstance(action, dict) or not action:
            continue
        name, params = next(iter(action.items()))
        result = results[i] if i < len(results) else None
        error = getattr(result, "error", None)
        content = getattr(result, "extracted_content", None)
        call: Dict[str, Any] = {"tool": str(name), "input": params, "status": "error" if error else "ok"}
        if isinstance(content, str):
            call["output"] = content[:MAX_ACTION_CHARS * 8]
        if error:
            call["error"] = str(error)[:2000]
        tools.append(call)
    return model_call, tools


def browser_use_hooks(recorder: Any) -> Tuple[AgentHook, AgentHook]:
    """
    ``(on_step_start, on_step_end)`` for ``agent.run(...)``: each step start becomes a mark, each step end a
    ``step`` with the actions the model chose, the element index, ``next_goal`` as the goal, the thinking
    as the reasoning, and ``outcome: fail`` when an action reported an error; then, with a recorder that
    has them, the step's model call and each action as a tool call (``calls_from_agent``). A recorder
    error is logged, never raised into the agent.

    Example::

        on_step_start, on_step_end = browser_use_hooks(rec)
        await agent.run(on_step_start=on_step_start, on_step_end=on_step_end)
    """

    async def on_step_start(agent: Any) -> None:
        number = getattr(getattr(agent, "state", None), "n_steps", None)
        try:
            await recorder.mark(f"browser-use step {number} starts" if number is not None else "browser-use step starts")
        except RecorderError as error:
            log.warning("[afr] step start not recorded: %s", error)

    async def on_step_end(agent: Any) -> None:
        step = step_from_agent(agent)
        try:
            await recorder.step(step.pop("action"), **step)
        except RecorderError as error:
            log.warning("[afr] step not recorded: %s", error)
        if not hasattr(recorder, "tool_call"):
            return
        model_call, tools = calls_from_agent(agent)
        try:
            if model_call is not None:
                await recorder.model_call(model_call.pop("model"), **model_call)
            for call in tools:
                await recorder.tool_call(call.pop("tool"), **call)
        except RecorderError as error:
            log.warning("[afr] calls not recorded: %s", error)

    return on_step_start, on_step_end
