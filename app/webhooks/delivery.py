"""Sending the webhook outbox (the background worker's second job).

Each attempt is three short steps, none holding a row lock during the HTTP call: claim (`FOR
UPDATE SKIP LOCKED` the most overdue pending delivery, give it a lease, count the attempt,
commit); send (one signed POST through app.webhooks.outbound); record, if the lease is still
ours (delivered, or the next attempt after an exponential backoff with jitter; after a day of
failures the delivery has failed and its endpoint is disabled). A worker that dies mid-send
loses nothing: when its lease ends the delivery is due again (deliveries are at least once,
with the same `webhook-id`).

Lock order: a transaction that locks an endpoint's row and rows of its deliveries locks the
endpoint's first. Deleting an endpoint does (its row, then its deliveries' by the ON DELETE
CASCADE), and so do the claim and the record here; the record's disabling of an endpoint
fails its other pending deliveries under the endpoint's lock. The claim and the record used
to lock the delivery first and then the endpoint (the record to count the attempt on its
circuit, a half-open claim to hold the circuit): against a deletion, or a record that
disables the endpoint, that deadlocked (40P01; tests/api/test_webhook_locks.py). The endpoint
is locked FOR NO KEY UPDATE (never FOR UPDATE): a change that enqueues a delivery holds a
KEY SHARE lock on it until its commit (app/db/writes.py, app/db/hot_sql.py), which this does
not block. Updating a delivery leaves its endpoint_id alone, so it takes no lock on the
endpoint.
"""
from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from flask import current_app
from sqlalchemy import select, text, update

from app.db.extensions import db
from app.infra.metrics import DELIVERIES
from app.webhooks.outbound import OutboundError, Reply, post
from app.webhooks.breaker import after_attempt, doubled, open_for
from app.db.webhook_models import WebhookDelivery, WebhookEndpoint
from app.webhooks.signing import headers, live_secrets
from app.webhooks.urls import UnsafeUrl

LEASE = timedelta(seconds=60)
"""How long a claimed delivery is a worker's (longer than any attempt can take)."""
FIRST_RETRY = timedelta(seconds=10)
MAX_RETRY = timedelta(hours=2)
RETRY_WINDOW = timedelta(days=1)
"""A delivery that still fails this long after it was made has failed: its endpoint is
disabled."""
log = logging.getLogger(__name__)


CANDIDATES = 8
"""How many endpoints' most overdue deliveries a claim considers (in case another worker
is claiming the first)."""
_CANDIDATES = text("""
WITH RECURSIVE owed(endpoint_id) AS (
    (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending'
      ORDER BY endpoint_id LIMIT 1)
  UNION ALL
    SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
             WHERE d.status = 'pending' AND d.endpoint_id > owed.endpoint_id
             ORDER BY d.endpoint_id LIMIT 1)
      FROM owed WHERE owed.endpoint_id IS NOT NULL)
SELECT first.id, e.id AS endpoint_id FROM owed
  JOIN webhook_endpoints e ON e.id = owed.endpoint_id
  CROSS JOIN LATERAL (
    SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
     WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= :now
     ORDER BY d.next_attempt_at LIMIT 1) first
 WHERE (e.open_until IS NULL OR e.open_until <= :now)
   AND e.id <> ALL(CAST(:busy_endpoints AS varchar[]))
   AND e.player_id <> ALL(CAST(:busy_owners AS varchar[]))
 ORDER BY first.next_attempt_at LIMIT :n""")
"""The most overdue due delivery of each endpoint that may be called now, the most overdue
first. The endpoints with deliveries pending are found by a skip scan of
ix_webhook_deliveries_pending (one index probe per endpoint), and each one's most overdue
delivery by one more probe, so an owner's backlog of thousands costs one probe, not a
read of every row (it used to be read row by row at every claim, delaying everyone's
deliveries)."""


@dataclass(frozen=True)
class Claim:
    """A delivery taken by this worker until `lease`, with what sending it needs."""

    id: str
    lease: datetime
    url: str
    secrets: tuple[str, ...]
    """The live secrets at the claim, the newest first (each signs the attempt)."""
    body: bytes
    endpoint_id: str = ""
    owner: str = ""
    """The player whose endpoint it is."""


