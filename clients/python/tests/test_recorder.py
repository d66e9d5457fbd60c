import asyncio
import base64
import os
import tempfile
import unittest

from agent_flight_recorder.errors import RecorderCallError, RecorderTimeoutError, RecorderWorkerLostError
from agent_flight_recorder.errors import EvaluateFailed
from agent_flight_recorder.find_recorder import find_recorder
from agent_flight_recorder.recorder import Recorder, call_expression
from tests.fakes import FakeAfr, FakeSource, FakeWorker, parse_call

URL = "chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/background.js"


async def connect(afr: FakeAfr) -> "tuple[Recorder, FakeSource, FakeWorker]":
    worker = FakeWorker(URL, afr)
    source = FakeSource(worker)
    found = await find_recorder(source, 1)
    return Recorder(source, found, 1), source, worker


def bundle(id_: str, created_at: str, reason: str = "agent_failure", trigger: str = "agent") -> dict:
    return {"id": id_, "createdAt": created_at, "reason": reason, "trigger": trigger}


class RecorderTest(unittest.TestCase):
    def test_keyword_arguments_reach_afr_as_its_camel_case_fields(self):
        async def scenario():
            afr = FakeAfr(runStart=lambda o: "run-1", step=lambda o: None, assert_=None, fail=lambda o: "afr-20261125T100000Z-abcdef")
            afr.handlers["assert"] = lambda o: None
            rec, _, _ = await connect(afr)
            self.assertEqual(await rec.run_start(agent="bot", agent_version="2", run_id="r.1", tab_id=7), "run-1")
            await rec.step("click", target="#a", outcome="ok", goal="g")
            await rec.assert_("cart has 2", True, expected="2", actual="2")
            self.assertEqual(await rec.fail("agent_failure", label="loop"), "afr-20261125T100000Z-abcdef")
            return afr.calls

        calls = asyncio.run(scenario())
        self.assertEqual(calls, [
            ("runStart", [{"agent": "bot", "agentVersion": "2", "runId": "r.1", "tabId": 7}]),
            ("step", [{"action": "click", "target": "#a", "outcome": "ok", "goal": "g"}]),
            ("assert", [{"label": "cart has 2", "passed": True, "expected": "2", "actual": "2"}]),
            ("fail", [{"reason": "agent_failure", "label": "loop"}]),
        ])

    def test_method_and_arguments_go_into_the_worker_as_json_never_as_code(self):
        hostile = "'); globalThis.pwned = 1; ('"
        method, args = parse_call(call_expression("step", [{"action": hostile, "label": "`${x}`\u2028"}]))
        self.assertEqual((method, args), ("step", [{"action": hostile, "label": "`${x}`\u2028"}]))

    def test_the_recorders_refusal_is_a_call_error_with_its_words(self):
        def refuse(_patch):
            raise EvaluateFailed("invalid settings: bufferSeconds: Too small: expected number to be >=1")

        async def scenario():
            rec, _, _ = await connect(FakeAfr(configure=refuse))
            await rec.configure({"bufferSeconds": 0})

        with self.assertRaises(RecorderCallError) as caught:
            asyncio.run(scenario())
        self.assertEqual(str(caught.exception), "afr.configure: invalid settings: bufferSeconds: Too small: expected number to be >=1")
        self.assertEqual(caught.exception.method, "configure")

    def test_a_repeat_safe_call_finds_the_restarted_worker_and_is_retried_once(self):
        async def scenario():
            afr = FakeAfr(status=lambda: {"recording": True})
            rec, source, worker = await connect(afr)
            worker.gone_on["status"] = 1
            source.workers.append(FakeWorker(URL, afr))  # Chrome started it again
            return await rec.status(), len(afr.calls)

        self.assertEqual(asyncio.run(scenario()), ({"recording": True}, 1))

    def test_a_call_that_may_have_been_applied_is_not_repeated(self):
        async def scenario():
            afr = FakeAfr(fail=lambda o: "afr-x", status=lambda: {"recording": True})
            rec, source, worker = await connect(afr)
            worker.gone_on["fail"] = 1
            source.workers.append(FakeWorker(URL, afr))
            try:
                await rec.fail("agent_failure")
            except RecorderWorkerLostError as error:
                lost = str(error)
            return lost, await rec.status()  # the next call finds the worker again

        lost, status = asyncio.run(scenario())
        self.assertIn("afr.fail: the recorder's service worker went away during the call", lost)
        self.assertIn("not repeated", lost)
        self.assertEqual(status, {"recording": True})

    def test_save_bundle_writes_the_zip_into_a_directory_or_to_a_zip_path(self):
        zip_bytes = b"PK\x03\x04 bundle"

        async def scenario(target):
            rec, _, _ = await connect(FakeAfr(exportBundle=lambda i: base64.b64encode(zip_bytes).decode()))
            return await rec.save_bundle("afr-20261125T100000Z-abcdef", target)

        with tempfile.TemporaryDirectory() as tmp:
            into_dir = asyncio.run(scenario(os.path.join(tmp, "bundles")))
            as_file = asyncio.run(scenario(os.path.join(tmp, "x", "failure.zip")))
            self.assertEqual(into_dir, os.path.join(tmp, "bundles", "afr-20261125T100000Z-abcdef.zip"))
            self.assertEqual(as_file, os.path.join(tmp, "x", "failure.zip"))
            for path in (into_dir, as_file):
                with open(path, "rb") as file:
                    self.assertEqual(file.read(), zip_bytes)

    def test_wait_for_bundle_asks_the_worker_with_since_in_ms_and_a_bounded_wait(self):
        found = bundle("afr-20261125T100001Z-bbbbbb", "2026-11-25T10:00:01.000Z", "http_5xx", "signal")

        async def scenario():
            afr = FakeAfr(waitForBundle=lambda q: found)
            rec, _, _ = await connect(afr)
            result = await rec.wait_for_bundle(since=1795600000.5, reason="http_5xx", timeout=45)
            return result, afr.calls

        result, calls = asyncio.run(scenario())
        self.assertEqual(result, found)
        self.assertEqual(calls, [("waitForBundle", [{"since": 1795600000500, "reason": "http_5xx", "timeoutMs": 20000}])])

    def test_wait_for_bundle_polls_a_recorder_without_wait_for_bundle(self):
        listed = [bundle("afr-20261125T100000Z-aaaaaa", "2026-11-25T10:00:00.000Z")]
        later = bundle("afr-20261125T100005Z-cccccc", "2026-11-25T10:00:05.000Z", "exception", "signal")

        def list_bundles():
            if len([c for c in afr.calls if c[0] == "listBundles"]) >= 2:
                return [later, *listed]
            return listed

        afr = FakeAfr(listBundles=list_bundles)

        async def scenario():
            rec, _, _ = await connect(afr)
            return await rec.wait_for_bundle(since="afr-20261125T100000Z-aaaaaa", timeout=5)

        self.assertEqual(asyncio.run(scenario()), later)

    def test_wait_for_bundle_times_out_with_what_it_waited_for(self):
        async def scenario():
            rec, _, _ = await connect(FakeAfr(waitForBundle=lambda q: None))
            await rec.wait_for_bundle(since="2026-11-25T10:00:00Z", reason="crash", timeout=0.05)

        with self.assertRaises(RecorderTimeoutError) as caught:
            asyncio.run(scenario())
        self.assertEqual(str(caught.exception), "wait_for_bundle: no bundle with reason crash after 2026-11-25T10:00:00Z was stored within 0.05 s")

    def test_a_since_that_is_no_time_is_refused(self):
        async def scenario():
            rec, _, _ = await connect(FakeAfr(waitForBundle=lambda q: None))
            await rec.wait_for_bundle(since=True)

        with self.assertRaises(RecorderCallError):
            asyncio.run(scenario())


