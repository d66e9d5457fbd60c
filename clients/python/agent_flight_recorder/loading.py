"""``load_recorder``: loads the unpacked extension into a running browser (branded Chrome 137+ ignores --load-extension)."""

from __future__ import annotations

import os

from .cdp import CdpCommandError, CdpConnection
from .errors import RecorderLoadError, WorkerGone


async def load_recorder(cdp_url: str, extension_path: str) -> str:
    """
    Loads the built extension (``.output/chrome-mv3``) into the browser at ``cdp_url`` with CDP
    ``Extensions.loadUnpacked`` and returns its id (``jaaohpahabfabmkanbnjkhpfligimhfi`` for the recorder's
    pinned key). The browser must allow it: start it with ``--enable-unsafe-extension-debugging``
    (Google Chrome also wants the DevTools connection over ``--remote-debugging-pipe``; Debian's
    Chromium 156 answered over ``--remote-debugging-port`` too). Raises ``RecorderLoadError`` with the
    browser's answer and what to do.

    Example::

        extension_id = await load_recorder("http://127.0.0.1:9222", "/path/to/.output/chrome-mv3")
        rec = await Recorder.connect("http://127.0.0.1:9222", extension_id=extension_id)
    """
    path = os.path.abspath(extension_path)
    if not os.path.isfile(os.path.join(path, "manifest.json")):
        raise RecorderLoadError(f"load_recorder: no manifest.json in {path}: build the extension (npm run build) and pass .output/chrome-mv3")
    conn = await CdpConnection.open(cdp_url)
    try:
        answer = await conn.send("Extensions.loadUnpacked", {"path": path})
    except CdpCommandError as error:
        raise RecorderLoadError(load_refused_message(path, error.cdp_message)) from None
    except WorkerGone as error:
        raise RecorderLoadError(f"load_recorder: the browser went away ({error})") from None
    finally:
        await conn.close()
    extension_id = answer.get("id")
    if not isinstance(extension_id, str):
        raise RecorderLoadError(f"load_recorder: Extensions.loadUnpacked answered without an id: {answer!r}")
    return extension_id


def load_refused_message(path: str, cdp_message: str) -> str:
    """What to say when the browser refuses ``Extensions.loadUnpacked``."""
    hint = ""
    if "not available" in cdp_message.lower() or "not found" in cdp_message.lower():
        hint = (
            " The browser does not offer the Extensions domain on this connection: start it with "
            "--enable-unsafe-extension-debugging, and for Google Chrome connect through --remote-debugging-pipe "
            "(Puppeteer: launch with pipe: true)."
        )
    return f"load_recorder: the browser refused to load {path}: {cdp_message.rstrip('.')}.{hint}"
