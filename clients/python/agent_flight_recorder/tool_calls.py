"""What a wrapped tool call records: its arguments as the input, and its status from what it raised."""

from __future__ import annotations

import asyncio
from typing import Any, Dict, Tuple


def call_input(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
    """The one argument alone when there is one; else ``{"args": [...], "kwargs": {...}}`` (the empty part left out)."""
    if len(args) == 1 and not kwargs:
        return args[0]
    if not kwargs:
        return list(args)
    return {"args": list(args), "kwargs": kwargs} if args else kwargs


def error_status(error: BaseException) -> str:
    """``timeout`` for a timeout (``TimeoutError``, ``asyncio.TimeoutError``), else ``error``."""
    return "timeout" if isinstance(error, (TimeoutError, asyncio.TimeoutError)) else "error"


def error_text(error: BaseException) -> str:
    """``Type: message``, within the recorder's cap on an error's text."""
    return f"{type(error).__name__}: {error}"[: 16 * 1024]
