"""Long polls: one LISTEN connection per process wakes the requests waiting on a match.

Every committed change sends `NOTIFY truco, '<match id>:<version>:<player ids>'` (inside its
transaction on the ORM's paths; right after its commit on the hot verbs': app/db/hot_sql.py),
so every app process sharing the database hears it. A waiting request holds no database
connection: it sleeps on an Event that the listener sets (green under gevent). Notifications
sent while no listener is connected are lost, so every time the listener (re)issues LISTEN it
wakes every waiter once, and each re-checks the database.
"""
from __future__ import annotations

import logging
import select
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, TypeVar

import psycopg2
import psycopg2.extensions
from flask import current_app, has_app_context

from app.infra import shutdown
from app.live.disconnect import ClientGone, watch_client
from app.db import channels
from app.db.channels import CHANNEL, TOKENS_CHANNEL, libpq_dsn
from app.live import watches
from app.live.known import WATCH_MARGIN_SECONDS, Known
from app.infra.logthrottle import warn_throttled

LISTENER_APPLICATION_NAME = "truco-listener"
"""`application_name` of the LISTEN connection (how it shows in pg_stat_activity)."""
KEEPALIVE_SECONDS = 5
"""Idle seconds between the listener's round trips that prove its connection alive (what
app.live.known trusts depends on it)."""
RECONNECT_DELAY = 1.0
log = logging.getLogger(__name__)
T = TypeVar("T")




class Notified(NamedTuple):
    """What a notification of a change says (payload `<match id>:<version>:<player id>,...`,
    see app.play.store.notify)."""

    match_id: str
    version: int | None
    """None when the payload's version is not a number (nothing is learned from it)."""
    players: list[str]

    @classmethod
    def parse(cls, payload: str) -> Notified:
        match_id, _, rest = payload.partition(":")
        version, _, players = rest.partition(":")
        return cls(match_id, int(version) if version.isascii() and version.isdigit() else None,
                   [p for p in players.split(",") if p])

    @property
    def keys(self) -> list[str]:
        """The waiter keys it wakes: the match and every player it names."""
        return [self.match_id, *self.players]


