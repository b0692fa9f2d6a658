"""Per-process rate limits (a fixed window per key), answered with 429 `rate_limited`.

Limits come from the config as "COUNT/SECONDS" strings; an empty value turns a limit off
(the test configuration does, except in the tests of this module). With several processes
each keeps its own counters, so the effective limit is at most processes x COUNT.
"""
from __future__ import annotations

import math
import threading
import time

from flask import current_app, request

from app.errors import ApiError

_lock = threading.Lock()
_windows: dict[tuple[str, str], tuple[float, int]] = {}


def _parse(rule: str) -> tuple[int, float]:
    count, _, seconds = rule.partition("/")
    return int(count), float(seconds)


def check(kind: str, key: str) -> None:
    """Count one request of `kind` by `key`; 429 when the window's limit is used up."""
    rule = current_app.config.get(f"RATE_LIMIT_{kind.upper()}")
    if not rule:
        return
    limit, period = _parse(rule)
    now = time.monotonic()
    with _lock:
        start, used = _windows.get((kind, key), (now, 0))
        if now - start >= period:
            start, used = now, 0
        if used >= limit:
            retry = max(1, math.ceil(period - (now - start)))  # whole seconds, as documented
            raise ApiError(429, "rate_limited", f"too many {kind} requests; retry later",
                           retry_after=retry)
        _windows[(kind, key)] = (start, used + 1)
        if len(_windows) > 100_000:  # forget stale windows rather than grow for ever
            for stale in [k for k, (s, _) in _windows.items() if now - s >= period]:
                del _windows[stale]


def client_address() -> str:
    """The caller's address (behind a proxy, configure ProxyFix so this is the client)."""
    return request.remote_addr or "unknown"
