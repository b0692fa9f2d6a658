"""Reviews of finished matches: the computer's judgement of every decision of a match, asked
for by one of its players and worked out by the background worker a few decisions at a time
(app/play/reviews.py)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, func, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.db.extensions import db


class MatchReview(db.Model):
    """One finished match's review: pending while `completed_at` is null."""

    __tablename__ = "match_reviews"
    __table_args__ = (
        # the worker's queue: the pending reviews, the one it worked on least recently first
        Index("ix_match_reviews_pending", "stepped_at",
              postgresql_where=text("completed_at IS NULL")),
        Index("ix_match_reviews_requested_by", "requested_by"),  # (the per-player cap, deletes)
    )

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    requested_by: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="SET NULL"))
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False,
                                                   server_default=func.now())
    stepped_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the worker last worked on it (the queue's order: the least recent first)."""
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    next_action: Mapped[int] = mapped_column(Integer, nullable=False, server_default="1")
    """The number of the next recorded action to review (actions are numbered from 1)."""
    decisions: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, nullable=False,
                                                           server_default="[]")
    """The reviewed decisions so far, in order."""
