"""Webhook tables: the endpoints players register, and the outbox of deliveries the
background worker sends (docs/correspondence.md)."""
from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import (
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.db.extensions import db

WEBHOOK_EVENTS = ("your_turn", "match_started", "match_finished", "invited", "deadline_soon",
                  "turn_timed_out", "review_done")
ENDPOINT_STATUSES = ("active", "disabled")
DELIVERY_STATUSES = ("pending", "delivered", "failed")
FINISHED_DELIVERY_STATUSES = ("delivered", "failed")
"""A delivery in one of these is never tried again (app/play/retention.py prunes it)."""


def _new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(12)


class WebhookEndpoint(db.Model):
    """A URL a player asked us to POST events to. The secret is kept as is: it is the HMAC
    key of every signature (shown to the player once, at registration or rotation)."""

    __tablename__ = "webhook_endpoints"
    __table_args__ = (CheckConstraint(f"status IN {ENDPOINT_STATUSES!r}", name="status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True,
                                    default=lambda: _new_id("wh_"))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           nullable=False, index=True)
    url: Mapped[str] = mapped_column(String(2048), nullable=False)
    events: Mapped[list[str]] = mapped_column(ARRAY(String(16)), nullable=False)
    secret: Mapped[str] = mapped_column(String(64), nullable=False)
    previous_secret: Mapped[str | None] = mapped_column(String(64))
    """The secret the last rotation replaced: it signs too for a while after it
    (app/webhooks/signing.py: live_secrets)."""
    secret_rotated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the secret was last rotated (null: never)."""
    status: Mapped[str] = mapped_column(String(16), nullable=False, default="active",
                                        server_default=text("'active'"))
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    disabled_reason: Mapped[str | None] = mapped_column(String(200))
    failures_in_row: Mapped[int] = mapped_column(Integer, nullable=False, default=0,
                                                 server_default=text("0"))
    """Attempts that failed since the last success (app/webhooks/breaker.py)."""
    open_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """While in the future, the circuit is open: no delivery to this endpoint is tried."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False,
                                                 server_default=func.now())


class WebhookDelivery(db.Model):
    """One event for one endpoint: written in the transaction of the change that caused it,
    sent later by a worker. Its id is the `webhook-id` header (the same on every retry)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        CheckConstraint(f"status IN {DELIVERY_STATUSES!r}", name="status"),
        # the workers' queue: only deliveries still to send are in it, by endpoint, the
        # most overdue first (the claim's skip scan: app/webhooks/delivery.py; no index by
        # due time alone, which the planner would walk through an owner's whole backlog)
        Index("ix_webhook_deliveries_pending", "endpoint_id", "next_attempt_at",
              postgresql_where=text("status = 'pending'")),
        # the prune's: finished deliveries by age, the oldest first (app/play/retention.py;
        # partial, so that the updates of a delivery still pending never write to it)
        Index("ix_webhook_deliveries_finished", "created_at",
              postgresql_where=text(f"status IN {FINISHED_DELIVERY_STATUSES!r}")),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True,
                                    default=lambda: _new_id("msg_"))
    endpoint_id: Mapped[str] = mapped_column(
        ForeignKey("webhook_endpoints.id", ondelete="CASCADE"), nullable=False, index=True)
    event: Mapped[str] = mapped_column(String(16), nullable=False)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, default="pending",
                                        server_default=text("'pending'"))
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0,
                                          server_default=text("0"))
    next_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the next attempt is due (null once delivered or failed)."""
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """A worker's lease while it sends; another may take the delivery after it."""
    last_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    response_status: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False,
                                                 server_default=func.now())
