"""What the client needs from a browser connection: raw CDP, Playwright for Python, or a fake in tests."""

from __future__ import annotations

from typing import Any, Awaitable, Callable, List, Optional

try:  # Python 3.8+: typing.Protocol
    from typing import Protocol
except ImportError:  # pragma: no cover
    from typing_extensions import Protocol  # type: ignore


class RecorderWorker(Protocol):
    """A service worker that evaluates a JavaScript expression (awaiting a promise) and returns its value."""

    async def evaluate(self, expression: str) -> Any:
        """Raises ``WorkerGone`` when the worker went away, ``EvaluateFailed`` when the expression threw."""
        ...


class WorkerCandidate:
    """One service worker the browser reports, before the client knows whether it is the recorder."""

    def __init__(
        self,
        url: str,
        open: Callable[[], Awaitable[Optional[RecorderWorker]]],
        is_alive: Callable[[], bool],
        release: Optional[Callable[[], Awaitable[None]]] = None,
    ) -> None:
        self.url = url
        self.open = open
        self.is_alive = is_alive
        #: Lets go of a worker that is not the recorder (a CDP session keeps an extension's worker alive).
        self.release = release


class WorkerSource(Protocol):
    """Where the client looks for the recorder."""

    def candidates(self) -> List[WorkerCandidate]:
        """The service workers running now."""
        ...

    async def wait_for_new(self, seconds: float) -> None:
        """Returns when a new service worker may have started, or after ``seconds``; raises when the browser is gone."""
        ...

    async def wake(self, extension_id: Optional[str]) -> List[str]:
        """Starts stopped extension workers at ``.../background.js``; returns the scopes it started."""
        ...
