"""
Agent Flight Recorder, Python client: reach the recorder extension's ``afr`` API in a Chromium over the
DevTools protocol (``websockets`` only), mark agent steps, and keep failure bundles.
"""

from .browser_use_bridge import browser_use_hooks
from .errors import (
    RecorderCallError,
    RecorderError,
    RecorderLoadError,
    RecorderNotFoundError,
    RecorderTimeoutError,
    RecorderWorkerLostError,
)
from .launch_args import SILENT_DEBUGGER_SWITCH, recorder_launch_args
from .loading import load_recorder
from .playwright_adapter import from_playwright
from .recorder import Recorder
from .sync_recorder import SyncRecorder, load_recorder_sync

#: The id Chrome gives the recorder loaded unpacked (pinned by the manifest ``key``).
RECORDER_EXTENSION_ID = "jaaohpahabfabmkanbnjkhpfligimhfi"

__all__ = [
    "RECORDER_EXTENSION_ID",
    "Recorder",
    "RecorderCallError",
    "RecorderError",
    "RecorderLoadError",
    "RecorderNotFoundError",
    "RecorderTimeoutError",
    "RecorderWorkerLostError",
    "SILENT_DEBUGGER_SWITCH",
    "SyncRecorder",
    "browser_use_hooks",
    "from_playwright",
    "load_recorder",
    "load_recorder_sync",
    "recorder_launch_args",
]
