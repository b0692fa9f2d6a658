"""Matches: create, the lobby, the view (with ETag and long poll), join, leave, resign."""
from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_smorest import Blueprint
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from app import matches as service
from app import play, ratelimit
from app.match_store import get_match
from app.api.responses import json_response, not_modified, view_response
from app.auth import optional_player, require_player
from app.extensions import db
from app.models import Match
from app.rendering import etag, etag_matches, match_summary, seat_of
from app.schemas import (AUTH_OPTIONAL, AUTH_REQUIRED, IF_NONE_MATCH, JOIN_EXAMPLES,
                         MATCH_EXAMPLES, JoinSchema, LobbyQuerySchema, MatchCreateSchema,
                         MatchListSchema, MatchViewSchema, WaitQuerySchema, examples, headers)
from app.waiting import hub

blp = Blueprint("matches", __name__, url_prefix="/v1", description="Matches and seats")


@blp.before_request
def _authenticate() -> None:
    """Every POST here needs a player: 401 before the body is parsed (API.md)."""
    if request.method == "POST":
        require_player()


@blp.route("/matches", methods=["POST"])
@blp.arguments(MatchCreateSchema, required=False, examples=examples(MATCH_EXAMPLES))
@blp.response(201, MatchViewSchema, headers=headers("ETag", "Location"))
@blp.doc(**AUTH_REQUIRED)
def create(body: dict[str, Any]) -> Response:
    """Create a match; the creator takes a seat. Bots fill the seats named in `bots`."""
    player = require_player()
    ratelimit.check("create", player.id)
    match = service.create_match(player, body)
    return view_response(match, seat_of(match, player), 201,
                         {"Location": f"/v1/matches/{match.id}"})


@blp.route("/matches")
@blp.arguments(LobbyQuerySchema, location="query")
@blp.response(200, MatchListSchema)
@blp.doc(**AUTH_OPTIONAL)
def lobby(args: dict[str, Any]) -> Response:
    """Public matches waiting for players, newest first."""
    player = optional_player()  # a bad token is a 401 even when the lobby is empty
    query = select(Match).where(Match.status == "waiting", Match.visibility == "public")
    if "ruleset" in args:
        query = query.where(Match.ruleset == args["ruleset"])
    if "players" in args:
        query = query.where(Match.players == args["players"])
    rows = db.session.execute(query.options(selectinload(Match.seats))
                              .order_by(Match.created_at.desc(), Match.id)
                              .offset(args["offset"]).limit(args["limit"] + 1)).scalars().all()
    items = [match_summary(m, player) for m in rows[:args["limit"]]]
    more = len(rows) > args["limit"]
    return json_response({"items": items,
                          "next_offset": args["offset"] + args["limit"] if more else None})


@blp.route("/matches/<match_id>", parameters=[IF_NONE_MATCH])
@blp.arguments(WaitQuerySchema, location="query")
@blp.response(200, MatchViewSchema, headers=headers("ETag"))
@blp.alt_response(304, description="unchanged since If-None-Match (after `wait` seconds)",
                  headers=headers("ETag"))
@blp.doc(**AUTH_OPTIONAL)
def show(args: dict[str, Any], match_id: str) -> Response:
    """The match as the caller may see it. `If-None-Match` gives 304 when nothing changed;
    with `wait` the request is held until the match changes or the wait runs out."""
    player = optional_player()
    seen = request.headers.get("If-None-Match")

    def check() -> tuple[Match, int | None] | None:
        match = get_match(match_id)
        seat = seat_of(match, player)
        if args["wait"] and etag_matches(seen, etag(match, seat)):
            return None
        return match, seat

    found = check()
    if found is None:
        found = hub().wait_until([match_id], check, args["wait"])
        if found is None:
            match = get_match(match_id)
            found = match, seat_of(match, player)
    match, seat = found
    if etag_matches(seen, etag(match, seat)):
        return not_modified(etag(match, seat))
    return view_response(match, seat)


@blp.route("/matches/<match_id>/join", methods=["POST"])
@blp.arguments(JoinSchema, required=False, examples=examples(JOIN_EXAMPLES))
@blp.response(200, MatchViewSchema, headers=headers("ETag"))
@blp.doc(**AUTH_REQUIRED)
def join(body: dict[str, Any], match_id: str) -> Response:
    """Take a seat (`seat`, or the first free one); private matches need `invite_code`.
    Joining again returns the seat you already have."""
    player = require_player()
    match, _ = service.join_match(player, match_id, body["seat"], body["invite_code"])
    return view_response(match, seat_of(match, player))


@blp.route("/matches/<match_id>/leave", methods=["POST"])
@blp.response(200, MatchViewSchema, headers=headers("ETag"))
@blp.doc(**AUTH_REQUIRED)
def leave(match_id: str) -> Response:
    """Give up your seat before the match starts."""
    player = require_player()
    match = service.leave_match(player, match_id)
    return view_response(match, None)


@blp.route("/matches/<match_id>/resign", methods=["POST"])
@blp.response(200, MatchViewSchema, headers=headers("ETag"))
@blp.doc(**AUTH_REQUIRED)
def resign(match_id: str) -> Response:
    """Your team concedes the match."""
    player = require_player()
    match = play.resign(player, match_id)
    return view_response(match, seat_of(match, player))
