"""Rate-limited logging: at most one line per failure kind and interval.

During an outage every request fails the same way; one line per kind every
``LOG_INTERVAL`` seconds (with the number of failures it stands for) says as much as a
traceback per request, without flooding the log.
"""
from __future__ import annotations

import logging
import threading
import time

LOG_INTERVAL = 10.0
"""Seconds between two lines of the same kind."""


class Throttle:
    """Counts failures by kind; ``due(kind)`` says whether to log now and how many it covers."""

    def __init__(self, interval: float = LOG_INTERVAL) -> None:
        self.interval = interval
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._count: dict[str, int] = {}

    def due(self, kind: str) -> int:
        """Count one failure of ``kind``; return how many to report now (0: stay silent)."""
        now = time.monotonic()
        with self._lock:
            self._count[kind] = self._count.get(kind, 0) + 1
            last = self._last.get(kind)
            if last is not None and now - last < self.interval:
                return 0
            self._last[kind] = now
            return self._count.pop(kind)


_throttle = Throttle()


def warn_throttled(logger: logging.Logger, kind: str, message: str) -> bool:
    """Log ``message`` (no traceback) once per ``kind`` and interval; True if it was logged."""
    count = _throttle.due(kind)
    if not count:
        return False
    suffix = f" ({count} failures of this kind since the last report)" if count > 1 else ""
    logger.warning("%s: %s%s", kind, message, suffix, stacklevel=2)
    return True