class Hub:
    """Waiters by match id, woken by the process's listener."""

    def __init__(self, database_url: str, connect_args: dict[str, Any] | None = None) -> None:
        self._dsn = libpq_dsn(database_url)
        self._connect_args = dict(connect_args or {})
        self._lock = threading.Lock()
        self._waiters: dict[str, set[threading.Event]] = defaultdict(set)
        self._started = False
        self._closed = threading.Event()
        self.ready = threading.Event()
        self.known = Known()
        """What this process knows for sure while its listener is up (app/live/known.py)."""
        shutdown.on_close(self._wake_all)

    def ensure_listener(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        # No need to wait for LISTEN here: waiters register before they first check, and the
        # listener wakes them all once LISTEN is in place.
        threading.Thread(target=self._listen_forever, name="truco-listener", daemon=True).start()

    def close(self) -> None:
        """Stop listening (an app torn down within a process that lives on, as in tests);
        the listener thread ends within its keepalive period, its connection at once."""
        self._closed.set()
        conn = getattr(self, "_conn", None)
        if conn is not None:
            conn.close()

    def _listen_forever(self) -> None:
        while not self._closed.is_set():
            try:
                self._listen()
            except psycopg2.Error as exc:  # the database is down or restarting: no traceback
                if self._closed.is_set():
                    return
                first = (str(exc).strip().splitlines() or [""])[0]
                warn_throttled(log, "listener " + type(exc).__name__,
                               f"LISTEN connection lost ({first}); reconnecting")
            except Exception:  # noqa: BLE001 - a dropped connection must not end the listener
                log.exception("LISTEN connection lost; reconnecting")
            self.ready.clear()
            self.known.listening(False)
            time.sleep(RECONNECT_DELAY)

    def _listen(self) -> None:
        conn = psycopg2.connect(self._dsn, application_name=LISTENER_APPLICATION_NAME,
                                **self._connect_args)
        conn.set_isolation_level(psycopg2.extensions.ISOLATION_LEVEL_AUTOCOMMIT)
        self._conn = conn
        try:
            conn.cursor().execute(f"LISTEN {TOKENS_CHANNEL}")
            conn.cursor().execute(f"LISTEN {CHANNEL}")  # (last: pg_stat_activity shows it)
            self.known.listening(True)
            self.ready.set()
            # Whatever committed while nobody listened is seen by this round of re-checks.
            self._wake_all()
            while not self._closed.is_set():
                if select.select([conn], [], [], KEEPALIVE_SECONDS) == ([], [], []):
                    # A round trip that finds a dead connection; LISTEN again is a no-op and
                    # leaves `LISTEN truco` as the query pg_stat_activity shows.
                    conn.cursor().execute(f"LISTEN {CHANNEL}")
                else:
                    conn.poll()
                # (notifications may also arrive during the keepalive's round trip)
                while conn.notifies:
                    self._heard(conn.notifies.pop(0))
        finally:
            self.known.listening(False)
            conn.close()

    def _heard(self, note: Any) -> None:
        if note.channel == TOKENS_CHANNEL:
            self.known.token_changed(note.payload)
            return
        change = Notified.parse(note.payload)
        if change.version is not None:
            self.known.heard(change.match_id, change.version)  # before the waiters re-check
        self._wake_keys(change.keys)

    def _wake_keys(self, keys: list[str]) -> None:
        with self._lock:
            waiters = {e for key in keys for e in self._waiters.get(key, ())}
        for event in waiters:
            event.set()

    def _wake_all(self) -> None:
        with self._lock:
            waiters = [e for events in self._waiters.values() for e in events]
        for event in waiters:
            event.set()

    def watch(self, match_ids: Iterable[str], timeout: float, engine: Any = None) -> None:
        """Make sure the actions on `match_ids` are notified for a wait of `timeout` (and
        some time after: app/live/watches.py), unless what this process read says they are
        already; before the wait's first check."""
        needed = [m for m in match_ids
                  if self.known.watched_for(m) < timeout + WATCH_MARGIN_SECONDS]
        if needed:
            watches.watch(needed, timeout + watches.SECONDS, engine)

    def wait_for(self, keys: Iterable[str], check: Callable[[], T | None], timeout: float,
                 environ: dict[str, Any],
                 before_sleep: Callable[[], None] | None = None) -> T | None:
        """Wait for `keys` (app/http/long_poll.py takes the caller's poll slot first): no poll
        slot is taken here, the client is watched through the WSGI `environ` (and the caller
        has watched the match: :meth:`watch`)."""
        self.ensure_listener()
        keys = list(keys)
        event = threading.Event()
        with self._lock:
            for key in keys:
                self._waiters[key].add(event)
        deadline = time.monotonic() + timeout
        try:
            with watch_client(environ, event) as gone:
                while True:
                    event.clear()
                    if gone():
                        raise ClientGone()
                    result = check()
                    left = deadline - time.monotonic()
                    if result is not None or left <= 0 or shutdown.closing():
                        # still in check's session: the caller renders what it found
                        # (a stopping process answers at once: app/infra/shutdown.py)
                        return result
                    if before_sleep is not None:
                        before_sleep()
                    event.wait(left)
        finally:
            with self._lock:
                for key in keys:
                    self._waiters[key].discard(event)
                    if not self._waiters[key]:
                        del self._waiters[key]






def heard_version(match_id: str) -> int | None:
    """The version of `match_id` this process has heard of (app/live/known.py; None when it has
    not, or its hub does not run)."""
    found = current_app.extensions.get("truco_hub")
    return None if found is None else found.known.version(match_id)


def committed(heard: Iterable[tuple[str, int]], tokens: Iterable[str] = ()) -> None:
    """Tell this process's :class:`~app.live.known.Known` (when its hub runs) of what was just
    committed: matches at new versions, players whose token changed."""
    if not has_app_context():
        return
    found = current_app.extensions.get("truco_hub")
    if found is not None:
        for match_id, version in heard:
            found.known.heard(match_id, version)
        for player_id in tokens:
            found.known.token_changed(player_id)


channels.on_commit(committed)


def hub() -> Hub:
    """This process's hub (created on first use, after gunicorn has forked)."""
    found = current_app.extensions.get("truco_hub")
    if found is None:
        with _create_lock:
            found = current_app.extensions.get("truco_hub")
            if found is None:
                found = Hub(current_app.config["SQLALCHEMY_DATABASE_URI"],
                            current_app.config.get("DATABASE_CONNECT_ARGS"))
                current_app.extensions["truco_hub"] = found
    return found


_create_lock = threading.Lock()
