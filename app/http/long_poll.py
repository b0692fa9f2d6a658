"""A Flask request's long poll: one of the caller's poll slots, the matches it must hear of
watched, then the process's hub waits (app/live/hub.py) without a database connection."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from flask import current_app, request

from app.db.extensions import db
from app.http.auth import caller_id, poll_key, token_hash
from app.live.hub import hub
from app.live.pollcap import poll_slot
from app.play.players import still_theirs

T = TypeVar("T")


def wait_until(keys: Iterable[str], check: Callable[[], T | None], timeout: float,
               watch: Iterable[str] = ()) -> T | None:
    """Call `check` (which may use the database) until it returns something or `timeout`
    passes, sleeping between calls until a NOTIFY for one of `keys` arrives. Holds one of
    the caller's long-poll slots (429 over the cap) and ends with `ClientGone` once the
    client has disconnected. What `check` returns stays bound to its session; objects
    loaded before a sleep are detached from the session the sleep released. `watch`: the
    matches whose actions must wake it (app/live/watches.py; every other change is notified
    anyway). A caller whose token is replaced meanwhile gets 401 at the next check."""
    found = hub()
    digest = token_hash()
    if isinstance(digest, str):  # (checked valid by the route: its player)
        check = _while_token_holds(check, caller_id(), digest)
    with poll_slot(poll_key, poll_cap()):
        found.watch(watch, timeout)
        return found.wait_for(keys, check, timeout, request.environ,
                              before_sleep=db.session.remove)  # (the connection goes back)


def _while_token_holds(check: Callable[[], T | None], player_id: str,
                       digest: str) -> Callable[[], T | None]:
    """`check`, after a 401 should the caller's token no longer be theirs."""
    def checked() -> T | None:
        still_theirs(player_id, digest)
        return check()
    return checked


def poll_cap() -> int:
    """How many long polls one caller may hold at once in this process (0: no cap)."""
    return current_app.config.get("MAX_POLLS_PER_CLIENT") or 0
