"""How long the tables that only grow keep their rows, pruned by the worker: idempotency
records IDEMPOTENCY_KEPT (24 h: a retry with the same key after that is a new request),
webhook deliveries that were delivered or failed DELIVERIES_KEPT (7 days: what
`GET /v1/me/webhooks/{id}` can still show), and match watches once they have ended."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete

from app.db.extensions import db
from app.db.models import IdempotencyRecord, MatchWatch
from app.db.webhook_models import WebhookDelivery

IDEMPOTENCY_KEPT = timedelta(hours=24)
DELIVERIES_KEPT = timedelta(days=7)


def prune(now: datetime) -> dict[str, int]:
    """Delete what is past its time; the rows deleted, by table. Needs an app context."""
    done = {
        "idempotency_records": db.session.execute(delete(IdempotencyRecord).where(
            IdempotencyRecord.created_at < now - IDEMPOTENCY_KEPT)).rowcount,
        "webhook_deliveries": db.session.execute(delete(WebhookDelivery).where(
            WebhookDelivery.status.in_(("delivered", "failed")),
            WebhookDelivery.created_at < now - DELIVERIES_KEPT)).rowcount,
        "match_watches": db.session.execute(delete(MatchWatch).where(
            MatchWatch.until < now)).rowcount,
    }
    db.session.commit()
    return done
