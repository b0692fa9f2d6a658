"""Actions: the blueprint translates HTTP (headers, `wait`) to app.play.moves.act and back."""
from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_smorest import Blueprint

from app.play import moves as play
from app.db import ratelimit
from app.http.long_poll import wait_until
from app.http.responses import answer_response, json_response
from app.http.auth import caller_id
from app.infra.problems import PROBLEM_MIMETYPE, ApiError
from app.http.errors import ProblemSchema
from app.play.store import get_match
from app.db.models import Match
from app.play.rendering import match_view, seat_number, view_headers
from app.http.schemas import (ACTION_BODY, AUTH_REQUIRED, IDEMPOTENCY_KEY, IF_MATCH, ActionSchema,
                         IllegalActionProblemSchema, MatchViewSchema, RateLimitedProblemSchema,
                         ValidationProblemSchema, VersionMismatchProblemSchema, WaitQuerySchema,
                         any_problem, headers)

blp = Blueprint("actions", __name__, url_prefix="/v1", description="Playing a match")


@blp.before_request
def _authenticate() -> None:
    """401 before the body is parsed: no token on an endpoint that needs one is 401 (API.md)."""
    caller_id()


def idempotency_key(key: str | None) -> str | None:
    """The Idempotency-Key header's value as text (its bytes read as UTF-8 when they are),
    checked in characters (422 when it is unusable)."""
    if key is not None:
        try:
            key = key.encode("latin-1").decode("utf-8")  # (WSGI hands headers as latin-1)
        except UnicodeError:
            pass
    if key is not None and (not 1 <= len(key) <= 255 or "\x00" in key):
        rule = "must be 1 to 255 characters, without NUL"
        raise ApiError(422, "validation_error", f"Idempotency-Key {rule}",
                       errors={"Idempotency-Key": [rule]})
    return key


def _wait_for_turn(match_id: str, seat: int, seconds: int) -> Match | None:
    """Hold (without a database connection) until `seat` must act again or the match is
    over; the match then, or None when `seconds` pass first."""

    def check() -> Match | None:
        match = get_match(match_id)
        return match if match.status != "active" or seat in match.to_act else None

    return wait_until([match_id], check, seconds, watch=[match_id])


@blp.route("/matches/<match_id>/actions", methods=["POST"],
           parameters=[IF_MATCH, IDEMPOTENCY_KEY])
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
@blp.doc(**AUTH_REQUIRED, **ACTION_BODY)
@blp.doc(operationId="sendAction")
def post_action(args: dict[str, Any], body: dict[str, Any], match_id: str) -> Response:
    """Play, raise, accept or refuse. Answers with your view after the action; built-in bots
    then move in the background. With `wait=N` the answer is held until you must act
    again, the match is over, or N seconds pass, and shows the match at that moment."""
    player_id = caller_id()
    ratelimit.check("action", player_id)
    answer = play.act(player_id, match_id, body, if_match=request.headers.get("If-Match"),
                      idempotency_key=idempotency_key(
                          request.headers.get("Idempotency-Key")))
    you = answer.body["you"]["seat"]
    if args["wait"] and answer.status == 200 and "Idempotent-Replayed" not in answer.headers \
            and answer.body["status"] == "active" and you not in answer.body["hand"]["to_act"]:
        match = _wait_for_turn(match_id, you, args["wait"]) or get_match(match_id)
        seat = seat_number(match, player_id)
        return json_response(match_view(match, seat), 200, view_headers(match, seat))
    return answer_response(answer)
