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

        afr = FakeAfr(step=lambda o: None, fail=lambda o: "afr-20261125T100000Z-abcdef", exportBundle=refuse)
        runner = _LoopThread()
        source = FakeSource(FakeWorker("chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/background.js", afr))
        rec = SyncRecorder(runner, Recorder(source, runner.run(find_recorder(source, 1)), 1))
        try:
            rec.step("open the cart", outcome="ok")
            self.assertEqual(rec.fail("agent_failure"), "afr-20261125T100000Z-abcdef")
            with self.assertRaisesRegex(RecorderCallError, "^afr.exportBundle: no stored bundle with id afr-nope$"):
                rec.export_bundle("afr-nope")
        finally:
            rec.close()
        self.assertEqual([m for m, _ in afr.calls], ["step", "fail", "exportBundle"])
        self.assertFalse(runner.loop.is_running())


if __name__ == "__main__":
    unittest.main()
