"""Database tables (PostgreSQL). Every table that grows with play is keyed by match."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, MappedColumn, mapped_column, relationship

from app.db.extensions import db

MATCH_STATUSES = ("waiting", "active", "finished", "cancelled")
VISIBILITIES = ("public", "private")
END_REASONS = ("score", "resigned", "timed_out", "cancelled")


def new_id(prefix: str) -> str:
    """A fresh public id such as ``p_1f0c...`` (prefix + 24 hex digits)."""
    return prefix + secrets.token_hex(12)


def id_can_exist(value: str) -> bool:
    """False for a path id that no row can have: longer than the id columns, or with a NUL
    (which PostgreSQL cannot store, so psycopg2 refuses to send it)."""
    return len(value) <= 32 and "\x00" not in value


def _now() -> MappedColumn[datetime]:
    """A ``timestamptz`` column defaulting to the database's ``now()``."""
    return mapped_column(DateTime(timezone=True), nullable=False, server_default=func.now())


class Player(db.Model):
    """A registered player (person or bot author's program); only a hash of the token is kept."""

    __tablename__ = "players"
    # handles are unique regardless of case: the index decides every race
    __table_args__ = (Index("uq_players_handle", func.lower(text("handle")), unique=True),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=lambda: new_id("p_"))
    name: Mapped[str] = mapped_column(String(32), nullable=False)
    bot: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False,
                                      server_default=text("false"))
    token_hash: Mapped[str] = mapped_column(String(64), nullable=False, unique=True, index=True)
    created_at: Mapped[datetime] = _now()
    handle: Mapped[str | None] = mapped_column(String(20))
    """The name others find the player by (app/play/handles.py); null until chosen."""
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the player deleted their account (app/play/accounts.py); null while it is open."""


class Match(db.Model):
    """A match: its creation options (``config``) and the engine state (``state``, JSON)."""

    __tablename__ = "matches"
    __table_args__ = (
        CheckConstraint(f"status IN {MATCH_STATUSES!r}", name="status"),
        CheckConstraint(f"visibility IN {VISIBILITIES!r}", name="visibility"),
        CheckConstraint(f"end_reason IN {END_REASONS!r}", name="end_reason"),
        # the workers' queue: only matches with work are in it
        Index("ix_matches_due_at", "due_at", postgresql_where=text("due_at IS NOT NULL")),
        # the settling queue (app/play/settle.py): finished matches not yet counted
        Index("ix_matches_unsettled", "id",
              postgresql_where=text("status = 'finished' AND settled_at IS NULL")),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=lambda: new_id("m_"))
    ruleset: Mapped[str] = mapped_column(String(16), nullable=False)
    players: Mapped[int] = mapped_column(SmallInteger, nullable=False)
    target_score: Mapped[int] = mapped_column(SmallInteger, nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, index=True, default="waiting")
    visibility: Mapped[str] = mapped_column(String(8), nullable=False, default="public")
    invite_code: Mapped[str | None] = mapped_column(String(32))
    created_by: Mapped[str] = mapped_column(ForeignKey("players.id"), nullable=False, index=True)
    seed: Mapped[int] = mapped_column(BigInteger, nullable=False)
    fixed_deals: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False,
                                              server_default=text("false"))
    # What rebuilds the engine's start: options, deals, start_score, games_to_win...
    config: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSONB)  # null while waiting
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1,
                                         server_default=text("1"))
    event_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0,
                                             server_default=text("0"))
    """Events logged so far: the next event's seq is this plus one (no max() per append)."""
    action_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0,
                                              server_default=text("0"))
    """Actions recorded so far: the next action's n is this plus one."""
    winner_team: Mapped[int | None] = mapped_column(SmallInteger)
    turn_timeout: Mapped[int | None] = mapped_column(Integer)  # seconds; null: no limit
    on_timeout: Mapped[str] = mapped_column(String(16), nullable=False, default="auto_play")
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    """When the players in `to_act` must have acted (with a `turn_timeout`); null otherwise."""
    to_act: Mapped[list[int]] = mapped_column(ARRAY(SmallInteger), nullable=False, default=list,
                                              server_default=text("'{}'"))
    """The seats that may act now (empty unless active): the engine's answer, kept here so
    that lists and the worker need not read the state."""
    score: Mapped[list[int]] = mapped_column(ARRAY(SmallInteger), nullable=False,
                                             default=lambda: [0, 0],
                                             server_default=text("'{0,0}'"))
    """The teams' points (the start score while waiting): the engine's answer, kept here so
    that lists need not read the state."""
    warn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When to warn the players to act that their deadline is near (webhook
    `deadline_soon`); null once warned, or without a deadline."""
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When background work is due (a bot's move: now; a turn deadline: then); null when there
    is none. The workers' queue."""
    settled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When a finished match was counted into its players' tallies and ratings (once)."""
    created_at: Mapped[datetime] = _now()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now(), onupdate=func.now()
    )
    end_reason: Mapped[str | None] = mapped_column(String(16))
    """How the match ended (`score`, `resigned`, `timed_out`, `cancelled`); null until then."""
    rematch_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="SET NULL"))
    """The match `POST .../rematch` made of this finished one; null until then."""

    seats: Mapped[list[Seat]] = relationship(
        back_populates="match", order_by="Seat.seat", cascade="all, delete-orphan"
    )

    def seat_of(self, player_id: str | None) -> Seat | None:
        """The seat `player_id` holds here, or None (a spectator). An invitation not yet
        accepted is not a seat held: see `invitation_for`."""
        return next((s for s in self.seats
                     if player_id and s.player_id == player_id and not s.invited), None)

    def invitation_for(self, player_id: str | None) -> Seat | None:
        """The seat reserved for `player_id` that they have not accepted yet, or None."""
        return next((s for s in self.seats
                     if player_id and s.player_id == player_id and s.invited), None)


