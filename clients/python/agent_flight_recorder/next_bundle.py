"""The next bundle after a moment or a bundle id: the service worker's ``afr.waitForBundle`` choice, for older recorders."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional, Union

BUNDLE_ID = re.compile(r"^afr-\d{8}T\d{6}Z-[a-z0-9]{6}$")

Since = Union[datetime, float, int, str]


def since_value(since: Since) -> Union[int, str]:
    """
    ``since`` as the service worker takes it: ms since the epoch, or the string as given. A number is
    seconds since the epoch (``time.time()``); a naive ``datetime`` is taken as local time.
    """
    if isinstance(since, datetime):
        return int(since.timestamp() * 1000)
    if isinstance(since, bool):
        raise ValueError("since: a boolean is neither a time nor a bundle id")
    if isinstance(since, (int, float)):
        return int(since * 1000)
    if isinstance(since, str):
        return since
    raise ValueError(f"since: {since!r} is neither a time nor a bundle id")


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def next_bundle(bundles: List[Dict[str, Any]], since: Union[int, str], reason: Optional[str] = None, trigger: Optional[str] = None) -> Optional[Dict[str, Any]]:
    """The oldest bundle after ``since`` with this reason and trigger, or None. Raises ``ValueError`` on a bad ``since``."""
    if isinstance(since, str) and BUNDLE_ID.match(since):
        start = next((b for b in bundles if b.get("id") == since), None)
        if start is None:
            raise ValueError(f"since: no stored bundle with id {since}")

        def after(b: Dict[str, Any]) -> bool:
            return b["createdAt"] > start["createdAt"] or (b["createdAt"] == start["createdAt"] and b["id"] > start["id"])
    else:
        if isinstance(since, str):
            try:
                ms = int(datetime.fromisoformat(since.replace("Z", "+00:00")).timestamp() * 1000)
            except ValueError:
                raise ValueError(f"since: {since!r} is neither a time nor a bundle id") from None
        else:
            ms = since
        created_at = _iso(ms)

        def after(b: Dict[str, Any]) -> bool:
            return b["createdAt"] >= created_at

    matching = [
        b for b in bundles
        if after(b) and (reason is None or b.get("reason") == reason) and (trigger is None or b.get("trigger") == trigger)
    ]
    matching.sort(key=lambda b: (b["createdAt"], b["id"]))
    return matching[0] if matching else None


def describe_query(since: Union[int, str], reason: Optional[str], trigger: Optional[str]) -> str:
    parts = [p for p in (reason is not None and f"with reason {reason}", trigger is not None and f"of trigger {trigger}") if p]
    start = _iso(since) if isinstance(since, int) else since
    return f"{' ' + ' '.join(parts) if parts else ''} after {start}"
