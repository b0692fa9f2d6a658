"""Watched matches: an action is notified only while someone may need to hear of it.

Every notification wakes a PostgreSQL backend and a greenlet in every app process: an
action's cost 1.13 times over when nobody waits on its match (docs/benchmarks.md). So an
action's notification (app/db/hot_sql.py: `_NOTIFY`) is sent only while its match is
watched, which whoever needs it says first, in `match_watches`:

- a long poll (a match's view, its events, an action's `?wait`, a player's inbox: each of
  the player's matches), for its whole wait (app/live/hub.py: `wait_for`'s `watch`);
- a conditional GET answered from what the process heard (app/http/front/view.py), when the
  process does not trust what it heard of the match, so that the next ones need no query.

Every other change (a creation, a join, a resignation, a bot's move, a deadline) is always
notified.

Why nothing is missed: the action's check runs after its commit (the notification's own
transaction), and a watcher commits its watch before it reads. Either the action's check
starts after the watch is committed, and sees it (a notification), or it started before:
then the action had committed even earlier, and the watcher's read, which starts after its
own commit, sees it. What a process heard of a match is trusted only from a read that saw
the match watched, and only until that watch ends (app/live/known.py); a request that needs it
watched longer watches it again (app/live/hub.py: `Hub.watch`).
"""
from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from sqlalchemy.engine import Engine

from app.db import prepared
from app.db.hot_sql import own_connection
from app.db.prepared import Statement

SECONDS = 120
"""How long a watch lasts at least (a long poll's watch covers its wait and then this)."""

WATCH = Statement("truco_watch", """
INSERT INTO match_watches (match_id, until)
SELECT m.id, now() + make_interval(secs => %(seconds)s)
  FROM matches m WHERE m.id = ANY(%(match_ids)s)
    ON CONFLICT (match_id) DO UPDATE SET until = greatest(match_watches.until, EXCLUDED.until)
""", {"match_ids": "text[]", "seconds": "float8"})
"""Watch each existing match of a list for at least `seconds` from now."""


class _Pending:
    """A watch of one match being committed by a request of this process."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.ok = False


_lock = threading.Lock()
_pending: dict[str, _Pending] = {}


def watch(match_ids: Iterable[str], seconds: float, engine: Engine | None = None) -> None:
    """Watch `match_ids` for at least `seconds` (committed when this returns: what the caller
    reads afterwards is either current or followed by notifications); `engine`: the app's
    (by default, from the app context). Requests of this process that watch one same match
    at once share one watch (the waiters of a match that arrive together): every watch
    lasts at least :data:`SECONDS`, longer than any wait. Raises what the database raised."""
    ids = sorted(set(match_ids))
    if len(ids) != 1:
        if ids:
            _write(ids, seconds, engine)
        return
    with _lock:
        pending = _pending.get(ids[0])
        mine = pending is None
        if pending is None:
            pending = _pending[ids[0]] = _Pending()
    if not mine:
        if not (pending.done.wait(SECONDS) and pending.ok):
            _write(ids, seconds, engine)  # (the shared one failed: this one raises, if any)
        return
    try:
        _write(ids, seconds, engine)
        pending.ok = True
    finally:
        with _lock:
            del _pending[ids[0]]
        pending.done.set()


def _write(ids: list[str], seconds: float, engine: Engine | None) -> None:
    params: dict[str, Any] = {"match_ids": ids, "seconds": float(max(seconds, SECONDS))}
    with own_connection(engine) as conn:
        prepared.run(conn, [WATCH], params, begin=True, commit=True).close()
