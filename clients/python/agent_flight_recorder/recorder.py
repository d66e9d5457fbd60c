"""``Recorder``: the asyncio client of the recorder's ``afr`` API."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
import functools
from typing import Any, Awaitable, Callable, Dict, List, Optional, TypeVar

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])

from .errors import EvaluateFailed, RecorderCallError, RecorderTimeoutError, RecorderWorkerLostError, WorkerGone
from .find_recorder import FoundRecorder, find_recorder
from .next_bundle import Since, describe_query, next_bundle, since_value
from .ports import WorkerSource
from .tool_calls import call_input, error_status, error_text

#: ``wait_for_bundle``'s default wait, in seconds.
DEFAULT_BUNDLE_WAIT_S = 30.0
#: One wait inside the service worker: a worker Chrome restarts meanwhile costs at most this much of it.
WORKER_WAIT_S = 20.0
#: ``wait_delivered``'s default wait, in seconds: a bundle of a few megabytes over a slow link, with a retry or two.
DEFAULT_DELIVERY_WAIT_S = 60.0
#: How often a recorder without ``afr.waitForBundle`` (and ``wait_delivered``) asks for the bundles.
POLL_S = 0.5
#: How long ``connect`` waits for the recorder's worker, at connection and after a restart.
DEFAULT_CONNECT_TIMEOUT_S = 15.0

_MISSING_METHOD = "is not a function in this version of the extension"


def call_expression(method: str, args: List[Any]) -> str:
    """The JavaScript that calls ``afr.<method>(...args)`` in the worker; method and arguments go in as JSON."""
    return (
        "(async () => { const api = globalThis.afr;"
        " if (typeof api !== 'object' || api === null) throw new Error('globalThis.afr is missing from the service worker');"
        f" const method = {json.dumps(method)}; const fn = api[method];"
        " if (typeof fn !== 'function') throw new Error(`afr.${method} " + _MISSING_METHOD + "`);"
        f" return await fn.apply(api, {json.dumps(args)}); }})()"
    )


def _options(fields: Dict[str, Any]) -> Dict[str, Any]:
    """snake_case keyword arguments as the recorder's camelCase fields, without the ones left out (None)."""
    out: Dict[str, Any] = {}
    for key, value in fields.items():
        if value is None:
            continue
        head, *rest = key.split("_")
        out[head + "".join(word.capitalize() for word in rest)] = value
    return out


def _describe_delivery(upload: Optional[Dict[str, Any]]) -> str:
    """How far a delivery got, for a timeout: ``pending after 3 attempts: <the store's last words>``."""
    if upload is None:
        return "no answer"
    error = upload.get("lastError")
    return f"{upload.get('state')} after {upload.get('attempts', 0)} attempts{f': {error}' if error else ''}"


