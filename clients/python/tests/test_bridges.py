import asyncio
import logging
import unittest
from types import SimpleNamespace

from agent_flight_recorder import RecorderCallError, from_playwright
from agent_flight_recorder.browser_use_bridge import browser_use_hooks
from agent_flight_recorder.errors import RecorderWorkerLostError


class Action:
    """browser-use's ActionModel: a pydantic model with one action set."""

    def __init__(self, **data):
        self.data = data

    def model_dump(self, exclude_unset=False, exclude_none=False):
        return self.data


class FakeRecorder:
    def __init__(self, error=None):
        self.calls = []
        self.error = error

    async def step(self, action, **fields):
        if self.error:
            raise self.error
        self.calls.append(("step", action, fields))

    async def mark(self, label, **fields):
        self.calls.append(("mark", label, fields))


def agent(n_steps, actions, errors=(), next_goal=None, thinking=None):
    output = SimpleNamespace(action=actions, next_goal=next_goal, thinking=thinking, evaluation_previous_goal=None)
    results = [SimpleNamespace(error=e) for e in errors] or [SimpleNamespace(error=None)]
    return SimpleNamespace(state=SimpleNamespace(n_steps=n_steps, last_model_output=output, last_result=results))


class CallingRecorder(FakeRecorder):
    async def model_call(self, model, **fields):
        self.calls.append(("model_call", model, fields))

    async def tool_call(self, tool, **fields):
        self.calls.append(("tool_call", tool, fields))


class BrowserUseBridgeTest(unittest.TestCase):
    def test_a_step_end_records_the_model_call_and_each_action_as_a_tool_call(self):
        rec = CallingRecorder()
        _, on_end = browser_use_hooks(rec)
        a = agent(2, [Action(search={"query": "trail shoes"}), Action(click={"index": 99})], next_goal="open a result")
        a.state.last_result = [SimpleNamespace(error=None, extracted_content="3 results"), SimpleNamespace(error="Element index 99 does not exist", extracted_content=None)]
        a.llm = SimpleNamespace(model="gpt-4o-mini")
        asyncio.run(on_end(a))
        self.assertEqual(rec.calls[1:], [
            ("model_call", "gpt-4o-mini", {"response": {"action": [{"search": {"query": "trail shoes"}}, {"click": {"index": 99}}], "next_goal": "open a result"}}),
            ("tool_call", "search", {"input": {"query": "trail shoes"}, "status": "ok", "output": "3 results"}),
            ("tool_call", "click", {"input": {"index": 99}, "status": "error", "error": "Element index 99 does not exist"}),
        ])

    def test_a_step_end_becomes_a_step_with_the_actions_goal_and_outcome(self):
        rec = FakeRecorder()
        on_start, on_end = browser_use_hooks(rec)
        asyncio.run(on_start(agent(3, [])))
        asyncio.run(on_end(agent(4, [Action(click={"index": 12}), Action(input={"index": 3, "text": "trail shoes"})],
                                 next_goal="find the shoes", thinking="the search box is at index 3")))
        self.assertEqual(rec.calls, [
            ("mark", "browser-use step 3 starts", {}),
            ("step", 'click(index=12); input(index=3, text="trail shoes")', {
                "outcome": "ok", "label": "browser-use step 3", "target": "element index 12",
                "goal": "find the shoes", "reasoning": "the search box is at index 3"}),
        ])

    def test_an_action_error_makes_the_step_fail_with_the_error_in_its_label(self):
        rec = FakeRecorder()
        _, on_end = browser_use_hooks(rec)
        asyncio.run(on_end(agent(2, [Action(click={"index": 99})], errors=["Element index 99 does not exist"])))
        self.assertEqual(rec.calls[0][2]["outcome"], "fail")
        self.assertEqual(rec.calls[0][2]["label"], "browser-use step 1: Element index 99 does not exist")

    def test_a_recorder_error_is_logged_never_raised_into_the_agent(self):
        _, on_end = browser_use_hooks(FakeRecorder(RecorderWorkerLostError("step", "not repeated")))
        with self.assertLogs("agent_flight_recorder", logging.WARNING) as logs:
            asyncio.run(on_end(agent(2, [Action(done={"text": "ok"})])))
        self.assertIn("step not recorded", logs.output[0])


class PlaywrightWorker:
    """Playwright for Python's Worker as far as the adapter uses it."""

    def __init__(self, url, answers):
        self.url = url
        self.answers = answers
        self.expressions = []

    async def evaluate(self, expression):
        self.expressions.append(expression)
        answer = self.answers(expression)
        if isinstance(answer, Exception):
            raise answer
        return answer


class PlaywrightError(Exception):
    """playwright._impl._errors.Error: the text is in ``message``."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class TargetClosedError(PlaywrightError):
    pass


class FakeContext:
    def __init__(self, *workers):
        self.service_workers = list(workers)

    async def wait_for_event(self, event, timeout=None):
        await asyncio.sleep(timeout / 1000)
        raise PlaywrightError("Timeout exceeded while waiting for event \"serviceworker\"")


class PlaywrightAdapterTest(unittest.TestCase):
    def test_calls_afr_in_the_contexts_recorder_worker(self):
        def answers(expression):
            if expression.startswith("typeof globalThis.afr"):
                return True
            if '"status"' in expression:
                return {"recording": True}
            return PlaywrightError("Error: invalid settings: fps: Too big\n    at ...")

        worker = PlaywrightWorker("chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/background.js", answers)
        other = PlaywrightWorker("https://shop.test/sw.js", lambda e: True)

        async def scenario():
            rec = await from_playwright(FakeContext(other, worker), timeout=1)
            status = await rec.status()
            try:
                await rec.configure({"fps": 99})
            except RecorderCallError as error:
                return rec.extension_id, status, str(error)

        extension_id, status, refused = asyncio.run(scenario())
        self.assertEqual(extension_id, "jaaohpahabfabmkanbnjkhpfligimhfi")
        self.assertEqual(status, {"recording": True})
        self.assertEqual(refused, "afr.configure: invalid settings: fps: Too big")
        self.assertEqual(other.expressions, [])

    def test_a_closed_worker_is_a_lost_worker(self):
        def answers(expression):
            return True if expression.startswith("typeof") else TargetClosedError("Target page, context or browser has been closed")

        async def scenario():
            context = FakeContext(PlaywrightWorker("chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/background.js", answers))
            rec = await from_playwright(context, timeout=1)
            await rec.step("click")

        with self.assertRaises(RecorderWorkerLostError):
            asyncio.run(scenario())


if __name__ == "__main__":
    unittest.main()