GONE = 410
"""An answer that disables the endpoint at once (the Standard Webhooks specification: the
receiver says the endpoint is gone for good, so retrying for a day helps nobody)."""


def backoff(attempts: int, rng: random.Random | None = None) -> timedelta:
    """The wait after the `attempts`-th failed attempt: 10 s doubled per attempt, at most 2 h,
    times a random factor from 0.5 to 1 (so that endpoints coming back are not hit by every
    retry at once)."""
    base = doubled(FIRST_RETRY, attempts - 1, MAX_RETRY)
    return base * (rng or random).uniform(0.5, 1.0)


def claim(now: datetime, busy_endpoints: Collection[str] = (),
          busy_owners: Collection[str] = ()) -> Claim | None:
    """Take the most overdue pending delivery (skipping those another worker is claiming,
    those of endpoints whose circuit is open, and those of the endpoints and owners named
    busy) and commit the lease; None when nothing is due. The search costs the number of
    endpoints with deliveries pending, not the number of deliveries: a backlog of one
    owner's that waits (its circuit open, or its owner busy) is never read through."""
    candidates = db.session.execute(_CANDIDATES, {
        "now": now, "busy_endpoints": list(busy_endpoints),
        "busy_owners": list(busy_owners), "n": CANDIDATES}).all()
    delivery = endpoint = None
    for candidate, endpoint_id in candidates:
        # the endpoint's row, then the delivery's (the lock order: module docstring); an
        # endpoint another transaction holds (a record, a deletion) is skipped, so that the
        # claim never waits for a row (the claim holds the circuit of a half-open one)
        endpoint = db.session.execute(
            select(WebhookEndpoint).where(WebhookEndpoint.id == endpoint_id)
            .with_for_update(skip_locked=True, key_share=True)).scalar_one_or_none()
        if endpoint is None:
            continue
        delivery = db.session.execute(
            select(WebhookDelivery).where(WebhookDelivery.id == candidate,
                                          WebhookDelivery.status == "pending",
                                          WebhookDelivery.next_attempt_at <= now)
            .with_for_update(skip_locked=True)).scalar_one_or_none()
        if delivery is not None:
            break
    if delivery is None or endpoint is None:
        db.session.rollback()
        return None
    if endpoint.status != "active":
        _give_up(delivery, "the endpoint is disabled")
        db.session.commit()
        return claim(now, busy_endpoints, busy_owners)
    lease = now + LEASE
    if open_for(endpoint.failures_in_row) is not None:
        # half-open (its circuit was open and its time is up): this attempt is the probe
        # that decides, so no other is claimed for the endpoint until it is recorded (or
        # its lease ends)
        endpoint.open_until = lease
    delivery.locked_until = delivery.next_attempt_at = lease
    delivery.attempts += 1
    delivery.last_attempt_at = now
    found = Claim(delivery.id, lease, endpoint.url, tuple(live_secrets(endpoint, now)),
                  json.dumps(delivery.payload, separators=(",", ":")).encode(),
                  endpoint.id, endpoint.player_id)
    db.session.commit()
    return found


def send(found: Claim, now: datetime) -> Reply | str:
    """One attempt: the answer, or why there was none."""
    signed = headers(found.secrets, found.id, int(now.timestamp()), found.body)
    try:
        return post(found.url, found.body, {**signed, "User-Agent": "truco-webhooks/1"},
                    allow_http=current_app.config["WEBHOOK_ALLOW_HTTP"],
                    allow_private=current_app.config["WEBHOOK_ALLOW_PRIVATE"])
    except UnsafeUrl as exc:
        return f"refused URL: {exc}"
    except OutboundError as exc:
        return str(exc)


def _failure(outcome: Reply | str) -> str | None:
    """Why the attempt failed (None: it succeeded). Only a 2xx is a success."""
    if isinstance(outcome, str):
        return outcome
    if 200 <= outcome.status < 300:
        return None
    excerpt = outcome.body[:200].decode("utf-8", "replace")
    redirect = " (redirects are not followed)" if 300 <= outcome.status < 400 else ""
    return f"HTTP {outcome.status}{redirect}: {excerpt}"


