"""Players a player has blocked: their invitations are refused (app/play/blocks.py)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String, func
from sqlalchemy.orm import Mapped, mapped_column

from app.db.extensions import db


class PlayerBlock(db.Model):
    """`player_id` does not want invitations from `blocked_id`."""

    __tablename__ = "player_blocks"

    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id",
                                                                  ondelete="CASCADE"),
                                           primary_key=True)
    blocked_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id",
                                                                   ondelete="CASCADE"),
                                            primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False,
                                                 server_default=func.now())
