"""The client's errors: the same four as the Node client, plus one for loading the extension."""

from __future__ import annotations

import re


class RecorderError(Exception):
    """Base class of every error this client raises."""


class RecorderNotFoundError(RecorderError):
    """No service worker of the browser exposes the recorder's ``afr`` within the time allowed."""


class RecorderCallError(RecorderError):
    """``afr.<method>`` rejected: the message is the recorder's own (an invalid setting, an unknown bundle id...)."""

    def __init__(self, method: str, message: str) -> None:
        super().__init__(f"afr.{method}: {message}")
        self.method = method


class RecorderTimeoutError(RecorderError):
    """``wait_for_bundle``: no matching bundle was stored, or ``wait_delivered``: the bundle was not delivered, within ``timeout`` seconds."""

    def __init__(self, method: str, timeout: float, detail: str) -> None:
        super().__init__(f"{method}: {detail} within {timeout:g} s")
        self.method = method
        self.timeout = timeout


class RecorderWorkerLostError(RecorderError):
    """
    The recorder's service worker went away during a call that is not safe to repeat (``fail``, ``step``,
    ``assert_``...), or during the retry of a repeat-safe one. The next call looks for the worker again.
    """

    def __init__(self, method: str, detail: str) -> None:
        super().__init__(
            f"afr.{method}: the recorder's service worker went away during the call "
            f"(Chrome stopped or restarted it); {detail}"
        )
        self.method = method


class RecorderLoadError(RecorderError):
    """``load_recorder``: the browser refused to load the extension (``Extensions.loadUnpacked``)."""


class WorkerGone(Exception):
    """Internal: the worker (or the whole browser) went away while a command was pending."""


class EvaluateFailed(Exception):
    """Internal: the expression threw in the worker; the message is the first line of its error."""


# What Chrome answers about a session or target that is gone, and what Playwright for Python says.
_GONE_MESSAGE = re.compile(
    r"Session with given id not found|No session with given id|Target closed|Target page, context or browser "
    r"has been closed|Worker was closed|Execution context was destroyed|Cannot find context with specified id|"
    r"No target with given id|Inspected target navigated or closed",
    re.IGNORECASE,
)


def is_gone_message(message: str) -> bool:
    """Whether an error text means the worker (or the browser) is gone, rather than ``afr`` rejecting."""
    return bool(_GONE_MESSAGE.search(message))


def first_line(message: str) -> str:
    """The first line of an error text, without a leading ``Error: `` (or ``SettingsError: ``...)."""
    return re.sub(r"^\w*Error: ", "", message.split("\n", 1)[0])
