"""Players: registration (the token is shown once), profiles, and the caller's matches."""
from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_smorest import Blueprint

from app.play import inbox
from app.db import ratelimit
from app.http.long_poll import wait_until
from app.http.responses import body_response, json_response, not_modified
from app.http.auth import client_address, require_player, requires_player
from app.infra.problems import PROBLEM_MIMETYPE
from app.http.errors import ProblemSchema, takes_no_body
from app.http.precedence import malformed_counts
from app.play import accounts, players
from app.play.profiles import profile
from app.infra.encoding import (content_etag, etag_matches,
                                json_bytes, tagged)
from app.play.rendering import player_public
from app.http.schemas.docs import (IF_NONE_MATCH, PLAYER_EXAMPLES, examples, headers, links,
                                   not_modified_doc, problems)
from app.http.schemas.inputs import (MyMatchesQuerySchema, PlayerCreateSchema,
                                     PlayerLookupQuerySchema, PlayerUpdateSchema)
from app.http.schemas.players import PlayerCreatedSchema, PlayerProfileSchema
from app.http.schemas.problems import RateLimitedProblemSchema
from app.http.schemas.views import MyMatchListSchema

blp = Blueprint("players", __name__, url_prefix="/v1", description="Players and their matches")


@blp.route("/players", methods=["POST"])
@malformed_counts("register", client_address)
@blp.arguments(PlayerCreateSchema(), examples=examples(PLAYER_EXAMPLES))
@blp.response(201, PlayerCreatedSchema, headers=headers("Location"))
@blp.alt_response(429, schema=RateLimitedProblemSchema, content_type=PROBLEM_MIMETYPE,
                  headers=headers("Retry-After"),
                  description="too many registrations from this address (code rate_limited)")
@blp.alt_response(409, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="another player has this handle (code handle_taken)")
@blp.doc(operationId="registerPlayer",
         **links((201,), "player_id", ("getPlayer", "blockPlayer", "unblockPlayer")))
def register(body: dict[str, Any]) -> Response:
    """Register a player; the token in the answer is shown only this once."""
    ratelimit.check("register", client_address())
    player, token = players.register(body["name"], body["bot"], body["handle"])
    return json_response({**player_public(player), "token": token}, 201,
                         {"Location": f"/v1/players/{player.id}"})


@blp.route("/players/me")
@requires_player
@blp.response(200, PlayerProfileSchema)
@blp.doc(operationId="getMyProfile")
def me() -> Response:
    """The caller's profile with match statistics."""
    player = require_player()
    return json_response(profile(player))


@blp.route("/players/me", methods=["PATCH"])
@requires_player
@blp.arguments(PlayerUpdateSchema())
@blp.response(200, PlayerProfileSchema)
@blp.alt_response(409, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="another player has this handle (code handle_taken)")
@blp.doc(operationId="updateMyProfile")
def update_me(body: dict[str, Any]) -> Response:
    """Change your `name` and/or `handle` (null removes it); your profile after it."""
    return json_response(players.update_profile(require_player(), body))


@blp.route("/players/me", methods=["DELETE"])
@requires_player
@takes_no_body
@blp.response(204)
@blp.doc(operationId="deleteMyAccount")
def delete_me() -> Response:
    """Close your account for good: your unfinished matches are given up (a seat left, an
    invitation declined, an active match resigned), your webhooks and blocks go, your token
    stops working, and your finished matches show you as "Deleted player"."""
    accounts.close_account(require_player())
    return Response(status=204)


@blp.route("/players")
@blp.arguments(PlayerLookupQuerySchema(), location="query")
@blp.response(200, PlayerProfileSchema)
@blp.alt_response(404, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="nobody has this handle (code player_not_found)")
@blp.doc(operationId="findPlayerByHandle")
def find_player(args: dict[str, Any]) -> Response:
    """The public profile of the player with this handle (compared regardless of case)."""
    return json_response(players.handle_profile(args["handle"]))


@blp.route("/players/me/token", methods=["POST"])
@requires_player
@blp.response(200, PlayerCreatedSchema)
@blp.doc(operationId="rotateToken")
@takes_no_body
def rotate_token() -> Response:
    """Replace your token: the answer holds the new one (shown only this once) and the old
    token stops working at once. Use it when a token may have leaked."""
    player = require_player()
    token = players.rotate_token(player)
    return json_response({**player_public(player), "token": token}, 200,
                         {"Cache-Control": "no-store"})


@blp.route("/players/<player_id>")
@blp.response(200, PlayerProfileSchema)
@blp.doc(operationId="getPlayer", **problems({404: "no such player (code player_not_found)"}))
def public_profile(player_id: str) -> Response:
    """A player's public profile (never the token)."""
    return json_response(players.player_profile(player_id))


@blp.route("/me/matches", parameters=[IF_NONE_MATCH])
@requires_player
@blp.arguments(MyMatchesQuerySchema(), location="query")
@blp.response(200, MyMatchListSchema, headers=headers("ETag"))
@blp.alt_response(304, **not_modified_doc("nothing changed since If-None-Match"))
@blp.doc(operationId="listMyMatches")
def my_matches(args: dict[str, Any]) -> Response:
    """The caller's matches, most urgent first: those waiting for you (your turn, an
    invitation) by nearest deadline, then the rest by last change. With `wait`, a long poll:
    it answers as soon as the page differs from `If-None-Match`, or with `your_turn=true` is
    not empty, or something that matters to you happened (your turn came, a match ended, an
    invitation arrived)."""
    player = require_player()
    seen = request.headers.get("If-None-Match")
    if not args["wait"]:
        listed = inbox.page(player, args)
    else:
        start = inbox.attention(player)

        def news() -> dict[str, Any] | None:
            return inbox.news(player, args, seen, start)

        # One key, the player's: every change of a match they sit in (or just joined, left
        # or were invited to) names them in its notification.
        listed = news() or wait_until([player.id], news, args["wait"],
                                      watch=inbox.open_matches(player)) or inbox.page(player, args)
    data = json_bytes(listed)
    tag = content_etag(data)  # (inbox.list_tag, from the bytes sent: encoded once)
    if etag_matches(seen, tag):
        return not_modified(tag)
    return body_response(data, 200, tagged(tag))
