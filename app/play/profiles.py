"""A player's profile: public fields, live match counts (`stats`), the tallies and the
ratings of their settled matches (app/play/settle.py)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.db.extensions import db
from app.db.models import Match, Player, Seat
from app.db.rating_models import PlayerTally, Rating
from app.play.ratings import ratings_json
from app.play.rendering import player_public

TALLIES = ("matches_played", "won", "lost", "forfeited", "hands_won")


def profile(player: Player) -> dict[str, Any]:
    """`player` as profiles show them (never the token)."""
    found = {r.format: (r.mu, r.sigma, r.rated_matches) for r in db.session.execute(
        select(Rating).where(Rating.player_id == player.id)).scalars()}
    tally = db.session.get(PlayerTally, player.id)
    return {**player_public(player), "stats": _stats(player.id), "ratings": ratings_json(found),
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