class Recorder:
    """
    A connection to the recorder's service worker; every method calls ``globalThis.afr.<method>`` there.

    Chrome may stop or restart an extension's service worker. Before each call the client checks that the
    browser still lists the worker and finds it again (starting it if it is stopped) if not. The read-only
    and repeat-safe calls (``status``, ``settings``, ``configure``, ``bundles``, ``export_bundle``,
    ``save_bundle``, ``delete_bundle``) are retried once after the worker went away during them
    (``wait_for_bundle`` and ``wait_delivered`` until their time is up); the others (``run_start``, ``run_end``, ``step``,
    ``assert_``, ``mark``, ``fail``) raise ``RecorderWorkerLostError``: the recorder may have applied them.

    Example::

        async with await Recorder.connect("http://127.0.0.1:9222") as rec:
            await rec.run_start(agent="shop-bot", task="buy trail shoes")
            await rec.step(action='click "Add to cart"', target="#add-shoes", outcome="ok")
            bundle_id = await rec.assert_(label="cart shows 1 item", passed=False, expected="1", actual="0")
            if bundle_id:
                await rec.save_bundle(bundle_id, "bundles")  # bundles/<bundle_id>.zip
    """

    def __init__(
        self,
        source: WorkerSource,
        found: FoundRecorder,
        timeout: float,
        close: Optional[Callable[[], Awaitable[None]]] = None,
    ) -> None:
        """Use ``Recorder.connect`` (raw CDP) or ``from_playwright``."""
        self._source = source
        self._found: Optional[FoundRecorder] = found
        self._timeout = timeout
        self._close = close
        #: The extension's id (the host of ``chrome-extension://<id>/...`` pages).
        self.extension_id = found.extension_id

    @classmethod
    async def connect(cls, cdp_url: str, *, timeout: float = DEFAULT_CONNECT_TIMEOUT_S, extension_id: Optional[str] = None) -> "Recorder":
        """
        Connects to the browser at ``cdp_url`` (``http://127.0.0.1:9222``, the port of
        ``--remote-debugging-port``, or the browser's ``ws://.../devtools/browser/...`` URL) and finds the
        recorder's service worker, starting it if Chrome stopped it. Raises ``RecorderNotFoundError`` after
        ``timeout`` seconds, saying which workers it saw.
        """
        from .cdp import CdpConnection
        from .cdp_source import CdpSource

        conn = await CdpConnection.open(cdp_url)
        try:
            source = CdpSource(conn)
            await source.start()
            found = await find_recorder(source, timeout, extension_id)
        except BaseException:
            await conn.close()
            raise
        return cls(source, found, timeout, conn.close)

    async def close(self) -> None:
        """Closes the connection (the browser and the recorder keep running)."""
        if self._close is not None:
            await self._close()

    async def __aenter__(self) -> "Recorder":
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    # --- afr calls -------------------------------------------------------------------------------------

    async def status(self) -> Dict[str, Any]:
        """Recording state: frames, bytes, fps, tabs, the current run... Retried after a worker restart."""
        return await self._call("status", [], True)

    async def settings(self) -> Dict[str, Any]:
        """The current settings. Retried after a worker restart."""
        return await self._call("getSettings", [], True)

    async def configure(self, patch: Dict[str, Any]) -> Dict[str, Any]:
        """Validates and applies a settings change (the setting names of docs/signals-and-settings.md); returns all settings."""
        return await self._call("configure", [patch], True)

    async def run_start(self, *, tab_id: Optional[int] = None, run_id: Optional[str] = None, agent: Optional[str] = None,
                        agent_version: Optional[str] = None, task: Optional[str] = None) -> str:
        """Opens a run on the timeline (default tab: the visible one); returns its id. Not retried."""
        return await self._call("runStart", [_options(dict(tab_id=tab_id, run_id=run_id, agent=agent, agent_version=agent_version, task=task))], False)

    async def run_end(self, *, tab_id: Optional[int] = None, outcome: Optional[str] = None, label: Optional[str] = None) -> Optional[str]:
        """Closes the run (``outcome``: ``passed``/``failed``); returns a bundle id when ``persistMode: always`` bundled it."""
        return await self._call("runEnd", [_options(dict(tab_id=tab_id, outcome=outcome, label=label))], False)

    async def step(self, action: str, *, target: Optional[str] = None, outcome: Optional[str] = None, label: Optional[str] = None,
                   goal: Optional[str] = None, reasoning: Optional[str] = None, tab_id: Optional[int] = None) -> None:
        """Adds an agent step to the timeline (``outcome``: ``ok``/``fail``). Not retried."""
        await self._call("step", [_options(dict(action=action, target=target, outcome=outcome, label=label, goal=goal, reasoning=reasoning, tab_id=tab_id))], False)

    async def assert_(self, label: str, passed: bool, *, expected: Optional[str] = None, actual: Optional[str] = None,
                      reasoning: Optional[str] = None, tab_id: Optional[int] = None) -> Optional[str]:
        """Records a check; returns the bundle id when a failed check was bundled, else None. Not retried."""
        return await self._call("assert", [_options(dict(label=label, passed=passed, expected=expected, actual=actual, reasoning=reasoning, tab_id=tab_id))], False)

    async def mark(self, label: str, *, reasoning: Optional[str] = None, tab_id: Optional[int] = None) -> None:
        """Puts a named point on the timeline. Not retried."""
        await self._call("mark", [_options(dict(label=label, reasoning=reasoning, tab_id=tab_id))], False)

    async def tool_call(self, tool: str, *, status: str, input: Any = None, output: Any = None, latency_ms: Optional[float] = None,
                        error: Optional[str] = None, tab_id: Optional[int] = None) -> None:
        """Records one of the agent's tool calls (``status``: ``ok``/``error``/``timeout``/``skipped``); its input
        and output (plain JSON) are masked by the recorder, tied to the current step and run. Not retried."""
        await self._call("toolCall", [_options(dict(tool=tool, status=status, input=input, output=output, latency_ms=latency_ms, error=error, tab_id=tab_id))], False)

    async def model_call(self, model: str, *, messages: Optional[List[Dict[str, str]]] = None, response: Any = None,
                         tokens_in: Optional[int] = None, tokens_out: Optional[int] = None, latency_ms: Optional[float] = None,
                         temperature: Optional[float] = None, max_tokens: Optional[int] = None, cost_usd: Optional[float] = None,
                         tab_id: Optional[int] = None) -> None:
        """Records one of the agent's model calls (``messages``: ``[{"role", "content"}]``), masked by the recorder. Not retried."""
        await self._call("modelCall", [_options(dict(model=model, messages=messages, response=response, tokens_in=tokens_in, tokens_out=tokens_out,
                                                     latency_ms=latency_ms, temperature=temperature, max_tokens=max_tokens, cost_usd=cost_usd, tab_id=tab_id))], False)

    def tool(self, name: Optional[str] = None, *, tab_id: Optional[int] = None) -> Callable[[F], F]:
        """A decorator for an async tool: every call is recorded (its arguments, what it returned, how long it took;
        what it raised as ``error``, or ``timeout`` for a timeout, and raised on). A call the recorder refuses
        never breaks the tool.

        Example::

            @rec.tool("search")
            async def search(query: str) -> dict: ...
        """
        def decorate(fn: F) -> F:
            tool = name or fn.__name__

            @functools.wraps(fn)
            async def wrapped(*args: Any, **kwargs: Any) -> Any:
                started = time.monotonic()
                try:
                    result = await fn(*args, **kwargs)
                except BaseException as error:
                    await self._record_tool(tool, tab_id, call_input(args, kwargs), None, error_status(error), started, error_text(error))
                    raise
                await self._record_tool(tool, tab_id, call_input(args, kwargs), result, "ok", started, None)
                return result

            return wrapped  # type: ignore[return-value]

        return decorate

    async def _record_tool(self, tool: str, tab_id: Optional[int], input: Any, output: Any, status: str, started: float, error: Optional[str]) -> None:
        try:
            await self.tool_call(tool, status=status, input=input, output=output, latency_ms=round((time.monotonic() - started) * 1000), error=error, tab_id=tab_id)
        except Exception:  # noqa: BLE001 - recording must never break the agent's tool (a value that is not JSON, a lost worker)
            pass

    async def fail(self, reason: str, *, label: Optional[str] = None, tab_id: Optional[int] = None) -> str:
        """Declares a failure (``reason``: a short code); returns the bundle id once the bundle is stored. Not retried."""
        return await self._call("fail", [_options(dict(reason=reason, label=label, tab_id=tab_id))], False)

    async def bundles(self) -> List[Dict[str, Any]]:
        """Stored bundles, newest first. Retried after a worker restart."""
        return await self._call("listBundles", [], True)

    async def export_bundle(self, bundle_id: str) -> bytes:
        """The bundle's zip. Retried after a worker restart."""
        encoded = await self._call("exportBundle", [bundle_id], True)
        if not isinstance(encoded, str):
            raise RecorderCallError("exportBundle", f"expected a base64 string, got {type(encoded).__name__}")
        return base64.b64decode(encoded)

    async def save_bundle(self, bundle_id: str, target: str) -> str:
        """
        Writes the bundle's zip to ``target`` (a path ending in ``.zip``) or to ``<target>/<id>.zip`` (any
        other path, taken as a directory); creates the directory. Returns the file written.
        """
        data = await self.export_bundle(bundle_id)
        path = target if target.lower().endswith(".zip") else os.path.join(target, f"{bundle_id}.zip")
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "wb") as file:
            file.write(data)
        return path

    async def delete_bundle(self, bundle_id: str) -> bool:
        """Deletes a stored bundle; returns whether it existed. Retried after a worker restart."""
        return await self._call("deleteBundle", [bundle_id], True)

    async def wait_for_bundle(self, *, since: Optional[Since] = None, reason: Optional[str] = None, trigger: Optional[str] = None,
                              timeout: float = DEFAULT_BUNDLE_WAIT_S) -> Dict[str, Any]:
        """
        Returns the next bundle stored after ``since`` (default: now; a ``datetime``, seconds since the epoch
        as ``time.time()`` gives, an ISO 8601 string, or a bundle id), automatic ones included, optionally
        only one with this ``reason`` (``http_5xx``, ``page_exception``, ``agent_failure``...) or
        ``trigger`` (``agent``, ``operator``, ``page``, ``signal``); the oldest such bundle if several are
        stored already. Raises ``RecorderTimeoutError`` after ``timeout`` seconds. Survives a worker restart.

        Example::

            since = time.time()  # before the action that may fail
            await page.click("#place-order")  # the shop answers HTTP 500: the recorder bundles on its own
            bundle = await rec.wait_for_bundle(since=since, reason="http_5xx")
            await rec.save_bundle(bundle["id"], "bundles")
        """
        try:
            start = since_value(time.time() if since is None else since)
        except ValueError as error:
            raise RecorderCallError("waitForBundle", str(error)) from None
        query: Dict[str, Any] = {"since": start}
        if reason is not None:
            query["reason"] = reason
        if trigger is not None:
            query["trigger"] = trigger
        deadline = time.monotonic() + timeout
        polling = False
        while True:
            left = max(0.0, deadline - time.monotonic())
            found: Optional[Dict[str, Any]] = None
            if not polling:
                try:
                    found = await self._call("waitForBundle", [{**query, "timeoutMs": int(min(left, WORKER_WAIT_S) * 1000)}], True)
                except RecorderCallError as error:
                    if _MISSING_METHOD not in str(error):
                        raise
                    polling = True
                    continue
                except RecorderWorkerLostError:
                    continue
            else:
                try:
                    found = next_bundle(await self.bundles(), start, reason, trigger)
                except RecorderWorkerLostError:
                    continue
                except ValueError as error:
                    raise RecorderCallError("waitForBundle", str(error)) from None
                if found is None and left > 0:
                    await asyncio.sleep(min(POLL_S, left))
            if found:
                return found
            if time.monotonic() >= deadline:
                raise RecorderTimeoutError("wait_for_bundle", timeout, f"no bundle{describe_query(start, reason, trigger)} was stored")

    async def wait_delivered(self, bundle_id: str, *, timeout: float = DEFAULT_DELIVERY_WAIT_S) -> Dict[str, Any]:
        """
        Returns the bundle's delivery once the store confirmed it: its ``upload`` entry, ``{"state":
        "delivered", "key": ..., "attempts": ...}`` (``key``: the zip's key in the bucket). Raises
        ``RecorderCallError`` when the bundle is not stored, is not queued for delivery (the ``upload``
        setting is off, or ``include: failures`` left it home: state ``skipped``) or failed for good (wrong
        credentials, no such bucket: the store's words in the message), and ``RecorderTimeoutError`` after
        ``timeout`` seconds while it is still pending (the store is down: the recorder keeps retrying after
        the wait gives up). Asks for the bundles every 0.5 s; survives a worker restart.

        Example::

            bundle_id = await rec.fail(reason="checkout_failed")
            delivered = await rec.wait_delivered(bundle_id, timeout=120)
            print(delivered["key"])  # ci/bundles/2026/11/25/<bundle id>.zip
        """
        deadline = time.monotonic() + timeout
        last: Optional[Dict[str, Any]] = None
        while True:
            listed: Optional[List[Dict[str, Any]]] = None
            try:
                listed = await self.bundles()
            except RecorderWorkerLostError:
                pass
            if listed is not None:
                # ``fail`` returns once its bundle is stored: an id not listed is none of this recorder's, or deleted.
                bundle = next((b for b in listed if isinstance(b, dict) and b.get("id") == bundle_id), None)
                if bundle is None:
                    raise RecorderCallError("waitDelivered", f"no stored bundle with id {bundle_id}")
                last = bundle.get("upload")
                if not isinstance(last, dict):
                    raise RecorderCallError("waitDelivered", f"bundle {bundle_id} is not queued for delivery (is the upload setting on?)")
                state = last.get("state")
                if state == "delivered" and last.get("key"):
                    return last
                if state == "skipped":
                    raise RecorderCallError("waitDelivered", f"bundle {bundle_id} is not delivered: upload.include leaves passing runs home")
                if state == "failed":
                    raise RecorderCallError("waitDelivered", f"bundle {bundle_id} was not delivered: {last.get('lastError') or 'failed'}")
            if time.monotonic() >= deadline:
                raise RecorderTimeoutError("wait_delivered", timeout, f"bundle {bundle_id} was not delivered ({_describe_delivery(last)})")
            await asyncio.sleep(min(POLL_S, max(0.0, deadline - time.monotonic())))

    # --- plumbing --------------------------------------------------------------------------------------

    async def _worker(self) -> FoundRecorder:
        if self._found is not None and self._found.is_alive():
            return self._found
        self._found = await find_recorder(self._source, self._timeout, self.extension_id)
        return self._found

    async def _call(self, method: str, args: List[Any], repeatable: bool) -> Any:
        expression = call_expression(method, args)
        attempt = 0
        while True:
            attempt += 1
            found = await self._worker()
            try:
                return await found.worker.evaluate(expression)
            except EvaluateFailed as error:
                raise RecorderCallError(method, str(error)) from None
            except WorkerGone as error:
                if self._found is found:
                    self._found = None
                if not repeatable:
                    raise RecorderWorkerLostError(method, "it may or may not have been applied, so it is not repeated") from error
                if attempt > 1:
                    raise RecorderWorkerLostError(method, "it went away again during the retry") from error
