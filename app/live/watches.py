"""Watched matches: an action is notified only while someone may need to hear of it.

An action's notification (app/db/hot_sql.py: `_NOTIFY`) is sent only while its match has a
row in `match_watches` that has not ended; a long poll watches its matches for its whole wait
(app/live/hub.py: `Hub.watch`), and a conditional GET the process cannot answer from what it
trusts watches its match for SECONDS. Every other change is always notified. Nothing is
missed: a watcher commits its watch before it reads, and the action checks after its commit,
so either the check sees the watch or the watcher's read sees the action. What a process
heard of a match is trusted only until the watch it read ends (app/live/known.py). Why:
docs/performance.md.
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
