"""
Loading the recorder into a browser started without --load-extension (branded Chrome 137+ ignores it), then
connecting: run by e2e/python-client.spec.ts. Usage: python3 load_and_connect.py <cdp_url> <extension_dir>;
prints a JSON summary (the not-found error before loading, the id, the status after).
"""

import asyncio
import json
import sys

from agent_flight_recorder import Recorder, RecorderNotFoundError, load_recorder


async def main(cdp_url: str, extension_dir: str) -> dict:
    try:
        await Recorder.connect(cdp_url, timeout=2)
        before = None
    except RecorderNotFoundError as error:
        before = str(error)
    # region readme
    extension_id = await load_recorder(cdp_url, extension_dir)  # "jaaohpahabfabmkanbnjkhpfligimhfi"
    async with await Recorder.connect(cdp_url, extension_id=extension_id) as rec:
        status = await rec.status()
    # endregion
    return {"notFound": before, "extensionId": extension_id, "recording": status["recording"], "version": status["version"]}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2]))))
