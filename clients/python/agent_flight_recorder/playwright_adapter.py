"""``from_playwright``: the recorder in a Playwright for Python ``BrowserContext`` (async API), no CDP port needed."""

from __future__ import annotations

import asyncio
from typing import Any, List, Optional

from .errors import EvaluateFailed, WorkerGone, first_line, is_gone_message
from .find_recorder import find_recorder
from .ports import RecorderWorker, WorkerCandidate
from .recorder import DEFAULT_CONNECT_TIMEOUT_S, Recorder


class PlaywrightWorker:
    """Playwright's ``Worker``: ``evaluate`` errors become ``WorkerGone`` or ``EvaluateFailed``."""

    def __init__(self, worker: Any) -> None:
        self._worker = worker

    async def evaluate(self, expression: str) -> Any:
        try:
            return await self._worker.evaluate(expression)
        except Exception as error:  # playwright's Error / TargetClosedError, without importing playwright
            message = str(getattr(error, "message", None) or error)
            if type(error).__name__ == "TargetClosedError" or is_gone_message(message):
                raise WorkerGone(message) from error
            raise EvaluateFailed(first_line(message)) from error


class PlaywrightSource:
    """Service workers of a Playwright ``BrowserContext`` (``context.service_workers``)."""

    def __init__(self, context: Any) -> None:
        self._context = context

    def candidates(self) -> List[WorkerCandidate]:
        def candidate(worker: Any) -> WorkerCandidate:
            async def open_worker() -> Optional[RecorderWorker]:
                return PlaywrightWorker(worker)

            # Playwright drops a worker from service_workers once it closed.
            return WorkerCandidate(worker.url, open_worker, lambda: worker in self._context.service_workers)

        return [candidate(worker) for worker in self._context.service_workers]

    async def wait_for_new(self, seconds: float) -> None:
        try:
            await asyncio.wait_for(self._context.wait_for_event("serviceworker", timeout=max(1, int(seconds * 1000))), seconds)
        except asyncio.TimeoutError:
            return
        except Exception as error:
            if type(error).__name__ == "TargetClosedError" or is_gone_message(str(error)):
                raise WorkerGone(str(error)) from error

    async def wake(self, extension_id: Optional[str]) -> List[str]:
        # Loading any page wakes a stopped extension worker; Playwright gives no browser-wide CDP session here.
        return []


async def from_playwright(context: Any, *, timeout: float = DEFAULT_CONNECT_TIMEOUT_S, extension_id: Optional[str] = None) -> Recorder:
    """
    The recorder in a Playwright for Python ``BrowserContext`` (async API) launched with the extension
    (``launch_persistent_context``, or ``browser.contexts[0]`` after ``connect_over_cdp``). Playwright is
    not a dependency: any object with ``service_workers`` and ``wait_for_event`` fits. Raises
    ``RecorderNotFoundError`` after ``timeout`` seconds.

    Example::

        # the extension, and no debugger infobar taking the bottom of every frame (recorder_launch_args)
        context = await p.chromium.launch_persistent_context("/tmp/agent-profile", args=[
            "--disable-extensions-except=/path/to/chrome-mv3", "--load-extension=/path/to/chrome-mv3",
            "--silent-debugger-extension-api"])
        rec = await from_playwright(context)
        await rec.step(action="open the shop", outcome="ok")
    """
    source = PlaywrightSource(context)
    found = await find_recorder(source, timeout, extension_id)
    return Recorder(source, found, timeout)
