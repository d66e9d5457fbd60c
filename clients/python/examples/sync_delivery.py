"""
Blocking calls (``SyncRecorder``) for code without an event loop: a failure delivered to object storage,
run by e2e/python-client.spec.ts. Usage: python3 sync_delivery.py <cdp_url> <stored bundle id> <upload
settings as JSON>; prints a JSON summary.
"""

import json
import sys

from agent_flight_recorder import RecorderCallError, SyncRecorder


def main(cdp_url: str, stored_id: str, upload: dict) -> dict:
    with SyncRecorder.connect(cdp_url) as rec:
        # The upload setting is off: the stored bundle is not queued, and waiting for it says so at once.
        try:
            rec.wait_delivered(stored_id, timeout=5)
            not_queued = None
        except RecorderCallError as error:
            not_queued = str(error)
        rec.configure({"upload": upload, "postFailureSeconds": 0, "failureCooldownMs": 0})
        bundle_id = rec.fail("delivery_probe", label="sent to the bucket")
        delivered = rec.wait_delivered(bundle_id, timeout=60)
        listed = next(b for b in rec.bundles() if b["id"] == bundle_id)
    return {"notQueued": not_queued, "bundleId": bundle_id, "delivered": delivered, "listedUpload": listed.get("upload")}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))))
