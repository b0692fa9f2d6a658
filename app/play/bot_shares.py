"""Fair shares of a worker's time between the players whose bots it runs.

Each owner (the player who created the match, hence asked for its bots) has a virtual clock,
`busy_until`: every step the worker does for them moves it on by what the step cost, from
the moment the step began or from where it stood, whichever is later. The worker takes next
the due match whose owner's clock is the earliest (its `due_at` when the owner is idle), so
an owner with many matches due waits behind their own earlier work and never in front of
an owner who just became due: each owner gets a turn in every round, whatever they keep
busy, and a costly bot costs its owner more turns. The clocks are per worker process; one
that has not moved for FORGET_AFTER is dropped (its owner's work is then ordered by due_at).

One owner has at most one step under way at a time, in all worker loops together (a
transaction-scoped advisory lock on the owner, taken with the claim): the other loops stay
free for everyone else, however many matches that owner keeps due.
"""
from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta

from sqlalchemy import text

from app.db.extensions import db

_CLAIM = text("""
SELECT m.id, m.created_by FROM matches m
 WHERE m.due_at <= :now AND m.status = 'active' AND m.created_by <> ALL(:busy)
 ORDER BY greatest(m.due_at, (CAST(:clocks AS jsonb) ->> m.created_by)::timestamptz), m.due_at
 LIMIT 1 FOR UPDATE OF m SKIP LOCKED""")
_OWNER_LOCK = text("SELECT pg_try_advisory_xact_lock(hashtextextended(:owner, 7))")
"""The owner's step lock (key 7: this lock's namespace), held until the step's commit."""


FORGET_AFTER = timedelta(seconds=60)


class Shares:
    """The owners' virtual clocks of one worker process (thread-safe)."""

    def __init__(self) -> None:
        self._busy: dict[str, datetime] = {}
        self._lock = threading.Lock()

    def charge(self, owner: str, began: datetime, cost: timedelta) -> None:
        """A step for `owner` that began at `began` took `cost`."""
        with self._lock:
            start = max(self._busy.get(owner, began), began)
            self._busy[owner] = start + cost

    def clocks(self, now: datetime) -> dict[str, datetime]:
        """The owners' clocks, without those idle for FORGET_AFTER before `now`."""
        with self._lock:
            self._busy = {o: t for o, t in self._busy.items() if t > now - FORGET_AFTER}
            return dict(self._busy)

    def claim(self, now: datetime) -> str | None:
        """Lock the due match to run next (the earliest clock first; matches another worker
        holds, and owners with a step under way, are skipped) and its owner's step lock, in
        the session's transaction: its id, or None."""
        clocks = json.dumps({o: t.isoformat() for o, t in self.clocks(now).items()})
        busy: list[str] = []
        while True:
            row = db.session.execute(_CLAIM, {"now": now, "clocks": clocks,
                                              "busy": busy}).first()
            if row is None:
                return None
            if db.session.execute(_OWNER_LOCK, {"owner": row[1]}).scalar_one():
                return str(row[0])
            db.session.rollback()  # (lets the match go) its owner is busy in another loop
            busy.append(row[1])
