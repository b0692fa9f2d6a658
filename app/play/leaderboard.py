"""The leaderboard: players with at least one rated match in a format, best rating first."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.db.extensions import db
from app.db.models import Player
from app.db.rating_models import Rating
from app.play.ratings import rating_json


def page(fmt: str, bots: bool, offset: int, limit: int) -> dict[str, Any]:
    """One page from `offset` (rank = offset + position); `bots=False` leaves out every bot
    (the built-in levels and bot accounts). Ties go to more rated matches, then the id."""
    query = (select(Rating, Player).join(Player, Player.id == Rating.player_id)
             .where(Rating.format == fmt, Rating.rated_matches > 0,
                    Player.closed_at.is_(None))  # (a closed account is on no list)
             .order_by(Rating.mu.desc(), Rating.rated_matches.desc(), Player.id)
             .offset(offset).limit(limit + 1))
    if not bots:
        query = query.where(Player.bot.is_(False))
    rows = db.session.execute(query).all()
    items = []
    for n, (r, p) in enumerate(rows[:limit]):
        shown = rating_json(r.mu, r.sigma, r.rated_matches)
        items.append({"rank": offset + n + 1,
                      "player": {"id": p.id, "name": p.name, "handle": p.handle, "bot": p.bot},
                      "rating": shown["rating"], "provisional": shown["provisional"],
                      "rated_matches": r.rated_matches})
    return {"items": items, "next_offset": offset + limit if len(rows) > limit else None}
