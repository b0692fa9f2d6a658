"""Sending the webhook outbox concurrently and fairly (the worker's delivery thread).

A dispatcher thread claims due deliveries (app/webhooks/delivery.py) and hands each to a pool
of SENDERS threads. It never claims past PER_ENDPOINT attempts in flight to one endpoint nor
PER_OWNER to one player's endpoints, so one owner's slow endpoints never hold every sender;
endpoints whose circuit is open are skipped (app/webhooks/breaker.py). It starts when a
delivery commits (`NOTIFY truco_webhooks`, heard on a LISTEN connection of its own), with a
poll of POLL_SECONDS as a safety net. The caps hold per worker process.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

import psycopg2
import psycopg2.extensions
from flask import Flask

from app.infra.problems import DATABASE_ERRORS, first_line
from app.db.extensions import db
from app.infra.logthrottle import warn_throttled
from app.db.channels import listen_connection, wait_readable
from app.webhooks.delivery import Claim, attempted, claim, record, send
from app.webhooks.outbox import DELIVERY_CHANNEL

SENDERS = 16
PER_ENDPOINT = 2
PER_OWNER = 4
POLL_SECONDS = 1.0
log = logging.getLogger(__name__)


class Dispatcher:
    """Claims what is due within the caps and sends it on the pool, until `stop` is set."""

    def __init__(self, app: Flask, stop: threading.Event, senders: int = SENDERS) -> None:
        self.app, self.stop, self.senders = app, stop, senders
        self._lock = threading.Lock()
        self._endpoints: Counter[str] = Counter()
        self._owners: Counter[str] = Counter()
        self._wake_r, self._wake_w = os.pipe()
        self._conn: psycopg2.extensions.connection | None = None

    def in_flight(self) -> int:
        with self._lock:
            return sum(self._endpoints.values())

    def _busy(self) -> tuple[list[str], list[str]]:
        with self._lock:
            return ([e for e, n in self._endpoints.items() if n >= PER_ENDPOINT],
                    [o for o, n in self._owners.items() if n >= PER_OWNER])

    def _take(self, found: Claim, delta: int) -> None:
        with self._lock:
            self._endpoints[found.endpoint_id] += delta
            self._owners[found.owner] += delta
            self._endpoints += Counter()  # (drops the zeros)
            self._owners += Counter()

    def _attempt(self, found: Claim) -> None:
        """Send one claimed delivery and record the outcome (a sender thread)."""
        try:
            with self.app.app_context():
                try:
                    started = time.perf_counter()
                    outcome = send(found, datetime.now(timezone.utc))
                    status = record(found, outcome, datetime.now(timezone.utc))
                    attempted(found, outcome, status, started)
                finally:
                    db.session.remove()
        except DATABASE_ERRORS as exc:  # the lease runs out: the delivery is due again
            warn_throttled(log, "webhooks: database unavailable",
                           f"webhook delivery {found.id} not recorded: {first_line(exc)}")
        except Exception:  # noqa: BLE001 - the lease runs out: the delivery is due again
            log.exception("webhook delivery %s failed", found.id)
        finally:
            self._take(found, -1)
            os.write(self._wake_w, b".")

    def _claim_all(self, pool: ThreadPoolExecutor) -> None:
        """Claim and submit due deliveries while a sender is free."""
        with self.app.app_context():
            try:
                while self.in_flight() < self.senders and not self.stop.is_set():
                    endpoints, owners = self._busy()
                    found = claim(datetime.now(timezone.utc), endpoints, owners)
                    if found is None:
                        return
                    self._take(found, +1)
                    pool.submit(self._attempt, found)
            finally:
                db.session.remove()

    def _listen(self) -> None:
        try:
            self._conn = listen_connection(self.app.config, DELIVERY_CHANNEL, "truco-webhooks")
        except psycopg2.Error:
            self._conn = None

    def _sleep(self) -> None:
        """Until a delivery commits, a sender is free, `stop` is set, or POLL_SECONDS pass."""
        if self._conn is None:
            self._listen()
        sources: list[object] = [self._wake_r] + ([self._conn] if self._conn else [])
        try:
            ready = wait_readable(sources, POLL_SECONDS, self.stop)
        except (OSError, ValueError):
            ready = []
        if self._wake_r in ready:
            os.read(self._wake_r, 4096)
        if self._conn is not None and self._conn in ready:
            try:
                self._conn.poll()
                self._conn.notifies.clear()
            except psycopg2.Error:
                self._conn.close()
                self._conn = None

    def run(self) -> None:
        with ThreadPoolExecutor(self.senders, thread_name_prefix="webhook-send") as pool:
            while not self.stop.is_set():
                try:
                    self._claim_all(pool)
                except DATABASE_ERRORS as exc:  # the database is away: one line, look again
                    warn_throttled(log, "webhooks: database unavailable",
                                   f"webhook claim failed: {first_line(exc)}")
                except Exception:  # noqa: BLE001 - a bug: its traceback, then look again
                    log.exception("webhook claim failed")
                self._sleep()
        if self._conn is not None:
            self._conn.close()
        os.close(self._wake_r)
        os.close(self._wake_w)


def start_thread(app: Flask, stop: threading.Event) -> threading.Thread:
    """Run a :class:`Dispatcher` on a thread of its own until `stop` is set, so that a slow
    endpoint never delays a bot's move."""
    thread = threading.Thread(target=Dispatcher(app, stop).run, name="webhook-deliveries",
                              daemon=True)
    thread.start()
    return thread
