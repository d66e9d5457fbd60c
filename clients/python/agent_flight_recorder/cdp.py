"""One WebSocket to the browser's DevTools endpoint, with flattened sessions (``sessionId`` on each message)."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.request
from typing import Any, Callable, Dict, List, Optional

from .errors import WorkerGone, is_gone_message

log = logging.getLogger("agent_flight_recorder")

EventHandler = Callable[[str, Dict[str, Any], Optional[str]], None]


class CdpCommandError(Exception):
    """The browser answered a command with an error."""

    def __init__(self, method: str, message: str) -> None:
        super().__init__(f"{method}: {message}")
        self.method = method
        self.cdp_message = message


def browser_ws_url(cdp_url: str, timeout: float = 10.0) -> str:
    """
    The browser's own WebSocket endpoint. ``ws://``/``wss://`` URLs are taken as they are; for
    ``http://host:port`` it is ``webSocketDebuggerUrl`` of ``GET /json/version``.
    """
    if cdp_url.startswith(("ws://", "wss://")):
        return cdp_url
    if not cdp_url.startswith(("http://", "https://")):
        raise ValueError(f"cdp_url must be http://host:port or a ws:// browser URL, got {cdp_url!r}")
    with urllib.request.urlopen(cdp_url.rstrip("/") + "/json/version", timeout=timeout) as answer:
        version = json.loads(answer.read().decode("utf-8"))
    url = version.get("webSocketDebuggerUrl")
    if not isinstance(url, str):
        raise ValueError(f"{cdp_url}/json/version has no webSocketDebuggerUrl")
    return url


class CdpConnection:
    """
    Commands and events over one browser WebSocket. A command whose session detaches (its target is gone)
    or whose socket closes fails with ``WorkerGone``.
    """

    def __init__(self, ws: Any) -> None:
        self._ws = ws
        self._last_id = 0
        self._pending: Dict[int, "tuple[asyncio.Future[Dict[str, Any]], Optional[str], str]"] = {}
        self._handlers: List[EventHandler] = []
        self.closed = False
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, cdp_url: str) -> "CdpConnection":
        """Connects to the browser endpoint of ``cdp_url`` (``http://host:port`` or ``ws://...``)."""
        import websockets  # Debian: python3-websockets

        url = await asyncio.get_running_loop().run_in_executor(None, browser_ws_url, cdp_url)
        # max_size None: an exported bundle is a few MB of base64 in one message.
        ws = await websockets.connect(url, max_size=None, ping_interval=None)
        return cls(ws)

    def on_event(self, handler: EventHandler) -> Callable[[], None]:
        """Calls ``handler(method, params, session_id)`` for every event; returns a function that stops it."""
        self._handlers.append(handler)
        return lambda: self._handlers.remove(handler) if handler in self._handlers else None

    async def send(self, method: str, params: Optional[Dict[str, Any]] = None, session_id: Optional[str] = None) -> Dict[str, Any]:
        """Sends a command and returns its result; raises ``CdpCommandError`` or ``WorkerGone``."""
        if self.closed:
            raise WorkerGone("the browser connection is closed")
        self._last_id += 1
        message: Dict[str, Any] = {"id": self._last_id, "method": method, "params": params or {}}
        if session_id is not None:
            message["sessionId"] = session_id
        future: "asyncio.Future[Dict[str, Any]]" = asyncio.get_running_loop().create_future()
        self._pending[self._last_id] = (future, session_id, method)
        try:
            await self._ws.send(json.dumps(message))
        except Exception as error:  # the socket closed under us
            self._pending.pop(self._last_id, None)
            raise WorkerGone(f"the browser connection closed ({error})") from error
        return await future

    async def close(self) -> None:
        """Closes the socket; pending commands fail with ``WorkerGone``."""
        self.closed = True
        try:
            await self._ws.close()
        finally:
            self._reader.cancel()
            self._fail_pending(lambda _session: True, "the browser connection was closed")

    def _fail_pending(self, which: Callable[[Optional[str]], bool], why: str) -> None:
        for key, (future, session_id, _method) in list(self._pending.items()):
            if which(session_id) and not future.done():
                future.set_exception(WorkerGone(why))
                del self._pending[key]

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                self._dispatch(json.loads(raw))
        except Exception as error:  # closed or broken socket
            log.debug("CDP connection ended: %s", error)
        finally:
            self.closed = True
            self._fail_pending(lambda _session: True, "the browser connection closed (is the browser gone?)")

    def _dispatch(self, message: Dict[str, Any]) -> None:
        if "id" in message:
            entry = self._pending.pop(message["id"], None)
            if entry is None or entry[0].done():
                return
            future, _session, method = entry
            error = message.get("error")
            if error is None:
                future.set_result(message.get("result") or {})
            elif is_gone_message(str(error.get("message", ""))):
                future.set_exception(WorkerGone(f"{method}: {error.get('message')}"))
            else:
                future.set_exception(CdpCommandError(method, str(error.get("message", error))))
            return
        method = message.get("method", "")
        params = message.get("params") or {}
        if method == "Target.detachedFromTarget":
            gone = params.get("sessionId")
            self._fail_pending(lambda session: session == gone, "the worker's session was detached (the worker stopped)")
        for handler in list(self._handlers):
            try:
                handler(method, params, message.get("sessionId"))
            except Exception:  # a handler's bug must not stop the reader
                log.exception("CDP event handler failed on %s", method)
