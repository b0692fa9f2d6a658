"""How long the tables that only grow keep their rows, pruned by the worker: idempotency
records IDEMPOTENCY_KEPT (24 h: a retry with the same key after that is a new request),
webhook deliveries that were delivered or failed DELIVERIES_KEPT (7 days: what
`GET /v1/me/webhooks/{id}` can still show), and match watches once they have ended."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import ColumnClause, any_, delete, func, literal_column, select

from app.db.extensions import db
from app.db.models import IdempotencyRecord, MatchWatch
from app.db.webhook_models import FINISHED_DELIVERY_STATUSES, WebhookDelivery

IDEMPOTENCY_KEPT = timedelta(hours=24)
DELIVERIES_KEPT = timedelta(days=7)
BATCH = 5000
"""The old rows deleted per transaction (each batch commits: no lock is held long, and no
statement comes near the connections' statement_timeout, whatever the backlog): 16-22 ms a
batch of deliveries at 2 million rows, 8-10 ms one of idempotency records at 1 million
(docs/reliability.md)."""
BATCHES = 100
"""At most this many batches a table a prune (the rest wait for the next one, a minute
later), so that a worker asked to stop is not kept waiting by a backlog of millions."""


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
              .limit(BATCH)
              .with_for_update(skip_locked=True))
    # (= ANY(ARRAY(...)), not IN (...): IN may be planned as a hash join that reads the
    # whole table to match the batch's ids; the array is looked up in the primary key)
    deleted = db.session.execute(
        delete(WebhookDelivery)
        .where(WebhookDelivery.id == any_(func.array(doomed.scalar_subquery())))
        .execution_options(synchronize_session=False)).rowcount
    db.session.commit()
    return deleted


def _old_idempotency_records(before: datetime) -> int:
    """Delete one batch of the idempotency records made before `before`, the oldest first,
    found through ix_idempotency_records_created_at; the rows deleted. A row another
    transaction holds is left for the next prune: the prune never waits for a row."""
    # (by ctid: the key has three columns; a record is never updated, so the ctid the
    # subquery locked is the row's until this transaction ends, and is found by a TID scan)
    ctid: ColumnClause[object] = literal_column("ctid")
    doomed = (select(ctid).select_from(IdempotencyRecord)
              .where(IdempotencyRecord.created_at < before)
              .order_by(IdempotencyRecord.created_at)
              .limit(BATCH)
              .with_for_update(skip_locked=True))
    deleted = db.session.execute(
        delete(IdempotencyRecord)
        .where(ctid == any_(func.array(doomed.scalar_subquery())))
        .execution_options(synchronize_session=False)).rowcount
    db.session.commit()
    return deleted


def _in_batches(batch: Callable[[datetime], int], before: datetime) -> int:
    """Run `batch` (one transaction each) until it deletes less than a full batch, at most
    BATCHES times; the rows deleted."""
    done = 0
    for _ in range(BATCHES):
        deleted = batch(before)
        done += deleted
        if deleted < BATCH:
            break
    return done


def prune(now: datetime) -> dict[str, int]:
    """Delete what is past its time; the rows deleted, by table. Needs an app context."""
    # (watches are read whole: one row per match watched in the last minutes, whatever the
    # history; an index on `until` would be written by every renewal of a watch)
    done = {"match_watches": db.session.execute(delete(MatchWatch).where(
        MatchWatch.until < now)).rowcount}
    db.session.commit()
    done["idempotency_records"] = _in_batches(_old_idempotency_records,
                                              now - IDEMPOTENCY_KEPT)
    done["webhook_deliveries"] = _in_batches(_old_deliveries, now - DELIVERIES_KEPT)
    return done
