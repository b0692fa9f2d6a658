"""Actions: the route translates HTTP (headers, `wait`) to app.play.act and back."""
from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_smorest import Blueprint

from app.play.act import after_wait, send_action, turn_or_end, waiting_seat
from app.http.long_poll import wait_until
from app.http.responses import answer_response
from app.http.auth import caller_id, requires_player
from app.http.precedence import malformed_counts, match_first
from app.infra.problems import PROBLEM_MIMETYPE
from app.http.errors import ProblemSchema
from app.http.schemas.docs import ACTION_BODY, IDEMPOTENCY_KEY, IF_MATCH, headers
from app.http.schemas.inputs import ActionSchema, WaitQuerySchema
from app.http.schemas.problems import (IllegalActionProblemSchema, RateLimitedProblemSchema,
                                       ValidationProblemSchema, VersionMismatchProblemSchema,
                                       any_problem)
from app.http.schemas.views import MatchViewSchema

blp = Blueprint("actions", __name__, url_prefix="/v1", description="Playing a match")


@blp.route("/matches/<match_id>/actions", methods=["POST"],
           parameters=[IF_MATCH, IDEMPOTENCY_KEY])
@requires_player
@match_first("act")
@malformed_counts("action", caller_id)
@blp.arguments(WaitQuerySchema(), location="query")
@blp.arguments(ActionSchema())
@blp.response(200, MatchViewSchema, headers=headers("ETag", "Idempotent-Replayed"))
@blp.alt_response(412, schema=VersionMismatchProblemSchema, content_type=PROBLEM_MIMETYPE,
                  headers=headers("ETag"),
                  description="If-Match no longer matches (code version_mismatch)")
@blp.alt_response(429, schema=RateLimitedProblemSchema, content_type=PROBLEM_MIMETYPE,
                  headers=headers("Retry-After"),
                  description="too many actions by this player (code rate_limited)")
@blp.alt_response(422, schema=any_problem(IllegalActionProblemSchema, ValidationProblemSchema,
                                          ProblemSchema),
                  content_type=PROBLEM_MIMETYPE,
                  description="illegal_action (with reason and legal_actions), validation_error "
                              "or idempotency_key_reused")
@blp.alt_response(503, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  headers=headers("Retry-After"),
                  description="service_unavailable: the database failed before the action was "
                              "written, nothing changed; outcome_unknown: the commit could not "
                              "be confirmed, retry with the same Idempotency-Key")
@blp.doc(**ACTION_BODY)
@blp.doc(operationId="sendAction")
def post_action(args: dict[str, Any], body: dict[str, Any], match_id: str) -> Response:
    """Play, raise, accept or refuse. Answers with your view after the action; built-in bots
    then move in the background. With `wait=N` the answer is held until you must act
    again, the match is over, or N seconds pass, and shows the match at that moment."""
    player_id = caller_id()
    answer = send_action(player_id, match_id, body, if_match=request.headers.get("If-Match"),
                         key_header=request.headers.get("Idempotency-Key"))
    seat = waiting_seat(answer, args["wait"])
    if seat is not None:
        found = wait_until([match_id], turn_or_end(match_id, seat), args["wait"],
                           watch=[match_id])
        answer = after_wait(match_id, player_id, found)
    return answer_response(answer)
