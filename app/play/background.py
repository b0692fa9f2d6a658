"""The background worker: does the work that matches have due (a built-in bot's move, a turn
deadline that passed), away from the web processes, each step one transaction through the
same service path as a player's action (app.play.moves.advance).

The queue is the matches table itself: `due_at` is set when work becomes due (in the same
transaction as the change that made it due), and a worker claims a due match with
`SELECT ... FOR UPDATE SKIP LOCKED`, the owner who has had the least of its time first
(app/play/bot_shares.py: fair shares between the players who asked for bots). Hence:

- two workers never take the same match at once (the row lock), and a step is applied once
  (it is re-checked under the lock: no bot to act, nothing to do);
- a worker killed mid-step loses nothing: its transaction rolls back, the row unlocks, and the
  work, still due, is taken by the next worker that looks;
- run as many workers as the load needs, on any machine: they share nothing but PostgreSQL.

Workers sleep on `LISTEN truco_due` (sent when work becomes due now) with a short poll as a
safety net (a notification lost while a worker reconnects costs at most one period).

Between steps it settles finished matches (app.play.settle: tallies and ratings, once each),
and when no game work is due it works on the reviews players asked for (app.play.reviews), a
slice at a time.
Expired invitations and old rows are dealt with by a thread of their own in one loop of
a pool (housekeeping): a prune that reads a big table never holds up a bot or a deadline.

Webhook deliveries (app.webhooks.dispatch, docs/correspondence.md) are sent by threads of
the same worker, from their own outbox table, so that a slow endpoint never delays a bot.

It runs in `python -m app.worker` (app/worker.py: a loop per core; DATABASE_URL as for the
app); `scripts/dev.py serve` and docker-compose start one beside the web server.
"""
from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta, timezone

import psycopg2
import psycopg2.extensions
from flask import Flask, current_app
from sqlalchemy import select as sql_select
from sqlalchemy import func, update

from app.infra.problems import DATABASE_ERRORS, first_line
from app.db.extensions import db
from app.infra.logthrottle import warn_throttled
from app.play.invitations import expire_due
from app.play.retention import prune
from app.play.bot_shares import Shares
from app.play.store import DUE_CHANNEL, get_match
from app.infra.metrics import WORKER_STEPS
from app.db.models import Match
from app.play.moves import advance
from app.play.reviews import review_due
from app.play.settle import settle_due
from app.db.channels import listen_connection, wait_readable
from app.webhooks.dispatch import start_thread as start_deliveries

POLL_SECONDS = 1.0
"""The longest a worker sleeps without a notification before it looks again."""
HOUSEKEEPING_SECONDS = 60.0
"""How often a worker declines expired invitations and prunes old rows."""
HELD_RETRY_SECONDS = 0.05
"""How soon a worker looks again at due work it skipped because the match was locked."""
RETRY_AFTER_FAILURE = timedelta(seconds=30)
"""A step that raised is tried again after this, not in a hot loop."""
MAX_CAUSES = 10_000
"""The most request ids kept for work not yet done (then they are forgotten)."""
log = logging.getLogger("app.worker")  # (also when run as __main__: python -m app.worker)
SHARES = Shares()
"""This process's fair shares between the owners of the matches it runs (app/play/bot_shares.py)."""


def run_due(limit: int | None = None, now: datetime | None = None,
            shares: Shares = SHARES, causes: dict[str, str] | None = None) -> int:
    """Do the work that is due, one step per transaction, until none is left (or `limit`
    steps), the owner whose clock is earliest first (`shares`), each step's time charged to
    its owner; the number of steps done. `now` (tests: a clock they control) defaults to the
    time at each step. `causes`: the request id that made each match's work due, for its
    line (taken out as it is done). Needs an app context."""
    done = 0
    while limit is None or done < limit:
        moment = now or datetime.now(timezone.utc)
        began = time.perf_counter()
        claimed = shares.claim(moment)
        if claimed is None:
            db.session.rollback()
            return done
        match = get_match(claimed)
        match_id, owner = match.id, match.created_by
        try:
            step = advance(match, moment)
            version = match.version
            db.session.commit()
            WORKER_STEPS.labels(step).inc()
            if step != "nothing" and current_app.config.get("ACCESS_LOG"):
                ms = round((time.perf_counter() - began) * 1000, 1)
                log.info("%s in match %s (version %s) %.1f ms", step, match_id, version, ms,
                         extra={"step": step, "match_id": match_id, "version": version,
                                "ms": ms, "request_id": (causes or {}).pop(match_id, None)})
        except Exception:  # noqa: BLE001 - one bad match must not stop the worker
            db.session.rollback()
            log.exception("background step failed for match %s; retrying later", match_id)
            db.session.execute(update(Match).where(Match.id == match_id).values(
                due_at=moment + RETRY_AFTER_FAILURE))
            db.session.commit()
        shares.charge(owner, moment, timedelta(seconds=time.perf_counter() - began))
        done += 1
    return done


def _game_work_due() -> bool:
    """Whether a bot's move or a deadline is due now (a review slice gives way to it)."""
    return due_but_held(datetime.now(timezone.utc))


