"""Players: registration (the token is shown once), profiles, and the caller's matches."""
from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_smorest import Blueprint

from app.play import handles
from app.play import inbox
from app.db import ratelimit
from app.http.long_poll import wait_until
from app.http.responses import json_response, not_modified
from app.infra.tokens import hash_token, new_token
from app.http.auth import client_address, require_player
from app.infra.problems import PROBLEM_MIMETYPE, ApiError
from app.http.errors import ProblemSchema
from app.db.extensions import db
from app.db.models import Player, id_can_exist
from app.play.profiles import profile
from app.infra.encoding import PRIVATE_CACHE_CONTROL, etag_matches
from app.play.rendering import player_public
from app.http.schemas import (AUTH_REQUIRED, IF_NONE_MATCH, PLAYER_EXAMPLES, MyMatchListSchema,
                         MyMatchesQuerySchema, PlayerCreatedSchema, PlayerCreateSchema,
                         PlayerLookupQuerySchema, PlayerProfileSchema, PlayerUpdateSchema,
                         RateLimitedProblemSchema, examples, headers, not_modified_doc)
from app.db.channels import token_replaced

blp = Blueprint("players", __name__, url_prefix="/v1", description="Players and their matches")


@blp.before_request
def _authenticate() -> None:
    """401 before the query is parsed for the endpoints that need a player (API.md)."""
    if request.endpoint in ("players.me", "players.my_matches", "players.rotate_token",
                            "players.update_me"):
        require_player()


@blp.route("/players", methods=["POST"])
@blp.arguments(PlayerCreateSchema(), examples=examples(PLAYER_EXAMPLES))
@blp.response(201, PlayerCreatedSchema, headers=headers("Location"))
@blp.alt_response(429, schema=RateLimitedProblemSchema, content_type=PROBLEM_MIMETYPE,
                  headers=headers("Retry-After"),
                  description="too many registrations from this address (code rate_limited)")
@blp.alt_response(409, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="another player has this handle (code handle_taken)")
@blp.doc(operationId="registerPlayer")
def register(body: dict[str, Any]) -> Response:
    """Register a player; the token in the answer is shown only this once."""
    ratelimit.check("register", client_address())
    token = new_token()
    player = Player(name=body["name"].strip(), bot=body["bot"], token_hash=hash_token(token),
                    handle=body["handle"])
    with handles.claimed():
        db.session.add(player)
    return json_response({**player_public(player), "token": token}, 201,
                         {"Location": f"/v1/players/{player.id}"})


@blp.route("/players/me")
@blp.response(200, PlayerProfileSchema)
@blp.doc(**AUTH_REQUIRED)
@blp.doc(operationId="getMyProfile")
def me() -> Response:
    """The caller's profile with match statistics."""
    player = require_player()
    return json_response(profile(player))


@blp.route("/players/me", methods=["PATCH"])
@blp.arguments(PlayerUpdateSchema())
@blp.response(200, PlayerProfileSchema)
@blp.alt_response(409, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="another player has this handle (code handle_taken)")
@blp.doc(operationId="updateMyProfile", **AUTH_REQUIRED)
def update_me(body: dict[str, Any]) -> Response:
    """Change your `name` and/or `handle` (null removes it); your profile after it."""
    player = require_player()
    handles.update(player, body)
    return json_response(profile(player))


@blp.route("/players")
@blp.arguments(PlayerLookupQuerySchema(), location="query")
@blp.response(200, PlayerProfileSchema)
@blp.alt_response(404, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="nobody has this handle (code player_not_found)")
@blp.doc(operationId="findPlayerByHandle")
def find_player(args: dict[str, Any]) -> Response:
    """The public profile of the player with this handle (compared regardless of case)."""
    return json_response(profile(handles.found(args["handle"])))


@blp.route("/players/me/token", methods=["POST"])
@blp.response(200, PlayerCreatedSchema)
@blp.doc(**AUTH_REQUIRED)
@blp.doc(operationId="rotateToken")
def rotate_token() -> Response:
    """Replace your token: the answer holds the new one (shown only this once) and the old
    token stops working at once. Use it when a token may have leaked."""
    player = require_player()
    token = new_token()
    player.token_hash = hash_token(token)
    token_replaced(db.session(), player.id)
    db.session.commit()
    return json_response({**player_public(player), "token": token}, 200,
                         {"Cache-Control": "no-store"})


@blp.route("/players/<player_id>")
@blp.response(200, PlayerProfileSchema)
@blp.doc(operationId="getPlayer")
def public_profile(player_id: str) -> Response:
    """A player's public profile (never the token)."""
    player = db.session.get(Player, player_id) if id_can_exist(player_id) else None
    if player is None:
        raise ApiError(404, "player_not_found", f"no player {player_id}")
    return json_response(profile(player))


@blp.route("/me/matches", parameters=[IF_NONE_MATCH])
@blp.arguments(MyMatchesQuerySchema(), location="query")
@blp.response(200, MyMatchListSchema, headers=headers("ETag"))
@blp.alt_response(304, **not_modified_doc("nothing changed since If-None-Match"))
@blp.doc(**AUTH_REQUIRED)
@blp.doc(operationId="listMyMatches")
def my_matches(args: dict[str, Any]) -> Response:
    """The caller's matches, most urgent first: those waiting for you (your turn, an
    invitation) by nearest deadline, then the rest by last change. With `wait`, a long poll:
    it answers as soon as the page differs from `If-None-Match`, or with `your_turn=true` is
    not empty, or something that matters to you happened (your turn came, a match ended, an
    invitation arrived)."""
    player = require_player()
    seen = request.headers.get("If-None-Match")
    start = inbox.attention(player) if args["wait"] else None

    def check() -> dict[str, Any] | None:
        now = inbox.attention(player)
        listed = inbox.page(player, args, known=now)
        idle = (etag_matches(seen, inbox.list_tag(listed))
                or (args.get("your_turn") and not listed["items"]))
        return None if idle and now == start else listed

    listed = check() if args["wait"] else inbox.page(player, args)
    if listed is None:
        # One key, the player's: every change of a match they sit in (or just joined, left
        # or were invited to) names them in its notification.
        listed = wait_until([player.id], check, args["wait"],
                                  watch=inbox.open_matches(player)) or inbox.page(player, args)
    tag = inbox.list_tag(listed)
    if etag_matches(seen, tag):
        return not_modified(tag)
    return json_response(listed, 200, {"ETag": tag, "Cache-Control": PRIVATE_CACHE_CONTROL})
