"""The event log, redacted per viewer, with `after` paging and long polls."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from app.http.auth import accepts_player, optional_player
from app.http.precedence import match_first
from app.http.long_poll import wait_until
from app.http.responses import json_response, not_modified
from app.http.schemas.docs import not_modified_doc
from app.http.schemas.events import EventPageSchema
from app.http.schemas.inputs import EventsQuerySchema
from app.infra.encoding import PRIVATE_CACHE_CONTROL
from app.play.events import event_page

blp = Blueprint("events", __name__, url_prefix="/v1", description="Match event logs")


@blp.route("/matches/<match_id>/events")
@accepts_player
@match_first("read")
@blp.arguments(EventsQuerySchema(), location="query")
@blp.response(200, EventPageSchema)
@blp.alt_response(304, **not_modified_doc("`wait` s passed with no event after `after`",
                                          tagged=False))
@blp.doc(operationId="listEvents")
def events(args: dict[str, Any], match_id: str) -> Response:
    """Events after `after`, oldest first, as the caller may see them; with `wait`, held until
    there is one, or answered 304 when the wait runs out (as the match's own long poll
    does). A finished match's whole log is open to its players."""
    viewer = optional_player()

    def some() -> dict[str, Any] | None:
        page = event_page(match_id, viewer, args["after"], args["limit"])
        return page if page["items"] or not args["wait"] else None

    page = some() or wait_until([match_id], some, args["wait"], watch=[match_id])
    if page is None:
        return not_modified(None, {"Cache-Control": PRIVATE_CACHE_CONTROL})
    return json_response(page, headers={"Cache-Control": PRIVATE_CACHE_CONTROL})
