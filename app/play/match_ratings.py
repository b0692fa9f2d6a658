"""What a finished match did to its players' ratings (GET /v1/matches/{id}/ratings): each rated
player's rating before and after it, from `rating_changes`, which the settlement that rates
the match writes in its own transaction (app/play/settle.py)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.db.extensions import db
from app.db.models import Player
from app.db.rating_models import RatingChange
from app.infra.problems import ApiError
from app.play import ratings
from app.play.store import get_match


def match_ratings(match_id: str) -> dict[str, Any]:
    """`{"state", "format", "changes"}`: `counting` until the worker has settled the finished
    match (a second or so), then `rated` with one change per rated player (by team, then
    the larger gain first), or `unrated` (fixed deals or a start score: docs/ratings.md).
    404 match_not_found; 409 match_not_finished before it ends."""
    match = get_match(match_id)
    if match.status != "finished":
        raise ApiError(409, "match_not_finished", "ratings move when a match is finished; "
                       f"this one is {match.status}")
    fmt = ratings.format_of(match.players)
    if match.settled_at is None:
        return {"state": "counting", "format": fmt, "changes": []}
    rows = db.session.execute(
        select(RatingChange, Player).join(Player, Player.id == RatingChange.player_id)
        .where(RatingChange.match_id == match.id)).all()
    changes = sorted((_change(c, p) for c, p in rows),
                     key=lambda c: (c["team"], -c["change"], c["player"]["id"]))
    return {"state": "rated" if changes else "unrated", "format": fmt, "changes": changes}


def _change(change: RatingChange, player: Player) -> dict[str, Any]:
    before = ratings.rating_json(change.mu_before, change.sigma_before,
                                 change.rated_matches - 1)
    after = ratings.rating_json(change.mu_after, change.sigma_after, change.rated_matches)
    return {"player": {"id": player.id, "name": player.name, "handle": player.handle,
                       "bot": player.bot},
            "team": change.team, "before": before, "after": after,
            "change": round(after["rating"] - before["rating"], 1)}
