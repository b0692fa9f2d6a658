"""How long the tables that only grow keep their rows, pruned by the worker: idempotency
records IDEMPOTENCY_KEPT (24 h: a retry with the same key after that is a new request),
webhook deliveries that were delivered or failed DELIVERIES_KEPT (7 days: what
`GET /v1/me/webhooks/{id}` can still show), and match watches once they have ended."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnClause,
    ColumnElement,
    any_,
    delete,
    func,
    literal_column,
    select,
)

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


def _oldest_batch(entity: type, key: Any, created_at: Any,
                  where: Iterable[ColumnElement[bool]], before: datetime) -> int:
    """Delete one batch of the rows of `entity` made before `before` (and matching `where`),
    the oldest first, each found by `key` (the primary key, or the ctid); the rows deleted.
    The query reads the table's index on `created_at`, not the table: a prune used to read
    every row every minute (at 2 million deliveries 0.39-0.49 s to delete a minute's 174; at 1
    million idempotency records 0.49-0.53 s), and deleted a backlog in one transaction. A row
    another transaction holds (an endpoint's deletion, cascading) is left for the next prune:
    the prune never waits for a row, nor deadlocks with that cascade (which deletes the same
    rows in another order)."""
    doomed = (select(key).select_from(entity)
              .where(created_at < before, *where)
              .order_by(created_at)
              .limit(BATCH)
              .with_for_update(skip_locked=True))
    # (= ANY(ARRAY(...)), not IN (...): IN may be planned as a hash join that reads the
    # whole table to match the batch's keys; the array is looked up key by key)
    deleted: int = db.session.execute(
        delete(entity)
        .where(key == any_(func.array(doomed.scalar_subquery())))
        .execution_options(synchronize_session=False)).rowcount  # type: ignore[attr-defined]
    db.session.commit()
    return deleted


def _old_deliveries(before: datetime) -> int:
    """One batch of the finished deliveries made before `before`
    (ix_webhook_deliveries_finished)."""
    return _oldest_batch(WebhookDelivery, WebhookDelivery.id, WebhookDelivery.created_at,
                         [WebhookDelivery.status.in_(FINISHED_DELIVERY_STATUSES)], before)


def _old_idempotency_records(before: datetime) -> int:
    """One batch of the idempotency records made before `before`
    (ix_idempotency_records_created_at)."""
    # (by ctid: the key has three columns; a record is never updated, so the ctid the
    # subquery locked is the row's until this transaction ends, and is found by a TID scan)
    ctid: ColumnClause[Any] = literal_column("ctid")
    return _oldest_batch(IdempotencyRecord, ctid, IdempotencyRecord.created_at, [], before)


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
    watches = db.session.execute(delete(MatchWatch).where(MatchWatch.until < now))
    done = {"match_watches": watches.rowcount}  # type: ignore[attr-defined]
    db.session.commit()
    done["idempotency_records"] = _in_batches(_old_idempotency_records,
                                              now - IDEMPOTENCY_KEPT)
    done["webhook_deliveries"] = _in_batches(_old_deliveries, now - DELIVERIES_KEPT)
    return done
