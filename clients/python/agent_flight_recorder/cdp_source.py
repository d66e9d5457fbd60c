"""The browser's service workers as raw CDP reports them: ``Target.setDiscoverTargets`` and flattened sessions."""

from __future__ import annotations

import asyncio
import re
from typing import Any, Dict, List, Optional

from .cdp import CdpCommandError, CdpConnection
from .errors import EvaluateFailed, WorkerGone, first_line
from .ports import RecorderWorker, WorkerCandidate

_WORKER_SCRIPT = re.compile(r"^chrome-extension://([^/]+)/background\.js$")


class CdpWorker:
    """A service worker target attached through a flattened session."""

    def __init__(self, conn: CdpConnection, session_id: str) -> None:
        self._conn = conn
        self.session_id = session_id

    async def evaluate(self, expression: str) -> Any:
        try:
            answer = await self._conn.send(
                "Runtime.evaluate",
                {"expression": expression, "awaitPromise": True, "returnByValue": True},
                self.session_id,
            )
        except CdpCommandError as error:
            raise EvaluateFailed(error.cdp_message) from error
        details = answer.get("exceptionDetails")
        if details:
            exception = details.get("exception") or {}
            text = exception.get("description") or exception.get("value") or details.get("text") or "exception"
            raise EvaluateFailed(first_line(str(text)))
        return (answer.get("result") or {}).get("value")


class CdpSource:
    """Service worker targets of a browser reached over one CDP WebSocket."""

    def __init__(self, conn: CdpConnection) -> None:
        self._conn = conn
        self._targets: Dict[str, Dict[str, Any]] = {}
        self._sessions: Dict[str, CdpWorker] = {}
        self._new_worker = asyncio.Event()
        conn.on_event(self._on_event)

    async def start(self) -> None:
        """Starts following targets (created, changed, destroyed) and lists the current ones."""
        await self._conn.send("Target.setDiscoverTargets", {"discover": True})
        for info in (await self._conn.send("Target.getTargets")).get("targetInfos", []):
            self._targets.setdefault(info["targetId"], info)

    def _on_event(self, method: str, params: Dict[str, Any], _session: Optional[str]) -> None:
        if method in ("Target.targetCreated", "Target.targetInfoChanged"):
            info = params.get("targetInfo") or {}
            if "targetId" in info:
                is_new = info["targetId"] not in self._targets
                self._targets[info["targetId"]] = info
                if is_new and info.get("type") == "service_worker":
                    self._new_worker.set()
        elif method == "Target.targetDestroyed":
            target_id = params.get("targetId")
            self._targets.pop(target_id, None)
            self._sessions.pop(target_id, None)
        elif method == "Target.detachedFromTarget":
            for target_id, worker in list(self._sessions.items()):
                if worker.session_id == params.get("sessionId"):
                    del self._sessions[target_id]

    def candidates(self) -> List[WorkerCandidate]:
        return [self._candidate(info) for info in list(self._targets.values()) if info.get("type") == "service_worker"]

    def _candidate(self, info: Dict[str, Any]) -> WorkerCandidate:
        target_id = info["targetId"]

        async def open_worker() -> Optional[RecorderWorker]:
            worker = self._sessions.get(target_id)
            if worker is not None:
                return worker
            try:
                attached = await self._conn.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})
            except CdpCommandError:
                return None
            worker = CdpWorker(self._conn, attached["sessionId"])
            self._sessions[target_id] = worker
            return worker

        async def release() -> None:
            # Another extension's worker: an attached session would keep it alive (Chrome 118+).
            worker = self._sessions.pop(target_id, None)
            if worker is not None:
                await self._conn.send("Target.detachFromTarget", {"sessionId": worker.session_id})

        # A stopped worker's target is destroyed (and its session detached); a restarted one is a new target.
        return WorkerCandidate(info.get("url", ""), open_worker, lambda: not self._conn.closed and target_id in self._sessions, release)

    async def wait_for_new(self, seconds: float) -> None:
        if self._conn.closed:
            raise WorkerGone("the browser connection is closed")
        self._new_worker.clear()
        try:
            await asyncio.wait_for(self._new_worker.wait(), seconds)
        except asyncio.TimeoutError:
            pass
        if self._conn.closed:
            raise WorkerGone("the browser connection is closed")

    async def wake(self, extension_id: Optional[str]) -> List[str]:
        """
        Starts stopped extension workers (``chrome-extension://<id>/background.js``) with the ServiceWorker
        domain of a page target, which lists every registration of the profile, the extensions' included.
        Needs one page target (any tab); returns the scopes started.
        """
        page = next((info for info in self._targets.values() if info.get("type") == "page"), None)
        if page is None:
            return []
        try:
            session = (await self._conn.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True}))["sessionId"]
        except CdpCommandError:
            return []
        versions: Dict[str, Dict[str, Any]] = {}
        scopes: Dict[str, str] = {}

        def collect(method: str, params: Dict[str, Any], from_session: Optional[str]) -> None:
            if from_session != session:
                return
            if method == "ServiceWorker.workerVersionUpdated":
                for version in params.get("versions", []):
                    versions[version.get("versionId", "")] = version
            elif method == "ServiceWorker.workerRegistrationUpdated":
                for registration in params.get("registrations", []):
                    scopes[registration["registrationId"]] = registration["scopeURL"]

        stop = self._conn.on_event(collect)
        started: List[str] = []
        try:
            await self._conn.send("ServiceWorker.enable", {}, session)
            # The registrations and versions arrive as events right after enable.
            await asyncio.sleep(0.3)
            for version in list(versions.values()):
                match = _WORKER_SCRIPT.match(version.get("scriptURL", ""))
                scope = scopes.get(version.get("registrationId", ""))
                if not match or scope is None or (extension_id is not None and match.group(1) != extension_id):
                    continue
                if version.get("runningStatus") in ("running", "starting") or scope in started:
                    continue
                await self._conn.send("ServiceWorker.startWorker", {"scopeURL": scope}, session)
                started.append(scope)
        except CdpCommandError:
            pass
        finally:
            stop()
            try:
                await self._conn.send("Target.detachFromTarget", {"sessionId": session})
            except (CdpCommandError, WorkerGone):
                pass
        return started
