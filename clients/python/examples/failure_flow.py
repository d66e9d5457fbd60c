"""
A run with steps that fails, read back through the Python client: the code of the example in clients/python/README.md,
run by e2e/python-client.spec.ts. Usage: python3 failure_flow.py <cdp_url> <out_dir>; prints a JSON summary.
"""

import asyncio
import json
import sys
import time

from agent_flight_recorder import Recorder, RecorderCallError


async def main(cdp_url: str, out_dir: str) -> dict:
    # region readme
    async with await Recorder.connect(cdp_url) as rec:  # e.g. "http://127.0.0.1:9222"
        run_id = await rec.run_start(agent="shop-bot", agent_version="1.4.0", task="check out with a saved card")
        await rec.step(action='open "Account settings"', target="#settings", outcome="ok", goal="reach the payment form")
        await rec.mark("payment form reached")
        await rec.step(action='click "Save card"', target="#save-card", outcome="fail", reasoning="the button stayed disabled")
        since = time.time()  # taken before the failure: the bundle is stored seconds later
        bundle_id = await rec.fail(reason="agent_failure", label="the card was never saved")
        bundle = await rec.wait_for_bundle(since=since, reason="agent_failure", timeout=60)
        zip_path = await rec.save_bundle(bundle["id"], out_dir)  # <out_dir>/<bundle id>.zip
        await rec.run_end(outcome="failed")
    # endregion
        try:
            await rec.configure({"bufferSeconds": -1})
            refused = None
        except RecorderCallError as error:
            refused = str(error)
        status = await rec.status()
    return {
        "runId": run_id,
        "bundleId": bundle_id,
        "waitedBundleId": bundle["id"],
        "zipPath": zip_path,
        "extensionId": rec.extension_id,
        "refused": refused,
        "recording": status["recording"],
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2]))))