def due_but_held(now: datetime) -> bool:
    """Whether some match has work due that `run_due` skipped (its row is locked)."""
    return db.session.execute(
        sql_select(Match.id).where(Match.due_at <= now, Match.status == "active").limit(1)
    ).first() is not None


def next_due(now: datetime) -> datetime | None:
    """When the soonest work not yet due falls due (a warning, a deadline), or None."""
    return db.session.execute(
        sql_select(func.min(Match.due_at)).where(Match.due_at > now, Match.status == "active")
    ).scalar_one_or_none()


class Worker:
    """A loop that runs `run_due` whenever work may be due, until `stop` is set."""

    def __init__(self, app: Flask, poll_seconds: float = POLL_SECONDS,
                 deliveries: bool = True, housekeeping: bool | None = None) -> None:
        self.app = app
        self.poll_seconds = poll_seconds
        self.deliveries = deliveries
        """Whether this loop also sends the webhook outbox (on a thread of its own)."""
        self.housekeeping = deliveries if housekeeping is None else housekeeping
        """Whether this loop also declines expired invitations and prunes old rows (on a
        thread of its own: a prune that reads a big table never holds up a bot's move or a
        deadline; one loop of a pool is enough)."""
        self.stop = threading.Event()
        self.causes: dict[str, str] = {}
        """Match id: the request id its last notification named (the request that made its
        work due), for the lines of that work."""
        self._conn: psycopg2.extensions.connection | None = None

    def _listen(self) -> None:
        """(Re)connect the LISTEN connection; on failure the loop just polls."""
        try:
            self._conn = listen_connection(self.app.config, DUE_CHANNEL, "truco-worker")
        except psycopg2.Error as exc:
            log.warning("worker cannot LISTEN (%s); polling every %.1f s", exc,
                        self.poll_seconds)
            self._conn = None

    def _sleep(self, seconds: float) -> None:
        """Until a notification arrives, `stop` is set, or `seconds` pass."""
        if self._conn is None:
            self._listen()
        if self._conn is None:
            self.stop.wait(seconds)
            return
        try:
            if wait_readable([self._conn], seconds, self.stop):
                self._conn.poll()
                if len(self.causes) > MAX_CAUSES:
                    self.causes.clear()
                for note in self._conn.notifies:  # "<match id> <request id>" or the id alone
                    match_id, _, request_id = note.payload.partition(" ")
                    if request_id:
                        self.causes[match_id] = request_id
                self._conn.notifies.clear()
        except (OSError, psycopg2.Error):
            self._conn.close()
            self._conn = None

    def _housekeeping(self) -> None:
        """Decline the invitations that expired (app/play/invitations.py) and prune what is past
        its time (app/play/retention.py)."""
        with self.app.app_context():
            try:
                now = datetime.now(timezone.utc)
                expire_due(now)
                prune(now)
            finally:
                db.session.remove()

    def _housekeeping_loop(self) -> None:
        """`_housekeeping` now and every HOUSEKEEPING_SECONDS until `stop` is set."""
        while True:
            try:
                self._housekeeping()
            except DATABASE_ERRORS as exc:
                warn_throttled(log, "worker: database unavailable",
                               f"housekeeping failed: {first_line(exc)}")
            except Exception:  # noqa: BLE001 - a bug: its traceback, then again later
                log.exception("housekeeping failed")
            if self.stop.wait(HOUSEKEEPING_SECONDS):
                return

    def run(self) -> None:
        log.info("worker started")
        deliveries = start_deliveries(self.app, self.stop) if self.deliveries else None
        housekeeping = None
        if self.housekeeping:
            housekeeping = threading.Thread(target=self._housekeeping_loop,
                                            name="housekeeping", daemon=True)
            housekeeping.start()
        while not self.stop.is_set():
            try:
                with self.app.app_context():
                    try:
                        run_due(causes=self.causes)
                        settle_due()
                        now = datetime.now(timezone.utc)
                        held, soonest = due_but_held(now), next_due(now)
                        # (reviews only when no game work waits: a slice, then look again)
                        reviewing = not held and review_due(game_work=_game_work_due)
                    finally:
                        db.session.remove()
            except DATABASE_ERRORS as exc:  # the database is away: one line, look again later
                warn_throttled(log, "worker: database unavailable",
                               f"worker step failed: {first_line(exc)}")
                self.stop.wait(self.poll_seconds)
                continue
            except Exception:  # noqa: BLE001 - a bug: its traceback, then look again later
                log.exception("worker step failed")
                self.stop.wait(self.poll_seconds)
                continue
            if reviewing:
                continue
            if held:
                # Work is due in a match someone else holds (another worker, or a player's
                # request that may end without a change, hence without a notification):
                # look again soon rather than after a whole poll period.
                self.stop.wait(HELD_RETRY_SECONDS)
            else:  # until the next warning or deadline falls due, at the latest
                until = (soonest - datetime.now(timezone.utc)).total_seconds() if soonest else None
                self._sleep(self.poll_seconds if until is None
                            else max(0.0, min(self.poll_seconds, until)))
        if self._conn is not None:
            self._conn.close()
        if deliveries is not None:
            deliveries.join()
        if housekeeping is not None:
            housekeeping.join()
        log.info("worker stopped")
