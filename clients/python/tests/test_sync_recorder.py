import inspect
import unittest

from agent_flight_recorder.errors import RecorderCallError
from agent_flight_recorder.errors import EvaluateFailed
from agent_flight_recorder.find_recorder import find_recorder
from agent_flight_recorder.recorder import Recorder
from agent_flight_recorder.sync_recorder import SyncRecorder, _LoopThread
from tests.fakes import FakeAfr, FakeSource, FakeWorker


class SyncRecorderTest(unittest.TestCase):
    def test_blocking_calls_on_a_loop_of_its_own_with_the_same_errors(self):
        def refuse(_id):
            raise EvaluateFailed("no stored bundle with id afr-nope")

        delivered = {"state": "delivered", "attempts": 1, "key": "ci/bundles/2026/11/25/afr-20261125T100000Z-abcdef.zip"}
        listed = [{"id": "afr-20261125T100000Z-abcdef", "createdAt": "2026-11-25T10:00:00.000Z", "upload": delivered}]
        afr = FakeAfr(step=lambda o: None, fail=lambda o: "afr-20261125T100000Z-abcdef", exportBundle=refuse, listBundles=lambda: listed)
        runner = _LoopThread()
        source = FakeSource(FakeWorker("chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/background.js", afr))
        rec = SyncRecorder(runner, Recorder(source, runner.run(find_recorder(source, 1)), 1))
        try:
            rec.step("open the cart", outcome="ok")
            self.assertEqual(rec.fail("agent_failure"), "afr-20261125T100000Z-abcdef")
            with self.assertRaisesRegex(RecorderCallError, "^afr.exportBundle: no stored bundle with id afr-nope$"):
                rec.export_bundle("afr-nope")
            self.assertEqual(rec.wait_delivered("afr-20261125T100000Z-abcdef", timeout=1), delivered)
        finally:
            rec.close()
        self.assertEqual([m for m, _ in afr.calls], ["step", "fail", "exportBundle", "listBundles"])
        self.assertFalse(runner.loop.is_running())

    def test_every_public_async_method_of_recorder_has_a_blocking_twin_with_the_same_arguments(self):
        async_methods = {
            name: member for name, member in inspect.getmembers(Recorder)
            if not name.startswith("_") and inspect.iscoroutinefunction(member)
        }
        # The list is read from Recorder itself: a method added there and not here fails this test.
        self.assertTrue({"connect", "close", "status", "wait_for_bundle", "wait_delivered"} <= set(async_methods))
        for name, method in sorted(async_methods.items()):
            with self.subTest(method=name):
                twin = getattr(SyncRecorder, name, None)
                self.assertIsNotNone(twin, f"SyncRecorder has no {name}")
                self.assertFalse(inspect.iscoroutinefunction(twin), f"SyncRecorder.{name} is a coroutine")
                self.assertEqual(inspect.signature(twin).parameters, inspect.signature(method).parameters)
                self.assertTrue(inspect.getdoc(twin), f"SyncRecorder.{name} has no docstring")


if __name__ == "__main__":
    unittest.main()
