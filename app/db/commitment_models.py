"""The commitments table: a secret drawn for a match its player is about to create."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String, func
from sqlalchemy.orm import Mapped, mapped_column

from app.db.extensions import db


class Commitment(db.Model):
    """A secret the server committed to before the match exists (`POST /v1/commitments`):
    usable once, by its player, until `expires_at`; `used_at` is set by the creation that
    took it (docs/fairness.md)."""

    __tablename__ = "commitments"

    commitment: Mapped[str] = mapped_column(String(64), primary_key=True)
    """Hex SHA-256 of the secret."""
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           nullable=False, index=True)
    secret: Mapped[str] = mapped_column(String(64), nullable=False)
    """Hex of the 32 secret bytes: shown to nobody before its match is finished."""
    match_id: Mapped[str] = mapped_column(String(32), nullable=False)
    """The id the match made with it will have (part of the key: fixed before the seeds)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False,
                                                 server_default=func.now())
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
