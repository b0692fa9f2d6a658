"""Replays: a finished match's table after any event of its log (app/play/replay.py)."""
from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_smorest import Blueprint

from app.http.responses import body_response, not_modified
from app.http.auth import accepts_player, optional_player
from app.http.precedence import match_first
from app.infra.problems import PROBLEM_MIMETYPE
from app.http.errors import ProblemSchema
from app.infra.encoding import content_etag, etag_matches, json_bytes, tagged
from app.play.replay import replay_answer
from app.http.schemas.docs import IF_NONE_MATCH_NOW, headers, not_modified_doc
from app.http.schemas.inputs import ReplayQuerySchema
from app.http.schemas.views import ReplaySchema

blp = Blueprint("replays", __name__, url_prefix="/v1", description="Replays of finished matches")


@blp.route("/matches/<match_id>/replay", parameters=[IF_NONE_MATCH_NOW])
@accepts_player
@match_first("replay")
@blp.arguments(ReplayQuerySchema(), location="query")
@blp.response(200, ReplaySchema, headers=headers("ETag"))
@blp.alt_response(304, **not_modified_doc("this step, as the caller sees it, has the ETag "
                                          "If-None-Match names"))
@blp.alt_response(409, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="the match is not finished (code match_not_finished)")
@blp.doc(operationId="getReplay")
def replay(args: dict[str, Any], match_id: str) -> Response:
    """A finished match as it stood after event `step` of its log: its players see every
    card, anyone else what a spectator saw then. 409 match_not_finished before the end;
    404 step_not_found past the last event. Its strong ETag names the body sent (a player's
    differs from a spectator's); `If-None-Match` with it gives 304."""
    player = optional_player()
    body = replay_answer(match_id, None if player is None else player.id, args["step"])
    data = json_bytes(body)
    tag = content_etag(data)
    if etag_matches(request.headers.get("If-None-Match"), tag):
        return not_modified(tag)
    return body_response(data, 200, tagged(tag))
