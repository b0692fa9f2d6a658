"""The current version of match views, read for many requests by one query.

Every view body the fast path sends (app/http/front/view.py) is rendered from a version read
in the database, so that a client whose action another process acknowledged never reads the
match from before it. The requests of a process in flight at the same moment share that read:
a reader thread (a greenlet under gevent) takes every (match, token) asked since its last
query and reads them all in one prepared statement. A caller waits for a query that starts
after it asked, so it reads what was committed before its request, at most one query later
than a read of its own.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


from app.live.current import Current, READ_CURRENT, learned
from app.live.known import Known
from app.db.prepared import Statement

Asked = tuple[str, "str | None"]
"""(match id, token hash or None for an anonymous caller)."""

Row = tuple["str | None", int, str, "int | None", "float | None"]
"""(player id, version, status, seat, seconds watched): what the caller's view depends on,
and how long the process may trust what it hears of the match (app/live/known.py)."""

IDLE_SECONDS = 30.0
"""A reader with nothing to read for this long ends (the next read starts another): an app
torn down in a process that lives on, as in tests, leaves no thread behind for long."""

WAIT_SECONDS = 30.0
"""The longest a caller waits for its query (the database's own deadlines end it sooner:
app/infra/dbwait.py); then it gets ReadFailed, as on a database error."""


class _Batch:
    """The keys asked while one query was being prepared, and its answers."""

    def __init__(self, generation: int) -> None:
        self.generation = generation
        """What the process knew before the query (app/live/known.py: learn)."""
        self.keys: dict[Asked, None] = {}
        self.rows: dict[Asked, Row] = {}
        self.failed = False
        self.done = threading.Event()


class ReadFailed(Exception):
    """The database did not answer the shared read (the caller falls back on Flask's path,
    which answers as it does when the database fails)."""


class BatchedReads:
    """One process's shared reads. `run(statement, params)` executes the statement on a
    pooled connection and returns its rows, or None on a database error."""

    def __init__(self,
                 run: Callable[[Statement, dict[str, Any]], list[tuple[Any, ...]] | None],
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self._run = run
        self._idle_seconds = idle_seconds
        self._lock = threading.Lock()
        self._asked = threading.Event()
        self._next: _Batch | None = None
        self._reader: threading.Thread | None = None

    def read(self, known: Known, match_id: str, token_hash: str | None) -> Current | None:
        """The caller's current view of `match_id` (as app/live/current.py's read_current:
        None when there is no such match or no such token), learned by `known`; raises
        ReadFailed when the database did not answer."""
        key = (match_id, token_hash)
        with self._lock:
            if self._reader is None or not self._reader.is_alive():
                self._reader = threading.Thread(target=self._serve, daemon=True,
                                                name="truco-batched-reads")
                self._reader.start()
            batch = self._next
            if batch is None:
                batch = self._next = _Batch(known.generation)
            batch.keys[key] = None
            self._asked.set()
        if not batch.done.wait(WAIT_SECONDS) or batch.failed:
            raise ReadFailed(match_id)
        return learned(known, batch.generation, match_id, token_hash, batch.rows.get(key))

    def _serve(self) -> None:
        while True:
            if not self._asked.wait(self._idle_seconds):
                with self._lock:  # (a read asks under this lock: none is left unserved)
                    if not self._asked.is_set():
                        self._reader = None
                        return
                continue
            with self._lock:
                batch, self._next = self._next, None
                self._asked.clear()
            if batch is not None:
                self._answer(batch)

    def _answer(self, batch: _Batch) -> None:
        keys = list(batch.keys)
        try:
            rows = self._run(READ_CURRENT, {"match_ids": [k[0] for k in keys],
                                         "token_hashes": [k[1] for k in keys]})
            if rows is None:
                batch.failed = True
            else:
                for i, player_id, version, status, seat, watched in rows:
                    batch.rows[keys[i - 1]] = (player_id, version, status, seat, watched)
        except Exception:  # noqa: BLE001 - whatever failed, every caller gets an answer
            batch.failed = True
        finally:
            batch.done.set()
