"""How long the tables that only grow keep their rows, pruned by the worker: idempotency
records IDEMPOTENCY_KEPT (24 h: a retry with the same key after that is a new request),
webhook deliveries that were delivered or failed DELIVERIES_KEPT (7 days: what
`GET /v1/me/webhooks/{id}` can still show), and match watches once they have ended."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import any_, delete, func, select

from app.db.extensions import db
from app.db.models import IdempotencyRecord, MatchWatch
from app.db.webhook_models import FINISHED_DELIVERY_STATUSES, WebhookDelivery

IDEMPOTENCY_KEPT = timedelta(hours=24)
DELIVERIES_KEPT = timedelta(days=7)
DELIVERIES_BATCH = 5000
"""The old deliveries deleted per transaction (each batch commits: no lock is held long, and
no statement comes near the connections' statement_timeout, whatever the backlog): 16-22 ms
a batch at 2 million rows."""
DELIVERIES_BATCHES = 100
"""At most this many batches a prune (the rest wait for the next one, a minute later), so
that a worker asked to stop is not kept waiting by a backlog of millions."""


def _old_deliveries(before: datetime) -> int:
    """Delete one batch of the finished deliveries made before `before`, the oldest first,
    found through ix_webhook_deliveries_finished (not by reading the table: a prune used to
    read every row, 0.39-0.49 s at 2 million rows, to delete a minute's 174 of them, and
    deleted a backlog in one transaction: 0.5-0.7 s for 250,000); the rows deleted. A row
    another transaction holds (an endpoint's deletion, cascading) is left for the next
    prune: the prune never waits for a row, nor deadlocks with that cascade (which deletes
    the same rows in another order)."""
    doomed = (select(WebhookDelivery.id)
              .where(WebhookDelivery.status.in_(FINISHED_DELIVERY_STATUSES),
                     WebhookDelivery.created_at < before)
              .order_by(WebhookDelivery.created_at)
              .limit(DELIVERIES_BATCH)
              .with_for_update(skip_locked=True))
    # (= ANY(ARRAY(...)), not IN (...): IN may be planned as a hash join that reads the
    # whole table to match the batch's ids; the array is looked up in the primary key)
    deleted = db.session.execute(
        delete(WebhookDelivery)
        .where(WebhookDelivery.id == any_(func.array(doomed.scalar_subquery())))
        .execution_options(synchronize_session=False)).rowcount
    db.session.commit()
    return deleted


def prune(now: datetime) -> dict[str, int]:
    """Delete what is past its time; the rows deleted, by table. Needs an app context."""
    done = {
        "idempotency_records": db.session.execute(delete(IdempotencyRecord).where(
            IdempotencyRecord.created_at < now - IDEMPOTENCY_KEPT)).rowcount,
        "match_watches": db.session.execute(delete(MatchWatch).where(
            MatchWatch.until < now)).rowcount,
    }
    db.session.commit()
    done["webhook_deliveries"] = 0
    for _ in range(DELIVERIES_BATCHES):
        deleted = _old_deliveries(now - DELIVERIES_KEPT)
        done["webhook_deliveries"] += deleted
        if deleted < DELIVERIES_BATCH:
            break
    return done
