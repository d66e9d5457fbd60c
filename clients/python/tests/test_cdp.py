import asyncio
import json
import unittest

from agent_flight_recorder.cdp import CdpCommandError, CdpConnection, browser_ws_url
from agent_flight_recorder.cdp_source import CdpSource, CdpWorker
from agent_flight_recorder.errors import EvaluateFailed, WorkerGone
from agent_flight_recorder.loading import load_refused_message


class FakeSocket:
    """A browser WebSocket: ``answer(message)`` returns the replies and events to send back."""

    def __init__(self, answer):
        self.answer = answer
        self.sent = []
        self.incoming: "asyncio.Queue[str | None]" = asyncio.Queue()

    async def send(self, raw):
        message = json.loads(raw)
        self.sent.append(message)
        for reply in self.answer(message):
            self.incoming.put_nowait(json.dumps(reply))

    def push(self, message):
        self.incoming.put_nowait(json.dumps(message))

    async def close(self):
        self.incoming.put_nowait(None)

    def __aiter__(self):
        return self

    async def __anext__(self):
        raw = await self.incoming.get()
        if raw is None:
            raise StopAsyncIteration
        return raw


class CdpTest(unittest.TestCase):
    def test_an_exception_in_the_worker_is_its_first_line(self):
        def answer(m):
            yield {"id": m["id"], "sessionId": "S", "result": {"result": {"type": "object"}, "exceptionDetails": {
                "text": "Uncaught", "exception": {"description": "Error: unknown bundle id afr-x\n    at chrome-extension://..."}}}}

        async def scenario():
            conn = CdpConnection(FakeSocket(answer))
            try:
                await CdpWorker(conn, "S").evaluate("afr.exportBundle('afr-x')")
            finally:
                await conn.close()

        with self.assertRaisesRegex(EvaluateFailed, r"^unknown bundle id afr-x$"):
            asyncio.run(scenario())

    def test_a_pending_call_fails_as_gone_when_its_session_detaches(self):
        async def scenario():
            socket = FakeSocket(lambda m: [])  # never answers: the worker stopped mid-call
            conn = CdpConnection(socket)
            call = asyncio.ensure_future(CdpWorker(conn, "S").evaluate("afr.fail({reason:'x'})"))
            await asyncio.sleep(0.01)
            socket.push({"method": "Target.detachedFromTarget", "params": {"sessionId": "S", "targetId": "T"}})
            try:
                await call
            finally:
                await conn.close()

        with self.assertRaises(WorkerGone):
            asyncio.run(scenario())

    def test_a_closed_socket_fails_pending_calls_as_gone(self):
        async def scenario():
            socket = FakeSocket(lambda m: [])
            conn = CdpConnection(socket)
            call = asyncio.ensure_future(conn.send("Target.getTargets"))
            await asyncio.sleep(0.01)
            await socket.close()
            await call

        with self.assertRaises(WorkerGone):
            asyncio.run(scenario())

    def test_the_source_follows_workers_as_targets_come_and_go_and_wakes_a_stopped_one(self):
        sw = {"targetId": "W1", "type": "service_worker", "url": "chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/background.js"}
        page = {"targetId": "P1", "type": "page", "url": "https://shop.test/"}

        def answer(m):
            method, sid = m["method"], m.get("sessionId")
            if method == "Target.getTargets":
                yield {"id": m["id"], "result": {"targetInfos": [page]}}
            elif method == "Target.attachToTarget":
                yield {"id": m["id"], "result": {"sessionId": "PS"}}
            elif method == "ServiceWorker.enable":
                yield {"id": m["id"], "sessionId": sid, "result": {}}
                yield {"method": "ServiceWorker.workerRegistrationUpdated", "sessionId": sid, "params": {"registrations": [
                    {"registrationId": "0", "scopeURL": "chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/", "isDeleted": False},
                    {"registrationId": "1", "scopeURL": "https://shop.test/", "isDeleted": False}]}}
                yield {"method": "ServiceWorker.workerVersionUpdated", "sessionId": sid, "params": {"versions": [
                    {"versionId": "0", "registrationId": "0", "scriptURL": sw["url"], "runningStatus": "stopped"},
                    {"versionId": "1", "registrationId": "1", "scriptURL": "https://shop.test/sw.js", "runningStatus": "stopped"}]}}
            elif method == "ServiceWorker.startWorker":
                yield {"id": m["id"], "sessionId": sid, "result": {}}
                yield {"method": "Target.targetCreated", "params": {"targetInfo": sw}}
            else:
                yield {"id": m["id"], "result": {}}

        async def scenario():
            socket = FakeSocket(answer)
            conn = CdpConnection(socket)
            source = CdpSource(conn)
            await source.start()
            before = [c.url for c in source.candidates()]
            started = await source.wake(None)
            await asyncio.sleep(0.01)
            after = [c.url for c in source.candidates()]
            socket.push({"method": "Target.targetDestroyed", "params": {"targetId": "W1"}})
            await asyncio.sleep(0.01)
            gone = [c.url for c in source.candidates()]
            await conn.close()
            return before, started, after, gone, [m for m in socket.sent if m["method"] == "ServiceWorker.startWorker"]

        before, started, after, gone, starts = asyncio.run(scenario())
        self.assertEqual(before, [])
        self.assertEqual(started, ["chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/"])
        self.assertEqual(after, [sw["url"]])
        self.assertEqual(gone, [])
        self.assertEqual([m["params"] for m in starts], [{"scopeURL": "chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/"}])

    def test_a_command_error_names_the_method(self):
        async def scenario():
            conn = CdpConnection(FakeSocket(lambda m: [{"id": m["id"], "error": {"code": -32000, "message": "Method not available."}}]))
            try:
                await conn.send("Extensions.loadUnpacked", {"path": "/x"})
            finally:
                await conn.close()

        with self.assertRaisesRegex(CdpCommandError, r"^Extensions.loadUnpacked: Method not available.$"):
            asyncio.run(scenario())

    def test_a_refused_load_says_which_flags_the_browser_needs(self):
        message = load_refused_message("/ext", "Method not available.")
        self.assertIn("--enable-unsafe-extension-debugging", message)
        self.assertIn("--remote-debugging-pipe", message)

    def test_cdp_urls(self):
        self.assertEqual(browser_ws_url("ws://127.0.0.1:9222/devtools/browser/abc"), "ws://127.0.0.1:9222/devtools/browser/abc")
        with self.assertRaises(ValueError):
            browser_ws_url("127.0.0.1:9222")


if __name__ == "__main__":
    unittest.main()
