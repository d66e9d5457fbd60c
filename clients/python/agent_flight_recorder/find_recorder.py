"""Finds the recorder's service worker among the browser's workers, as the Node client does."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Dict, List, Optional

from .errors import RecorderNotFoundError, WorkerGone
from .ports import RecorderWorker, WorkerCandidate, WorkerSource

#: The recorder's service worker: ``chrome-extension://<id>/background.js`` (WXT's output name).
EXTENSION_WORKER_URL = re.compile(r"^chrome-extension://([^/]+)/background\.js$")

#: How often the search looks again at workers that are up but do not expose ``afr`` (yet).
RECHECK_S = 0.25
#: How long one round of probing waits for the workers to answer.
PROBE_ROUND_S = 3.0

PROBE_EXPRESSION = "typeof globalThis.afr === 'object' && globalThis.afr !== null && typeof globalThis.afr.status === 'function'"


class FoundRecorder:
    """The recorder's worker, its extension id, and whether the browser still lists it."""

    def __init__(self, worker: RecorderWorker, extension_id: str, candidate: WorkerCandidate) -> None:
        self.worker = worker
        self.extension_id = extension_id
        self._candidate = candidate

    def is_alive(self) -> bool:
        return self._candidate.is_alive()


async def _probe(candidate: WorkerCandidate, found_id: str, seconds: float) -> "tuple[str, Optional[RecorderWorker], WorkerCandidate, str]":
    verdict, worker = await _verdict(candidate, seconds)
    if worker is None and verdict == "no globalThis.afr" and candidate.release is not None:
        try:
            await candidate.release()
        except Exception:  # letting go is a courtesy: the search goes on
            pass
    return verdict, worker, candidate, found_id


async def _verdict(candidate: WorkerCandidate, seconds: float) -> "tuple[str, Optional[RecorderWorker]]":
    try:
        worker = await asyncio.wait_for(candidate.open(), seconds)
    except Exception:
        return "gone", None
    if worker is None:
        return "gone", None
    try:
        has = await asyncio.wait_for(worker.evaluate(PROBE_EXPRESSION), seconds)
    except asyncio.TimeoutError:
        return "not answering", None
    except Exception:
        return "gone", None
    return ("afr", worker) if has is True else ("no globalThis.afr", None)


async def find_recorder(source: WorkerSource, timeout: float, extension_id: Optional[str] = None) -> FoundRecorder:
    """
    Finds the service worker at ``chrome-extension://<id>/background.js`` that exposes ``afr``, waiting for
    it until ``timeout`` seconds have passed. Other extensions may run a ``background.js`` too, so each is
    asked whether it has ``afr``, all at once. When none answers, stopped extension workers are started
    (Chrome stops an idle extension worker after 30 s).
    """
    deadline = time.monotonic() + timeout
    seen: Dict[str, str] = {}
    woke: List[str] = []
    tried_wake = False
    while True:
        probes = []
        for candidate in source.candidates():
            match = EXTENSION_WORKER_URL.match(candidate.url)
            if not match or (extension_id is not None and match.group(1) != extension_id):
                seen[candidate.url] = "not the recorder"
                continue
            seconds = max(0.001, min(PROBE_ROUND_S, deadline - time.monotonic()))
            probes.append((candidate, match.group(1), asyncio.ensure_future(_probe(candidate, match.group(1), seconds))))
        found: Optional[FoundRecorder] = None
        # The first worker to answer with afr wins; one that never answers does not hold up the others.
        for done in asyncio.as_completed([task for _c, _id, task in probes]):
            verdict, worker, candidate, found_id = await done
            seen[candidate.url] = verdict
            if worker is not None:
                found = FoundRecorder(worker, found_id, candidate)
                break
        if found:
            return found
        if not tried_wake:
            tried_wake = True
            try:
                woke = await source.wake(extension_id)
            except WorkerGone as error:
                raise RecorderNotFoundError(f"Agent Flight Recorder not found: the browser is gone ({error})") from error
            if woke:
                continue
        left = deadline - time.monotonic()
        if left <= 0:
            raise RecorderNotFoundError(_not_found_message(timeout, extension_id, seen, woke))
        try:
            await source.wait_for_new(min(left, RECHECK_S))
        except WorkerGone as error:
            raise RecorderNotFoundError(f"Agent Flight Recorder not found: the browser is gone ({error})") from error


def _not_found_message(timeout: float, extension_id: Optional[str], seen: Dict[str, str], woke: List[str]) -> str:
    where = f"chrome-extension://{extension_id or '<id>'}/background.js"
    workers = ", ".join(f"{url} ({verdict})" for url, verdict in seen.items()) or "none"
    started = f" Started stopped workers: {', '.join(woke)}." if woke else ""
    return (
        f"Agent Flight Recorder not found within {timeout:g} s: no service worker at {where} exposes "
        f"globalThis.afr. Service workers seen: {workers}.{started} Launch Chromium (branded Chrome 137+ "
        "ignores --load-extension: use load_recorder) with --disable-extensions-except=<dir> "
        "--load-extension=<dir> --silent-debugger-extension-api (recorder_launch_args(<dir>) gives them; the "
        "last keeps the debugger infobar off the frames), <dir> being the built extension (.output/chrome-mv3), and connect to its "
        "--remote-debugging-port; a context from browser.new_context() is incognito-like and the extension "
        "does not run in it."
    )
