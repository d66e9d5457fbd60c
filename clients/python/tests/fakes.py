"""Fakes of the client's ports: a browser's workers and the recorder's ``afr`` behind them."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any, Callable, Dict, List, Optional

from agent_flight_recorder.errors import EvaluateFailed, WorkerGone
from agent_flight_recorder.find_recorder import PROBE_EXPRESSION
from agent_flight_recorder.ports import WorkerCandidate

_CALL = re.compile(r"const method = (\".*?\"); .* return await fn\.apply\(api, (.*)\); \}\)\(\)$", re.S)


def parse_call(expression: str) -> "tuple[str, List[Any]]":
    """The method and arguments of a ``call_expression``."""
    match = _CALL.search(expression)
    assert match, expression
    return json.loads(match.group(1)), json.loads(match.group(2))


class FakeAfr:
    """The recorder's API as the fake worker answers it: ``handlers[method](*args)``, errors as EvaluateFailed."""

    def __init__(self, **handlers: Callable[..., Any]) -> None:
        self.handlers = handlers
        self.calls: List["tuple[str, List[Any]]"] = []

    def answer(self, method: str, args: List[Any]) -> Any:
        self.calls.append((method, args))
        handler = self.handlers.get(method)
        if handler is None:
            raise EvaluateFailed(f"afr.{method} is not a function in this version of the extension")
        return handler(*args)


class FakeWorker:
    """A service worker: with ``afr`` set it is the recorder; ``gone_on`` makes the next calls of a method fail as gone."""

    def __init__(self, url: str, afr: Optional[FakeAfr] = None) -> None:
        self.url = url
        self.afr = afr
        self.alive = True
        self.gone_on: Dict[str, int] = {}
        self.hang = False

    async def evaluate(self, expression: str) -> Any:
        if self.hang:
            await asyncio.sleep(3600)
        if not self.alive:
            raise WorkerGone("Target closed")
        if expression == PROBE_EXPRESSION:
            return self.afr is not None
        method, args = parse_call(expression)
        if self.gone_on.get(method, 0) > 0:
            self.gone_on[method] -= 1
            self.alive = False
            raise WorkerGone("Session with given id not found")
        assert self.afr is not None
        return self.afr.answer(method, args)


class FakeSource:
    """The browser's service workers; ``stopped`` ones come back when woken."""

    def __init__(self, *workers: FakeWorker) -> None:
        self.workers: List[FakeWorker] = list(workers)
        self.stopped: List[FakeWorker] = []
        self.wakes = 0
        self.browser_gone = False
        self.released: List[str] = []

    def candidates(self) -> List[WorkerCandidate]:
        def candidate(worker: FakeWorker) -> WorkerCandidate:
            async def open_worker() -> FakeWorker:
                return worker

            async def release() -> None:
                self.released.append(worker.url)

            return WorkerCandidate(worker.url, open_worker, lambda: worker.alive and worker in self.workers, release)

        return [candidate(w) for w in self.workers if w.alive]

    async def wait_for_new(self, seconds: float) -> None:
        if self.browser_gone:
            raise WorkerGone("the browser connection is closed")
        await asyncio.sleep(min(seconds, 0.01))

    async def wake(self, extension_id: Optional[str]) -> List[str]:
        self.wakes += 1
        started = [w for w in self.stopped if extension_id is None or f"//{extension_id}/" in w.url]
        for worker in started:
            self.stopped.remove(worker)
            self.workers.append(worker)
        return [w.url.rsplit("/", 1)[0] + "/" for w in started]

    def restart(self, old: FakeWorker) -> FakeWorker:
        """Chrome restarted the worker: a new one at the same URL with the same afr."""
        old.alive = False
        fresh = FakeWorker(old.url, old.afr)
        self.workers = [w for w in self.workers if w is not old] + [fresh]
        return fresh
