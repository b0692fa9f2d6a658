"""A Flask request's long poll: one of the caller's poll slots, the matches it must hear of
watched, then the process's hub waits (app/live/hub.py) without a database connection."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from flask import current_app, request

from app.db.extensions import db
from app.http.auth import poll_key
from app.live.hub import hub
from app.live.pollcap import poll_slot

T = TypeVar("T")


def wait_until(keys: Iterable[str], check: Callable[[], T | None], timeout: float,
               watch: Iterable[str] = ()) -> T | None:
    """Call `check` (which may use the database) until it returns something or `timeout`
    passes, sleeping between calls until a NOTIFY for one of `keys` arrives. Holds one of
    the caller's long-poll slots (429 over the cap) and ends with `ClientGone` once the
    client has disconnected. What `check` returns stays bound to its session; objects
    loaded before a sleep are detached from the session the sleep released. `watch`: the
    matches whose actions must wake it (app/live/watches.py; every other change is notified
    anyway)."""
    found = hub()
    with poll_slot(poll_key, poll_cap()):
        found.watch(watch, timeout)
        return found.wait_for(keys, check, timeout, request.environ,
                              before_sleep=db.session.remove)  # (the connection goes back)


def poll_cap() -> int:
    """How many long polls one caller may hold at once in this process (0: no cap)."""
    return current_app.config.get("MAX_POLLS_PER_CLIENT") or 0