def _give_up(delivery: WebhookDelivery, reason: str) -> None:
    delivery.status = "failed"
    delivery.next_attempt_at = delivery.locked_until = None
    delivery.last_error = reason[:500]


def _disable(endpoint_id: str, now: datetime, reason: str) -> None:
    """Disable the endpoint; its other pending deliveries fail with it."""
    db.session.execute(update(WebhookEndpoint).where(WebhookEndpoint.id == endpoint_id)
                       .values(status="disabled", disabled_at=now, disabled_reason=reason))
    db.session.execute(update(WebhookDelivery).where(
        WebhookDelivery.endpoint_id == endpoint_id, WebhookDelivery.status == "pending")
        .values(status="failed", next_attempt_at=None, locked_until=None,
                last_error="the endpoint was disabled"))


def record(found: Claim, outcome: Reply | str, now: datetime) -> str | None:
    """Store the attempt's result if the lease is still ours; the delivery's new status
    (None: the lease had run out and another worker owns the delivery now, or it is no
    longer leased at all: its endpoint was deleted, or disabled by another attempt)."""
    # the endpoint's row, then the delivery's (the lock order: module docstring)
    endpoint = db.session.execute(select(WebhookEndpoint).where(
        WebhookEndpoint.id == found.endpoint_id).with_for_update(key_share=True)
    ).scalar_one_or_none()
    delivery = None if endpoint is None else db.session.execute(
        select(WebhookDelivery).where(WebhookDelivery.id == found.id,
                                      WebhookDelivery.endpoint_id == endpoint.id,
                                      WebhookDelivery.locked_until == found.lease)
        .with_for_update()).scalar_one_or_none()
    if endpoint is None or delivery is None:  # (an endpoint deleted: its deliveries too)
        db.session.rollback()
        return None
    delivery.locked_until = None
    delivery.response_status = outcome.status if isinstance(outcome, Reply) else None
    error = _failure(outcome)
    after_attempt(endpoint, error is None, now)
    if error is None:
        delivery.status = "delivered"
        delivery.delivered_at = now
        delivery.next_attempt_at = None
        delivery.last_error = None
    elif isinstance(outcome, Reply) and outcome.status == GONE:
        _give_up(delivery, error)
        _disable(delivery.endpoint_id, now, f"the endpoint answered {error}"[:200])
    elif now - delivery.created_at >= RETRY_WINDOW:
        _give_up(delivery, error)
        _disable(delivery.endpoint_id, now, f"deliveries failed for a day: {error}"[:200])
    else:
        delivery.last_error = error[:500]
        delivery.next_attempt_at = now + backoff(delivery.attempts)
    status = delivery.status
    db.session.commit()
    return status


def deliver_due(limit: int | None = None, now: datetime | None = None) -> int:
    """Attempt the deliveries that are due, one at a time, until none is left (or `limit`);
    the number of attempts. `now` fixes the clock (tests). Needs an app context."""
    done = 0
    while limit is None or done < limit:
        clock = now or datetime.now(timezone.utc)
        found = claim(clock)
        if found is None:
            return done
        started = time.perf_counter()
        outcome = send(found, clock)
        status = record(found, outcome, now or datetime.now(timezone.utc))
        attempted(found, outcome, status, started)
        done += 1
    return done


def attempted(found: Claim, outcome: Reply | str, status: str | None, started: float) -> None:
    """Count one recorded attempt (`truco_webhook_deliveries_total`) and write its log line
    (docs/operations.md); `started` is its `time.perf_counter()` before `send`. Every path
    that sends a delivery calls it: :func:`deliver_due` and the worker's dispatcher."""
    DELIVERIES.labels({"pending": "retrying", None: "lease_lost"}.get(status, status)).inc()
    if current_app.config.get("ACCESS_LOG"):
        ms = round((time.perf_counter() - started) * 1000, 1)
        answer = outcome.status if isinstance(outcome, Reply) else outcome[:100]
        log.info("webhook delivery %s: %s (%s) %.1f ms", found.id, status, answer, ms,
                 extra={"delivery_id": found.id, "outcome": status, "ms": ms})