ID = "afr-20261125T100000Z-aaaaaa"
KEY = f"ci/bundles/2026/11/25/{ID}.zip"


def listing(*uploads: "dict | None") -> FakeAfr:
    """A recorder whose bundle ``ID`` goes through ``uploads``, one per ``listBundles`` (the last one stays)."""
    afr = FakeAfr()
    seen = []

    def list_bundles():
        upload = uploads[min(len(seen), len(uploads) - 1)]
        seen.append(upload)
        summary = {**bundle(ID, "2026-11-25T10:00:01.000Z", "checkout_failed"), "sizeBytes": 10}
        return [summary] if upload is None else [{**summary, "upload": upload}]

    afr.handlers["listBundles"] = list_bundles
    return afr


def wait_delivered(afr: FakeAfr, bundle_id: str = ID, timeout: float = 5) -> dict:
    async def scenario():
        rec, _, _ = await connect(afr)
        return await rec.wait_delivered(bundle_id, timeout=timeout)

    return asyncio.run(scenario())


class WaitDeliveredTest(unittest.TestCase):
    def test_returns_the_upload_entry_with_its_key_once_the_store_confirmed_the_bundle(self):
        afr = listing({"state": "pending", "attempts": 0}, {"state": "uploading", "attempts": 0}, {"state": "delivered", "attempts": 1, "key": KEY})
        self.assertEqual(wait_delivered(afr), {"state": "delivered", "attempts": 1, "key": KEY})
        self.assertEqual([m for m, _ in afr.calls], ["listBundles"] * 3)

    def test_raises_with_the_stores_words_when_delivery_failed_for_good(self):
        afr = listing({"state": "failed", "attempts": 1, "lastError": "writing x: HTTP 403 (SignatureDoesNotMatch)"})
        with self.assertRaises(RecorderCallError) as caught:
            wait_delivered(afr)
        self.assertEqual(str(caught.exception), f"afr.waitDelivered: bundle {ID} was not delivered: writing x: HTTP 403 (SignatureDoesNotMatch)")
        self.assertEqual(len(afr.calls), 1)  # no waiting on a bundle that will not go

    def test_raises_when_the_bundle_is_left_home_not_queued_or_not_stored(self):
        with self.assertRaisesRegex(RecorderCallError, "upload.include leaves passing runs home"):
            wait_delivered(listing({"state": "skipped", "attempts": 0}))
        with self.assertRaisesRegex(RecorderCallError, r"is not queued for delivery \(is the upload setting on\?\)"):
            wait_delivered(listing(None))
        with self.assertRaisesRegex(RecorderCallError, "^afr.waitDelivered: no stored bundle with id afr-20261125T100000Z-zzzzzz$"):
            wait_delivered(listing({"state": "delivered", "attempts": 1, "key": KEY}), "afr-20261125T100000Z-zzzzzz")

    def test_times_out_while_the_bundle_is_still_pending_saying_how_far_it_got(self):
        afr = listing({"state": "pending", "attempts": 3, "lastError": "no answer from the store"})
        with self.assertRaises(RecorderTimeoutError) as caught:
            wait_delivered(afr, timeout=0.05)
        self.assertEqual(str(caught.exception), f"wait_delivered: bundle {ID} was not delivered (pending after 3 attempts: no answer from the store) within 0.05 s")
        self.assertEqual(caught.exception.timeout, 0.05)

    def test_survives_worker_restarts_while_it_waits(self):
        afr = listing({"state": "uploading", "attempts": 0}, {"state": "delivered", "attempts": 1, "key": KEY})

        async def scenario():
            rec, source, worker = await connect(afr)
            retried = FakeWorker(URL, afr)
            worker.gone_on["listBundles"] = retried.gone_on["listBundles"] = 1  # the call and its retry both meet a stopped worker
            source.workers += [retried, FakeWorker(URL, afr)]  # Chrome started it again, twice
            return await rec.wait_delivered(ID, timeout=5), retried.alive

        delivered, retried_alive = asyncio.run(scenario())
        self.assertEqual(delivered, {"state": "delivered", "attempts": 1, "key": KEY})
        self.assertFalse(retried_alive)


if __name__ == "__main__":
    unittest.main()
