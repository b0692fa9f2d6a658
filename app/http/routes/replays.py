"""Replays: a finished match's table after any event of its log (app/play/replay.py)."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from app.http.responses import json_response
from app.http.auth import accepts_player, optional_player
from app.infra.problems import PROBLEM_MIMETYPE
from app.http.errors import ProblemSchema
from app.infra.encoding import PRIVATE_CACHE_CONTROL
from app.play.replay import replay_answer
from app.http.schemas import ReplayQuerySchema, ReplaySchema

blp = Blueprint("replays", __name__, url_prefix="/v1", description="Replays of finished matches")


@blp.route("/matches/<match_id>/replay")
@accepts_player
@blp.arguments(ReplayQuerySchema(), location="query")
@blp.response(200, ReplaySchema)
@blp.alt_response(409, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="the match is not finished (code match_not_finished)")
@blp.doc(operationId="getReplay")
def replay(args: dict[str, Any], match_id: str) -> Response:
    """A finished match as it stood after event `step` of its log: its players see every
    card, anyone else what a spectator saw then. 409 match_not_finished before the end;
    404 step_not_found past the last event."""
    player = optional_player()
    body = replay_answer(match_id, None if player is None else player.id, args["step"])
    return json_response(body, headers={"Cache-Control": PRIVATE_CACHE_CONTROL})