class Seat(db.Model):
    """A seat of a match, taken by a player or by a built-in bot (``bot_level``)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("match_id", "player_id"),)  # one seat per player

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    bot_level: Mapped[str | None] = mapped_column(String(8))
    invited: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False,
                                          server_default=text("false"))
    """Reserved for `player_id` by the creator; false once accepted (joined)."""
    timeouts: Mapped[int] = mapped_column(SmallInteger, nullable=False, default=0,
                                          server_default=text("0"))
    """Turn deadlines this seat has let pass (each one auto-played or forfeited)."""
    timeouts_in_row: Mapped[int] = mapped_column(SmallInteger, nullable=False, default=0,
                                                 server_default=text("0"))
    """Deadlines passed since the seat's player last acted: at 3 the seat is abandoned."""
    client_seed: Mapped[str] = mapped_column(String(64), nullable=False, default="",
                                             server_default=text("''"))
    """The seat's `client_seed` (docs/fairness.md): "" for none and for bots."""
    joined_at: Mapped[datetime] = _now()

    match: Mapped[Match] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship()

    def __init__(self, **columns: Any) -> None:
        """A new seat holds its defaults at once, not only once flushed: a verb renders its
        answer before its commit (app/play/rendering.py: view_answer), flushed or not."""
        for name in ("invited", "timeouts", "timeouts_in_row", "client_seed"):
            columns.setdefault(name, self.__table__.c[name].default.arg)
        super().__init__(**columns)


class Event(db.Model):
    """One entry of a match's event log, unredacted (redaction happens per viewer)."""

    __tablename__ = "events"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    type: Mapped[str] = mapped_column(String(32), nullable=False)
    at: Mapped[datetime] = _now()
    data: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False,
                                                 server_default=text("'{}'::jsonb"))


class ActionRecord(db.Model):
    """An applied action, in order: replaying them from the start rebuilds the state."""

    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger, nullable=False)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))  # null: bot/timeout
    body: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    at: Mapped[datetime] = _now()


class IdempotencyRecord(db.Model):
    """The stored response of a request made with an ``Idempotency-Key``."""

    __tablename__ = "idempotency_records"
    __table_args__ = (
        CheckConstraint("answer IS NOT NULL OR response IS NOT NULL", name="answer_or_response"),
        # the prune's: records by age, the oldest first (app/play/retention.py)
        Index("ix_idempotency_records_created_at", "created_at"),
    )

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    status_code: Mapped[int] = mapped_column(Integer, nullable=False)
    answer: Mapped[str | None] = mapped_column(Text)
    """The response's body as it was sent (migration 0010)."""
    response: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    """The body of a record made before `answer` existed."""
    headers: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False,
                                                    server_default=text("'{}'::jsonb"))
    created_at: Mapped[datetime] = _now()


class MatchWatch(db.Model):
    """Someone waits on a match, or answers its conditional GETs from what they hear, until
    `until`: while it lasts, an action on it is notified (app/live/watches.py)."""

    __tablename__ = "match_watches"

    match_id: Mapped[str] = mapped_column(String(32), ForeignKey("matches.id",
                                                                 ondelete="CASCADE"),
                                          primary_key=True)
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class RateWindow(db.Model):
    """A rate limit's current window for one (kind, key), shared by every app process."""

    __tablename__ = "rate_windows"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    used: Mapped[int] = mapped_column(Integer, nullable=False)


from app.db.webhook_models import WebhookDelivery, WebhookEndpoint  # noqa: E402,F401 (tables)
from app.db.rating_models import PlayerTally, Rating  # noqa: E402,F401 (tables)
from app.db.commitment_models import Commitment  # noqa: E402,F401 (tables)
from app.db.block_models import PlayerBlock  # noqa: E402,F401 (tables)
from app.db.review_models import MatchReview  # noqa: E402,F401 (tables)
