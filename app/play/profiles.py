"""A player's profile: public fields, live match counts (`stats`), the tallies and the
ratings of their settled matches (app/play/settle.py).

A built-in level sits in its seats by `bot_level`, not by player id, and may sit in most of
the service's matches: its `stats` count its live matches (by the status index) and take
the finished ones from its tallies, so a profile never counts every match a level played."""
from __future__ import annotations

from typing import Any

from sqlalchemy import distinct, func, select

from app.db.extensions import db
from app.db.models import Match, Player, Seat
from app.db.rating_models import PlayerTally, Rating
from app.play.level_players import level_of
from app.play.ratings import ratings_json
from app.play.rendering import player_public

TALLIES = ("matches_played", "won", "lost", "forfeited", "hands_won")


def profile(player: Player) -> dict[str, Any]:
    """`player` as profiles show them (never the token)."""
    found = {r.format: (r.mu, r.sigma, r.rated_matches) for r in db.session.execute(
        select(Rating).where(Rating.player_id == player.id)).scalars()}
    tally = db.session.get(PlayerTally, player.id)
    level = level_of(player.id)
    stats = _stats(player.id) if level is None else _level_stats(level, tally)
    return {**player_public(player), "stats": stats, "ratings": ratings_json(found),
            **{name: getattr(tally, name) if tally else 0 for name in TALLIES}}


def _stats(player_id: str) -> dict[str, int]:
    """The player's seats now: held, active, finished, and the finished ones won and lost."""
    rows = db.session.execute(
        select(Match.status, Match.winner_team, Seat.seat)
        .join(Seat, Seat.match_id == Match.id)
        .where(Seat.player_id == player_id, Seat.invited.is_(False))
    ).all()
    finished = [r for r in rows if r.status == "finished"]
    won = sum(1 for r in finished if r.winner_team == r.seat % 2)
    return {"matches": len(rows), "active": sum(1 for r in rows if r.status == "active"),
            "finished": len(finished), "won": won, "lost": len(finished) - won}


LIVE = ("waiting", "active")
"""The statuses a level's `stats` count live (its finished matches come from its tallies)."""


def _level_stats(level: str, tally: PlayerTally | None) -> dict[str, int]:
    """A level's matches now: those waiting or active with a seat of the level, and the
    finished ones as its tallies count them (settled; a level seated on both teams of a
    match neither won nor lost it)."""
    live = {status: count for status, count in db.session.execute(
        select(Match.status, func.count(distinct(Match.id)))
        .join(Seat, Seat.match_id == Match.id)
        .where(Match.status.in_(LIVE), Seat.bot_level == level)
        .group_by(Match.status))}
    finished = tally.matches_played if tally else 0
    return {"matches": sum(live.values()) + finished, "active": live.get("active", 0),
            "finished": finished, "won": tally.won if tally else 0,
            "lost": tally.lost if tally else 0}
