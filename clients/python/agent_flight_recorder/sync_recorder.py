"""``SyncRecorder``: the same calls as ``Recorder`` for code without an event loop (a private loop in a thread)."""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from typing import Any, Callable, Coroutine, Dict, List, Optional, TypeVar

from .loading import load_recorder as _load_recorder
from .next_bundle import Since
from .recorder import DEFAULT_BUNDLE_WAIT_S, DEFAULT_CONNECT_TIMEOUT_S, DEFAULT_DELIVERY_WAIT_S, Recorder
from .tool_calls import call_input, error_status, error_text

T = TypeVar("T")
G = TypeVar("G", bound=Callable[..., Any])


class _LoopThread:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="agent-flight-recorder", daemon=True)
        self._thread.start()

    def run(self, coroutine: "Coroutine[Any, Any, T]") -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        self.loop.close()


class SyncRecorder:
    """
    Blocking wrapper of ``Recorder`` (same methods with the same arguments, same errors).

    Example::

        rec = SyncRecorder.connect("http://127.0.0.1:9222")
        rec.step(action="open the cart", outcome="ok")
        bundle_id = rec.fail(reason="agent_failure", label="cart stayed empty")
        rec.save_bundle(bundle_id, "bundles")
        rec.close()
    """

    def __init__(self, runner: _LoopThread, recorder: Recorder) -> None:
        self._runner = runner
        self._rec = recorder
        self.extension_id = recorder.extension_id

    @classmethod
    def connect(cls, cdp_url: str, *, timeout: float = DEFAULT_CONNECT_TIMEOUT_S, extension_id: Optional[str] = None) -> "SyncRecorder":
        """See ``Recorder.connect``."""
        runner = _LoopThread()
        try:
            return cls(runner, runner.run(Recorder.connect(cdp_url, timeout=timeout, extension_id=extension_id)))
        except BaseException:
            runner.stop()
            raise

    def close(self) -> None:
        """Closes the connection and its thread."""
        try:
            self._runner.run(self._rec.close())
        finally:
            self._runner.stop()

    def __enter__(self) -> "SyncRecorder":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def status(self) -> Dict[str, Any]:
        """See ``Recorder.status``."""
        return self._runner.run(self._rec.status())

    def settings(self) -> Dict[str, Any]:
        """See ``Recorder.settings``."""
        return self._runner.run(self._rec.settings())

    def configure(self, patch: Dict[str, Any]) -> Dict[str, Any]:
        """See ``Recorder.configure``."""
        return self._runner.run(self._rec.configure(patch))

    def run_start(self, *, tab_id: Optional[int] = None, run_id: Optional[str] = None, agent: Optional[str] = None,
                  agent_version: Optional[str] = None, task: Optional[str] = None) -> str:
        """See ``Recorder.run_start``."""
        return self._runner.run(self._rec.run_start(tab_id=tab_id, run_id=run_id, agent=agent, agent_version=agent_version, task=task))

    def run_end(self, *, tab_id: Optional[int] = None, outcome: Optional[str] = None, label: Optional[str] = None) -> Optional[str]:
        """See ``Recorder.run_end``."""
        return self._runner.run(self._rec.run_end(tab_id=tab_id, outcome=outcome, label=label))

    def step(self, action: str, *, target: Optional[str] = None, outcome: Optional[str] = None, label: Optional[str] = None,
             goal: Optional[str] = None, reasoning: Optional[str] = None, tab_id: Optional[int] = None) -> None:
        """See ``Recorder.step``."""
        self._runner.run(self._rec.step(action, target=target, outcome=outcome, label=label, goal=goal, reasoning=reasoning, tab_id=tab_id))

    def assert_(self, label: str, passed: bool, *, expected: Optional[str] = None, actual: Optional[str] = None,
                reasoning: Optional[str] = None, tab_id: Optional[int] = None) -> Optional[str]:
        """See ``Recorder.assert_``."""
        return self._runner.run(self._rec.assert_(label, passed, expected=expected, actual=actual, reasoning=reasoning, tab_id=tab_id))

    def mark(self, label: str, *, reasoning: Optional[str] = None, tab_id: Optional[int] = None) -> None:
        """See ``Recorder.mark``."""
        self._runner.run(self._rec.mark(label, reasoning=reasoning, tab_id=tab_id))

    def tool_call(self, tool: str, *, status: str, input: Any = None, output: Any = None, latency_ms: Optional[float] = None,
                  error: Optional[str] = None, tab_id: Optional[int] = None) -> None:
        """See ``Recorder.tool_call``."""
        self._runner.run(self._rec.tool_call(tool, status=status, input=input, output=output, latency_ms=latency_ms, error=error, tab_id=tab_id))

    def model_call(self, model: str, *, messages: Optional[List[Dict[str, str]]] = None, response: Any = None,
                   tokens_in: Optional[int] = None, tokens_out: Optional[int] = None, latency_ms: Optional[float] = None,
                   temperature: Optional[float] = None, max_tokens: Optional[int] = None, cost_usd: Optional[float] = None,
                   tab_id: Optional[int] = None) -> None:
        """See ``Recorder.model_call``."""
        self._runner.run(self._rec.model_call(model, messages=messages, response=response, tokens_in=tokens_in, tokens_out=tokens_out,
                                              latency_ms=latency_ms, temperature=temperature, max_tokens=max_tokens, cost_usd=cost_usd, tab_id=tab_id))

    def tool(self, name: Optional[str] = None, *, tab_id: Optional[int] = None) -> Callable[[G], G]:
        """A decorator for a tool (a plain function): every call recorded as ``Recorder.tool`` records an async one."""
        def decorate(fn: G) -> G:
            tool = name or fn.__name__

            @functools.wraps(fn)
            def wrapped(*args: Any, **kwargs: Any) -> Any:
                started = time.monotonic()
                try:
                    result = fn(*args, **kwargs)
                except BaseException as error:
                    self._runner.run(self._rec._record_tool(tool, tab_id, call_input(args, kwargs), None, error_status(error), started, error_text(error)))
                    raise
                self._runner.run(self._rec._record_tool(tool, tab_id, call_input(args, kwargs), result, "ok", started, None))
                return result

            return wrapped  # type: ignore[return-value]

        return decorate

    def fail(self, reason: str, *, label: Optional[str] = None, tab_id: Optional[int] = None) -> str:
        """See ``Recorder.fail``."""
        return self._runner.run(self._rec.fail(reason, label=label, tab_id=tab_id))

    def bundles(self) -> List[Dict[str, Any]]:
        """See ``Recorder.bundles``."""
        return self._runner.run(self._rec.bundles())

    def export_bundle(self, bundle_id: str) -> bytes:
        """See ``Recorder.export_bundle``."""
        return self._runner.run(self._rec.export_bundle(bundle_id))

    def save_bundle(self, bundle_id: str, target: str) -> str:
        """See ``Recorder.save_bundle``."""
        return self._runner.run(self._rec.save_bundle(bundle_id, target))

    def delete_bundle(self, bundle_id: str) -> bool:
        """See ``Recorder.delete_bundle``."""
        return self._runner.run(self._rec.delete_bundle(bundle_id))

    def wait_for_bundle(self, *, since: Optional[Since] = None, reason: Optional[str] = None, trigger: Optional[str] = None,
                        timeout: float = DEFAULT_BUNDLE_WAIT_S) -> Dict[str, Any]:
        """See ``Recorder.wait_for_bundle``."""
        return self._runner.run(self._rec.wait_for_bundle(since=since, reason=reason, trigger=trigger, timeout=timeout))

    def wait_delivered(self, bundle_id: str, *, timeout: float = DEFAULT_DELIVERY_WAIT_S) -> Dict[str, Any]:
        """See ``Recorder.wait_delivered``."""
        return self._runner.run(self._rec.wait_delivered(bundle_id, timeout=timeout))


def load_recorder_sync(cdp_url: str, extension_path: str) -> str:
    """Blocking ``load_recorder``."""
    return asyncio.run(_load_recorder(cdp_url, extension_path))
