"""Declining invitations in bulk: all of a player's pending ones at once (their choice), and
those that expired (the worker, for the invitee). Each is declined as `leave` declines one
(app/play/seats.py: leave_match), one transaction per match."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, select

from app.infra.problems import ApiError
from app.db.extensions import db
from app.play.invitation_rules import ttl
from app.play.seats import leave_match
from app.db.models import Match, Player, Seat

BATCH = 100


def _decline(pending: list[tuple[str, str]]) -> int:
    """Decline each (match id, invitee id); the number declined (one raced away is skipped)."""
    declined = 0
    for match_id, player_id in pending:
        player = db.session.get(Player, player_id)
        try:
            if player is not None:
                leave_match(player, match_id, invitation_only=True)
                declined += 1
        except ApiError:
            db.session.rollback()  # accepted or withdrawn meanwhile: the seat stays as it is
    return declined


def _pending(*conditions: ColumnElement[bool]) -> list[tuple[str, str]]:
    rows = db.session.execute(
        select(Seat.match_id, Seat.player_id).join(Match, Match.id == Seat.match_id)
        .where(Seat.invited, Match.status == "waiting", *conditions)
        .order_by(Seat.joined_at).limit(BATCH)).all()
    db.session.rollback()
    return [(m, p) for m, p in rows if p is not None]  # (an invited seat names its player)


def decline_all(player: Player, inviter: str | None = None) -> int:
    """Decline every pending invitation of `player` (only those from `inviter`, when
    named); how many were declined."""
    declined = 0
    mine = [Seat.player_id == player.id] + (
        [] if inviter is None else [Match.created_by == inviter])
    while batch := _pending(*mine):
        done = _decline(batch)
        declined += done
        if done == 0:
            break
    return declined


def expire_due(now: datetime) -> int:
    """Decline the invitations sent INVITATION_TTL or longer before `now` (a batch at most);
    how many. Needs an app context."""
    return _decline(_pending(Seat.joined_at <= now - ttl()))
