"""Reviews of finished matches: the computer's judgement of each decision (app/play/reviews.py)."""
from __future__ import annotations

from flask import Response, request
from flask_smorest import Blueprint

from app.http.auth import caller_id, requires_player
from app.http.errors import takes_no_body
from app.http.responses import body_response, json_response, not_modified
from app.http.schemas.docs import IF_NONE_MATCH_NOW, headers, not_modified_doc, problems
from app.http.schemas.reviews import ReviewSchema
from app.infra.encoding import content_etag, etag_matches, json_bytes, tagged
from app.play.reviews import MAX_PENDING, request_review, review_answer

blp = Blueprint("reviews", __name__, url_prefix="/v1",
                description="Reviews of finished matches by the computer")

_REFUSED = {
    403: "the caller has no seat in the match (code not_a_player)",
    404: "no such match (code match_not_found)",
    409: "the match is not finished (code match_not_finished)"}


@blp.route("/matches/<match_id>/review", methods=["POST"])
@requires_player
@blp.response(202, ReviewSchema)
@blp.alt_response(200, schema=ReviewSchema,
                  description="the review was asked for already (by any player): as it stands")
@blp.doc(operationId="requestReview", **problems({
    **_REFUSED, 429: f"the caller has {MAX_PENDING} reviews waiting (code rate_limited)"}))
@takes_no_body
def ask(match_id: str) -> Response:
    """Ask the computer to review every decision of a finished match you played: the
    background worker judges each from what its seat could see then, a few at a time, with
    the `hard` bot's search. 202 when queued; follow it with GET."""
    status, body = request_review(caller_id(), match_id)
    return json_response(body, status)


@blp.route("/matches/<match_id>/review", parameters=[IF_NONE_MATCH_NOW])
@requires_player
@blp.response(200, ReviewSchema, headers=headers("ETag"))
@blp.alt_response(304, **not_modified_doc("the review has the ETag If-None-Match names: "
                                          "nothing reviewed since"))
@blp.doc(operationId="getReview", **problems({
    **_REFUSED, 404: "no such match (code match_not_found), or nobody has asked for its "
                     "review (code review_not_found)"}))
def read(match_id: str) -> Response:
    """A finished match's review as it stands: `pending` with the decisions reviewed so far,
    or `done`. Its players only (they see every card of a finished match). Its strong ETag
    names the body; `If-None-Match` with it gives 304 until more is reviewed."""
    data = json_bytes(review_answer(caller_id(), match_id))
    tag = content_etag(data)
    if etag_matches(request.headers.get("If-None-Match"), tag):
        return not_modified(tag)
    return body_response(data, 200, tagged(tag))
