"""Server-Sent Events routes: a match's stream and the caller's inbox stream
(app/play/streams.py)."""
from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, request
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from app.play import streams
from app.infra.tokens import hash_token
from app.http.auth import (accepts_player, bearer_token, optional_player, poll_key, require_player,
                           requires_player)
from app.http.precedence import match_first
from app.infra.problems import ApiError
from app.db.extensions import db
from app.play.events import refuse_past_end
from app.play.store import get_match
from app.http.long_poll import poll_cap
from app.live.pollcap import hold_slot
from app.infra.encoding import PRIVATE_CACHE_CONTROL
from app.http.schemas.docs import header_param

blp = Blueprint("streams", __name__, url_prefix="/v1", description="Server-Sent Events")

MAX_SEQ = 2**62
LAST_EVENT_ID = header_param("Last-Event-ID", "the `id` of the last event received: the "
                             "stream resumes after it (what EventSource sends on a reconnect); "
                             "empty: as if absent",
                             pattern="^[0-9]{0,18}$")
MATCH_STREAM = {"200": {"description": (
    "`text/event-stream`: `event: event` (`id: <seq>`, `data:` an event as the event log "
    "shows it to the caller) for each new event, then `event: view` (`data:` the caller's "
    "view) after the events of each change; the view at once on connecting. A comment line "
    "at least every 25 s."),
    "content": {"text/event-stream": {"schema": {
        "type": "object", "required": ["event", "data"],
        "description": "one message of the stream",
        "properties": {"event": {"type": "string", "enum": ["event", "view"]},
                       "id": {"type": "string", "description": "the event's seq"},
                       "data": {"type": "string", "description": "one line of JSON: an "
                                "event, or the view"}}}}}}}
INBOX_STREAM = {"200": {"description": (
    "`text/event-stream`: `event: inbox` (`data:` what `GET /v1/me/matches?your_turn=true` "
    "gives) at once and whenever it changes. A comment line at least every 25 s."),
    "content": {"text/event-stream": {"schema": {
        "type": "object", "required": ["event", "data"],
        "description": "one message of the stream",
        "properties": {"event": {"type": "string", "enum": ["inbox"]},
                       "data": {"type": "string", "description": "one line of JSON: a "
                                "page of GET /v1/me/matches?your_turn=true"}}}}}}}


class StreamQuerySchema(Schema):
    after = fields.Integer(validate=validate.Range(0, MAX_SEQ), metadata={
        "description": "resume after this event `seq` (as `Last-Event-ID`, which wins)"})


def _last_event_id(args: dict[str, Any]) -> int | None:
    """Where the stream resumes: `Last-Event-ID`, else `after`, else None (from now)."""
    raw = request.headers.get("Last-Event-ID")
    if raw is None or raw.strip() == "":
        return args.get("after")
    text = raw.strip()  # (its length first: int() refuses a string of 4,300 digits or more)
    if not text.isascii() or not text.isdigit() or len(text) > 19 or int(text) > MAX_SEQ:
        raise ApiError(422, "validation_error", "Last-Event-ID must be an event seq (an "
                       "integer of at least 0).", errors={"Last-Event-ID": ["Not an integer."]})
    return int(text)


def event_stream(frames: Iterator[bytes]) -> Response:
    """A streamed answer of `frames` (which run in an app context of their own: the
    request's is gone once they run), holding one of the caller's long-poll slots until it
    closes (429 when none is free)."""
    release = hold_slot(poll_key, poll_cap())
    db.session.remove()  # (each frame is read on a connection of its own)
    response = Response(frames, mimetype="text/event-stream",
                        headers={"Cache-Control": PRIVATE_CACHE_CONTROL,
                                 "X-Accel-Buffering": "no"})
    response.call_on_close(release)
    return response


def _holding() -> streams.Holding:
    config = current_app.config
    return streams.Holding(current_app._get_current_object(),  # type: ignore[attr-defined]
                           float(config["STREAM_HEARTBEAT_SECONDS"]),
                           time.monotonic() + float(config["STREAM_MAX_SECONDS"]),
                           request.environ)


@blp.route("/matches/<match_id>/stream", parameters=[LAST_EVENT_ID])
@accepts_player
@match_first("read")
@blp.arguments(StreamQuerySchema(), location="query")
@blp.doc(operationId="streamMatch", responses=MATCH_STREAM)
def match_stream(args: dict[str, Any], match_id: str) -> Response:
    """The match as it changes: its events as the caller may see them, and the caller's
    view after each change. Spectators may stream it too."""
    after = _last_event_id(args)
    optional_player()  # a bad token is a 401
    refuse_past_end(get_match(match_id), after, "Last-Event-ID")  # 404, 422
    token = bearer_token()
    return event_stream(streams.match_frames(
        match_id, after, None if token is None else hash_token(token), _holding()))


@blp.route("/me/stream")
@requires_player
@blp.doc(operationId="streamInbox", responses=INBOX_STREAM)
def inbox_stream() -> Response:
    """The caller's matches that wait for them, at once and whenever that list changes."""
    player = require_player()
    token = bearer_token()
    assert token is not None  # (require_player answered 401 without one)
    return event_stream(streams.inbox_frames(player, hash_token(token), _holding()))
