import asyncio
import unittest

from agent_flight_recorder.errors import RecorderNotFoundError
from agent_flight_recorder.find_recorder import find_recorder
from tests.fakes import FakeAfr, FakeSource, FakeWorker

PINNED = "chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/background.js"
OTHER_ID = "chrome-extension://bcdefghijklmnopabcdefghijklmnopa/background.js"


def run(coroutine):
    return asyncio.run(coroutine)


class FindRecorderTest(unittest.TestCase):
    def test_takes_the_worker_exposing_afr_not_another_extensions_background_js(self):
        other = FakeWorker(OTHER_ID)  # a background.js without afr
        offscreen = FakeWorker("chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/offscreen.html", FakeAfr())
        recorder = FakeWorker(PINNED, FakeAfr(status=lambda: {}))
        source = FakeSource(other, offscreen, recorder)
        found = run(find_recorder(source, timeout=1))
        self.assertIs(found.worker, recorder)
        self.assertEqual(found.extension_id, "jaaohpahabfabmkanbnjkhpfligimhfi")
        # The other extension's worker is let go: a session left on it would keep it alive.
        self.assertEqual(source.released, [OTHER_ID])

    def test_matches_by_url_shape_so_a_crx_with_another_id_is_found(self):
        found = run(find_recorder(FakeSource(FakeWorker(OTHER_ID, FakeAfr())), timeout=1))
        self.assertEqual(found.extension_id, "bcdefghijklmnopabcdefghijklmnopa")

    def test_a_worker_that_never_answers_does_not_hold_up_the_recorder(self):
        stuck = FakeWorker(OTHER_ID)
        stuck.hang = True
        recorder = FakeWorker(PINNED, FakeAfr())
        found = run(asyncio.wait_for(find_recorder(FakeSource(stuck, recorder), timeout=10), 2))
        self.assertIs(found.worker, recorder)

    def test_starts_a_stopped_worker(self):
        source = FakeSource()
        recorder = FakeWorker(PINNED, FakeAfr())
        source.stopped.append(recorder)
        found = run(find_recorder(source, timeout=1))
        self.assertIs(found.worker, recorder)
        self.assertEqual(source.wakes, 1)

    def test_not_found_names_what_it_saw_and_how_to_load_the_extension(self):
        with self.assertRaises(RecorderNotFoundError) as caught:
            run(find_recorder(FakeSource(FakeWorker(OTHER_ID), FakeWorker("https://shop.test/sw.js")), timeout=0.2))
        message = str(caught.exception)
        self.assertIn("not found within 0.2 s", message)
        self.assertIn(f"{OTHER_ID} (no globalThis.afr)", message)
        self.assertIn("https://shop.test/sw.js (not the recorder)", message)
        self.assertIn("--load-extension", message)
        self.assertIn("load_recorder", message)

    def test_only_the_given_extension_id(self):
        with self.assertRaises(RecorderNotFoundError) as caught:
            run(find_recorder(FakeSource(FakeWorker(OTHER_ID, FakeAfr())), timeout=0.1, extension_id="jaaohpahabfabmkanbnjkhpfligimhfi"))
        self.assertIn("chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/background.js", str(caught.exception))

    def test_a_browser_that_went_away_is_said_plainly(self):
        source = FakeSource()
        source.browser_gone = True
        with self.assertRaises(RecorderNotFoundError) as caught:
            run(find_recorder(source, timeout=5))
        self.assertIn("the browser is gone", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
