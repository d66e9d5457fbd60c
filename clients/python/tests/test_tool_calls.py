import asyncio
import unittest

from agent_flight_recorder.find_recorder import find_recorder
from agent_flight_recorder.recorder import Recorder
from agent_flight_recorder.sync_recorder import SyncRecorder, _LoopThread
from tests.fakes import FakeAfr, FakeSource, FakeWorker

URL = "chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/background.js"


async def connect(afr: FakeAfr) -> Recorder:
    source = FakeSource(FakeWorker(URL, afr))
    return Recorder(source, await find_recorder(source, 1), 1)


def refuse_odd(options):
    if options.get("output") == "odd":
        raise ValueError("afr.toolCall: output: not plain JSON")


class ToolCallTest(unittest.TestCase):
    def test_tool_call_and_model_call_reach_afr_as_its_camel_case_fields(self):
        async def scenario():
            afr = FakeAfr(toolCall=lambda o: None, modelCall=lambda o: None)
            rec = await connect(afr)
            await rec.model_call("gpt-4o", messages=[{"role": "user", "content": "hi"}], tokens_in=3, max_tokens=64, cost_usd=0.01)
            await rec.tool_call("search", status="timeout", input={"q": "x"}, latency_ms=30000, error="slow", tab_id=7)
            return afr.calls

        self.assertEqual(asyncio.run(scenario()), [
            ("modelCall", [{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tokensIn": 3, "maxTokens": 64, "costUsd": 0.01}]),
            ("toolCall", [{"tool": "search", "status": "timeout", "input": {"q": "x"}, "latencyMs": 30000, "error": "slow", "tabId": 7}]),
        ])

    def test_the_decorator_records_each_call_and_raises_on(self):
        async def scenario():
            afr = FakeAfr(toolCall=refuse_odd)
            rec = await connect(afr)

            @rec.tool("search")
            async def search(query: str) -> dict:
                return {"hits": len(query)}

            @rec.tool()
            async def checkout(cart: int, *, express: bool = False) -> None:
                raise asyncio.TimeoutError()

            @rec.tool()
            async def pay() -> None:
                raise RuntimeError("card declined")

            @rec.tool()
            async def odd() -> str:
                return "odd"

            self.assertEqual(await search("shoes"), {"hits": 5})
            with self.assertRaises(asyncio.TimeoutError):
                await checkout(1, express=True)
            with self.assertRaises(RuntimeError):
                await pay()
            self.assertEqual(await odd(), "odd")  # the recorder refused the call: the tool still answers
            self.assertEqual(search.__name__, "search")
            return [args[0] for method, args in afr.calls]

        calls = asyncio.run(scenario())
        for call in calls:
            self.assertGreaterEqual(call.pop("latencyMs"), 0)
        self.assertEqual(calls, [
            {"tool": "search", "status": "ok", "input": "shoes", "output": {"hits": 5}},
            {"tool": "checkout", "status": "timeout", "input": {"args": [1], "kwargs": {"express": True}}, "error": "TimeoutError: "},
            {"tool": "pay", "status": "error", "input": [], "error": "RuntimeError: card declined"},
            {"tool": "odd", "status": "ok", "input": [], "output": "odd"},
        ])

    def test_the_sync_decorator_records_a_plain_function(self):
        afr = FakeAfr(toolCall=refuse_odd)
        runner = _LoopThread()
        source = FakeSource(FakeWorker(URL, afr))
        rec = SyncRecorder(runner, Recorder(source, runner.run(find_recorder(source, 1)), 1))
        try:
            @rec.tool("add", tab_id=3)
            def add(a: int, b: int) -> int:
                return a + b

            @rec.tool()
            def fetch() -> None:
                raise TimeoutError("30 s")

            self.assertEqual(add(2, 3), 5)
            with self.assertRaises(TimeoutError):
                fetch()
        finally:
            rec.close()
        calls = [args[0] for _, args in afr.calls]
        for call in calls:
            call.pop("latencyMs")
        self.assertEqual(calls, [
            {"tool": "add", "status": "ok", "input": [2, 3], "output": 5, "tabId": 3},
            {"tool": "fetch", "status": "timeout", "input": [], "error": "TimeoutError: 30 s"},
        ])


if __name__ == "__main__":
    unittest.main()
