"""A match's event log as one viewer may see it, a page at a time."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.db.extensions import db
from app.db.models import Event, Player
from app.play.rendering import event_json, seat_of
from app.play.store import get_match


def event_page(match_id: str, viewer: Player | None, after: int, limit: int) -> dict[str, Any]:
    """Up to `limit` events after seq `after`, oldest first, redacted for `viewer` (a
    finished match's whole log is open to its players), and the seq to ask after next; 404
    `match_not_found` for no such match."""
    match = get_match(match_id)
    rows = db.session.execute(
        select(Event).where(Event.match_id == match_id, Event.seq > after)
        .order_by(Event.seq).limit(limit)).scalars().all()
    seat = seat_of(match, viewer)
    finished = match.status == "finished"
    return {"items": [event_json(e, seat, finished) for e in rows],
            "next_after": rows[-1].seq if rows else after}
