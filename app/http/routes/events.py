"""The event log, redacted per viewer, with `after` paging and long polls."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint
from sqlalchemy import select

from app.play.store import get_match
from app.http.long_poll import wait_until
from app.http.responses import json_response
from app.http.auth import optional_player
from app.db.extensions import db
from app.db.models import Event
from app.infra.encoding import PRIVATE_CACHE_CONTROL
from app.play.rendering import event_json, seat_of
from app.http.schemas import AUTH_OPTIONAL, EventPageSchema, EventsQuerySchema

blp = Blueprint("events", __name__, url_prefix="/v1", description="Match event logs")


@blp.route("/matches/<match_id>/events")
@blp.arguments(EventsQuerySchema(), location="query")
@blp.response(200, EventPageSchema)
@blp.doc(**AUTH_OPTIONAL)
@blp.doc(operationId="listEvents")
def events(args: dict[str, Any], match_id: str) -> Response:
    """Events after `after`, oldest first, as the caller may see them; with `wait`, held until
    there is one. A finished match's whole log is open to its players."""
    player = optional_player()

    def check() -> dict[str, Any] | None:
        match = get_match(match_id)
        seat = seat_of(match, player)
        rows = db.session.execute(
            select(Event).where(Event.match_id == match_id, Event.seq > args["after"])
            .order_by(Event.seq).limit(args["limit"])).scalars().all()
        if not rows and args["wait"]:
            return None
        finished = match.status == "finished"
        items = [event_json(e, seat, finished) for e in rows]
        return {"items": items, "next_after": rows[-1].seq if rows else args["after"]}

    page = check()
    if page is None:
        page = wait_until([match_id], check, args["wait"], watch=[match_id]) or {
            "items": [], "next_after": args["after"]}
    return json_response(page, headers={"Cache-Control": PRIVATE_CACHE_CONTROL})
