"""Actions: one row lock per action, If-Match, and Idempotency-Key in the same transaction."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from flask import Response, request
from flask_smorest import Blueprint

import engine

from app import matches as service
from app import ratelimit
from app.api.responses import json_response
from app.auth import require_player
from app.errors import ApiError
from app.extensions import db
from app.models import IdempotencyRecord
from app.rendering import etag, etag_matches, match_view, seat_of
from app.schemas import (AUTH_REQUIRED, IDEMPOTENCY_KEY, IF_MATCH, ActionSchema,
                         MatchViewSchema)

blp = Blueprint("actions", __name__, url_prefix="/v1", description="Playing a match")


@blp.before_request
def _authenticate() -> None:
    """401 before the body is parsed: no token on an endpoint that needs one is 401 (API.md)."""
    require_player()


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and (not 1 <= len(key) <= 255 or "\x00" in key):
        rule = "must be 1 to 255 characters, without NUL"
        raise ApiError(422, "validation_error", f"Idempotency-Key {rule}",
                       errors={"Idempotency-Key": [rule]})
    return key


def _body_hash(body: dict[str, Any]) -> str:
    """The hash of the action the body means: a retry that writes the card as "7C" or
    spells out a default (`face_down: false`) is the same request."""
    try:
        form = engine.normal_form(body)
    except engine.InvalidAction:
        form = body
    return hashlib.sha256(json.dumps(form, sort_keys=True).encode()).hexdigest()


@blp.route("/matches/<match_id>/actions", methods=["POST"])
@blp.arguments(ActionSchema)
@blp.response(200, MatchViewSchema)
@blp.alt_response(412, description="If-Match no longer matches (code version_mismatch)")
@blp.alt_response(429, description="too many actions by this player (code rate_limited, "
                                   "Retry-After)")
@blp.alt_response(422, description="validation_error, illegal_action (with reason and "
                                   "legal_actions) or idempotency_key_reused")
@blp.doc(**{**AUTH_REQUIRED, "parameters": [IF_MATCH, IDEMPOTENCY_KEY]})
def post_action(body: dict[str, Any], match_id: str) -> Response:
    """Play, raise, accept or refuse. Answers with your view after the action and after every
    bot move it triggered."""
    player = require_player()
    ratelimit.check("action", player.id)
    key = _idempotency_key()
    match = service.lock_match(match_id)
    seat = seat_of(match, player)
    if seat is None:
        raise ApiError(403, "not_a_player", "you have no seat in this match")
    if key is not None:
        stored = db.session.get(IdempotencyRecord, (player.id, match.id, key))
        if stored is not None:
            db.session.rollback()
            if stored.request_hash != _body_hash(body):
                raise ApiError(422, "idempotency_key_reused",
                               "this Idempotency-Key was used with another body")
            return json_response(stored.response, stored.status_code,
                                 {**stored.headers, "Idempotent-Replayed": "true"})
    wanted = request.headers.get("If-Match")
    if wanted is not None and not etag_matches(wanted, etag(match, seat)):
        raise ApiError(412, "version_mismatch", "the match changed since that representation",
                       current=match_view(match, seat), headers={"ETag": etag(match, seat)})
    service.act(match, seat, player, body)
    service.notify(match)
    view = match_view(match, seat)
    headers = {"ETag": etag(match, seat), "Cache-Control": "private, no-cache"}
    if key is not None:
        db.session.add(IdempotencyRecord(player_id=player.id, match_id=match.id, key=key,
                                          request_hash=_body_hash(body), status_code=200,
                                          response=view, headers=headers))
    db.session.commit()
    return json_response(view, 200, headers)
