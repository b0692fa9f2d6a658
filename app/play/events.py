"""A match's event log as one viewer may see it, a page at a time."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.db.extensions import db
from app.db.models import Event, Match, Player
from app.infra.problems import ApiError
from app.play.rendering import event_json, seat_of
from app.play.store import get_match


def event_page(match_id: str, viewer: Player | None, after: int, limit: int) -> dict[str, Any]:
    """Up to `limit` events after seq `after`, oldest first, redacted for `viewer` (a
    finished match's whole log is open to its players), and the seq to ask after next; 404
    `match_not_found` for no such match, 422 for an `after` past the log's end."""
    match = get_match(match_id)
    refuse_past_end(match, after, "after")
    rows = db.session.execute(
        select(Event).where(Event.match_id == match_id, Event.seq > after)
        .order_by(Event.seq).limit(limit)).scalars().all()
    seat = seat_of(match, viewer)
    finished = match.status == "finished"
    return {"items": [event_json(e, seat, finished) for e in rows],
            "next_after": rows[-1].seq if rows else after}


def refuse_past_end(match: Match, after: int | None, field: str) -> None:
    """422 when a reader (a page of the log, a stream's `Last-Event-ID`: `field`) would resume
    after an event `seq` the match has not reached: it would wait for events that can only
    come with other numbers, and get none of them."""
    if after is not None and after > match.event_count:
        raise ApiError(422, "validation_error",
                       f"no event {after} in this match: its last event is {match.event_count}",
                       errors={field: [f"must be at most {match.event_count}"]})
