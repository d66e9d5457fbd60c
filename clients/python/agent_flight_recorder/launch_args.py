"""Chromium's switches for a launch with the recorder."""

import os
from typing import List

#: Keeps the "started debugging this browser" infobar out of the window. The recorder's debugger session
#: would raise it, and it takes the bottom 87-143 px of the window: frames would miss the bottom of the
#: page's viewport (a fixed footer, a button down there).
SILENT_DEBUGGER_SWITCH = "--silent-debugger-extension-api"


def recorder_launch_args(extension_dir: str) -> List[str]:
    """
    Chromium's switches for a launch with the recorder: load the built extension (``.output/chrome-mv3``)
    and no other, and no debugger infobar (``SILENT_DEBUGGER_SWITCH``), so frames show the whole viewport.

    Example::

        context = await p.chromium.launch_persistent_context("/tmp/agent-profile", args=recorder_launch_args("/path/to/chrome-mv3"))
    """
    path = os.path.abspath(extension_dir)
    return [f"--disable-extensions-except={path}", f"--load-extension={path}", SILENT_DEBUGGER_SWITCH]
