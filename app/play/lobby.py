"""The lobby: public matches waiting for players (a seat free that is not reserved for an
invited player), newest first, a page at a time; or, asked for `active`, the public matches
being played, the one that moved last first, for anyone to watch."""
from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from app.db.extensions import db
from app.db.models import Match, Player, Seat
from app.play.rendering import match_summary


def lobby(viewer: Player | None, offset: int, limit: int, ruleset: str | None = None,
          players: int | None = None, status: str = "waiting") -> dict[str, Any]:
    """One page from `offset`, each match as `viewer` sees it in a list, of `ruleset` and
    of `players` seats when they are given, waiting (with a seat free) or `active`;
    `next_offset` is None on the last page."""
    if status == "active":
        query = select(Match).where(Match.status == "active", Match.visibility == "public")
        order = (Match.updated_at.desc(), Match.id)
    else:
        seated = select(func.count()).where(Seat.match_id == Match.id).scalar_subquery()
        query = select(Match).where(Match.status == "waiting", Match.visibility == "public",
                                    seated < Match.players)  # (reserved seats are not free)
        order = (Match.created_at.desc(), Match.id)
    if ruleset is not None:
        query = query.where(Match.ruleset == ruleset)
    if players is not None:
        query = query.where(Match.players == players)
    rows = db.session.execute(query.options(selectinload(Match.seats).selectinload(Seat.player))
                              .order_by(*order)
                              .offset(offset).limit(limit + 1)).scalars().all()
    return {"items": [match_summary(m, viewer) for m in rows[:limit]],
            "next_offset": offset + limit if len(rows) > limit else None}
