"""Rating tables: each player's skill per format, their counts of finished matches, and what
each rated match did to its players' ratings. All change only when a finished match is
settled (app/play/settle.py), once per match."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import (CheckConstraint, DateTime, Float, ForeignKey, Index, Integer, SmallInteger,
                        String, func)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.extensions import db

FORMATS = ("duel", "teams")


class Rating(db.Model):
    """A player's Weng-Lin rating in one format (docs/ratings.md), on the display scale."""

    __tablename__ = "ratings"
    __table_args__ = (
        CheckConstraint(f"format IN {FORMATS!r}", name="format"),
        Index("ix_ratings_board", "format", "mu"),  # the leaderboard, best first
    )

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           primary_key=True)
    format: Mapped[str] = mapped_column(String(8), primary_key=True)
    mu: Mapped[float] = mapped_column(Float, nullable=False)
    sigma: Mapped[float] = mapped_column(Float, nullable=False)
    rated_matches: Mapped[int] = mapped_column(Integer, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False,
                                                 server_default=func.now())


class PlayerTally(db.Model):
    """A player's counts over their settled matches (every finished one, rated or not)."""

    __tablename__ = "player_tallies"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           primary_key=True)
    matches_played: Mapped[int] = mapped_column(Integer, nullable=False)
    won: Mapped[int] = mapped_column(Integer, nullable=False)
    lost: Mapped[int] = mapped_column(Integer, nullable=False)
    forfeited: Mapped[int] = mapped_column(Integer, nullable=False)
    """Lost by time: the team forfeited because one of its seats let a deadline pass."""
    hands_won: Mapped[int] = mapped_column(Integer, nullable=False)


class RatingChange(db.Model):
    """One player's rating in a rated match's format before and after that match (their
    `rated_matches` counts it)."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        CheckConstraint(f"format IN {FORMATS!r}", name="format"),
        Index("ix_rating_changes_player_id", "player_id"),  # (a player's history, and deletes)
    )

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           primary_key=True)
    format: Mapped[str] = mapped_column(String(8), nullable=False)
    team: Mapped[int] = mapped_column(SmallInteger, nullable=False)
    mu_before: Mapped[float] = mapped_column(Float, nullable=False)
    sigma_before: Mapped[float] = mapped_column(Float, nullable=False)
    mu_after: Mapped[float] = mapped_column(Float, nullable=False)
    sigma_after: Mapped[float] = mapped_column(Float, nullable=False)
    rated_matches: Mapped[int] = mapped_column(Integer, nullable=False)
