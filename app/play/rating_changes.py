"""What rated matches did to their players' ratings, from `rating_changes`, which the
settlement that rates a match writes in its own transaction (app/play/settle.py): a finished
match's changes (GET /v1/matches/{id}/ratings) and a player's history in a format
(GET /v1/players/{id}/rating-history)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.db.extensions import db
from app.db.models import Match, Player
from app.db.rating_models import RatingChange
from app.infra.encoding import iso
from app.infra.problems import ApiError
from app.play import ratings
from app.play.store import get_match, get_player


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
    changes = sorted(({"player": {"id": p.id, "name": p.name, "handle": p.handle,
                                  "bot": p.bot}, "team": c.team, **_moved(c)}
                      for c, p in rows),
                     key=lambda c: (c["team"], -c["change"], c["player"]["id"]))
    return {"state": "rated" if changes else "unrated", "format": fmt, "changes": changes}


def player_history(player_id: str, fmt: str, offset: int, limit: int) -> dict[str, Any]:
    """A page of `player_id`'s rated matches in `fmt`, the latest first: `{"format",
    "items": [{"match_id", "rated_at", "team", "won", "before", "after", "change"}],
    "next_offset"}`; 404 player_not_found."""
    player = get_player(player_id)
    rows = db.session.execute(
        select(RatingChange, Match.settled_at, Match.winner_team)
        .join(Match, Match.id == RatingChange.match_id)
        .where(RatingChange.player_id == player.id, RatingChange.format == fmt)
        .order_by(Match.settled_at.desc(), Match.id).offset(offset).limit(limit + 1)).all()
    items = [{"match_id": c.match_id, "rated_at": iso(settled), "team": c.team,
              "won": winner == c.team, **_moved(c)} for c, settled, winner in rows[:limit]]
    return {"format": fmt, "items": items,
            "next_offset": offset + limit if len(rows) > limit else None}


def _moved(change: RatingChange) -> dict[str, Any]:
    """`before`, `after` (ratings as profiles show them) and `change` of one row."""
    before = ratings.rating_json(change.mu_before, change.sigma_before,
                                 change.rated_matches - 1)
    after = ratings.rating_json(change.mu_after, change.sigma_after, change.rated_matches)
    return {"before": before, "after": after,
            "change": round(after["rating"] - before["rating"], 1)}
