"""A cap on the concurrent long polls of one client, per process.

Each waiting request holds a connection slot of its worker (gunicorn's
``worker_connections``). ``MAX_POLLS_PER_CLIENT`` (``TRUCO_MAX_POLLS_PER_CLIENT``, 0: no cap)
bounds how many one client holds at once: per token, or per address for requests without
one. The counts are per process, so a client may hold up to processes x cap in all. Over the
cap: 429 ``rate_limited`` with ``Retry-After``.
"""
from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator

from app.infra.problems import ApiError
from app.infra.metrics import HELD

RETRY_AFTER = 2
"""Seconds an over-the-cap client is asked to wait (for one of its polls to end)."""

_lock = threading.Lock()
_held: dict[str, int] = {}


def held(key: str) -> int:
    """How many long polls ``key`` holds in this process now."""
    with _lock:
        return _held.get(key, 0)


def token_key(token_hash: str) -> str:
    """The key of a caller with a token (`token_hash`: app.infra.tokens.hash_token's)."""
    return "token:" + token_hash[:32]


@contextlib.contextmanager
def poll_slot(key: Callable[[], str], cap: int) -> Iterator[None]:
    """Hold one of the caller's long-poll slots (:func:`hold_slot`) for the block."""
    release = hold_slot(key, cap)
    try:
        yield
    finally:
        release()


def hold_slot(key: Callable[[], str], cap: int) -> Callable[[], None]:
    """Take one of the `cap` long-poll slots (0: no cap) of the caller `key()` names (called
    only when there is a cap; 429 when none is free) and return what gives it back (a stream
    gives it back when its answer closes)."""
    name = key() if cap > 0 else ""
    if not take(name, cap):
        raise ApiError(429, "rate_limited",
                       f"At most {cap} long polls may wait at once per client; "
                       "retry when one has answered.", retry_after=RETRY_AFTER)
    return functools.partial(give_back, name, cap)


def take(key: str, cap: int) -> bool:
    """Take one of `key`'s slots (always, when `cap` is 0); False when none is free."""
    if cap > 0:
        with _lock:
            if _held.get(key, 0) >= cap:
                return False
            _held[key] = _held.get(key, 0) + 1
    HELD.inc()
    return True


def give_back(key: str, cap: int) -> None:
    """Give back a slot that :func:`take` gave."""
    HELD.dec()
    if cap <= 0:
        return
    with _lock:
        _held[key] -= 1
        if not _held[key]:
            del _held[key]
