"""Matches: create, the lobby, the view (with ETag and long poll), join, leave, resign."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, request
from flask_smorest import Blueprint

from app.http.errors import takes_no_body
from app.live.current import Current, current_for, heard_of
from app.live.hub import Hub, hub
from app.http.long_poll import wait_until
from app.http import auth
from app.http.precedence import malformed_counts, match_first
from app.play import conditional
from app.play import moves as play
from app.db import ratelimit
from app.play import seats as service
from app.db.hot_sql import read_match
from app.http.responses import answer_response, body_response, json_response, not_modified
from app.http.auth import accepts_player, caller_id, optional_player, requires_player, seat_caller
from app.play.store import get_match
from app.db.models import Match, id_can_exist
from app.play.lobby import lobby as lobby_page
from app.play.rematch import rematch as make_rematch
from app.infra.encoding import tagged
from app.http.schemas.docs import (IF_NONE_MATCH, JOIN_EXAMPLES, MATCH_EXAMPLES, MATCH_OPERATIONS,
                                   examples, headers, links, not_modified_doc, problems)
from app.http.schemas.inputs import JoinSchema, LobbyQuerySchema, MatchCreateSchema, WaitQuerySchema
from app.http.schemas.views import MatchListSchema, MatchViewSchema
from app.live.recent import recent
from app.play.view import full_view, view

blp = Blueprint("matches", __name__, url_prefix="/v1", description="Matches and seats")


@blp.route("/matches", methods=["POST"])
@requires_player
@malformed_counts("create", caller_id)
@blp.arguments(MatchCreateSchema(), required=False, examples=examples(MATCH_EXAMPLES))
@blp.response(201, MatchViewSchema, headers=headers("ETag", "Location"))
@blp.doc(operationId="createMatch", **links((201,), "match_id", MATCH_OPERATIONS))
@blp.doc(**problems({
    403: "seed, deals or start_score where the server allows no fixed deals (code "
         "fixed_deals_disabled); a player to invite has blocked you (code blocked); another "
         "player's commitment (code commitment_not_yours)",
    409: "too many matches waiting, or with bots, or invitations (codes "
         "too_many_waiting_matches, too_many_bot_matches, too_many_invitations); a "
         "commitment used already (code commitment_used)"}))
def create(body: dict[str, Any]) -> Response:
    """Create a match; the creator takes a seat. Bots fill the seats named in `bots`."""
    player_id = caller_id()
    ratelimit.check("create", player_id)
    answer = service.create_match(player_id, body)
    return answer_response(answer, {"Location": f"/v1/matches/{answer.body['id']}"})


@blp.route("/matches")
@accepts_player
@blp.arguments(LobbyQuerySchema(), location="query")
@blp.response(200, MatchListSchema)
@blp.doc(operationId="listLobby")
def lobby(args: dict[str, Any]) -> Response:
    """Public matches waiting for players, newest first; with `status=active`, the public
    matches being played, the one that moved last first (to watch: a spectator's view)."""
    return json_response(lobby_page(optional_player(), args["offset"], args["limit"],
                                    args.get("ruleset"), args.get("players"), args["status"]))


@blp.route("/matches/<match_id>", parameters=[IF_NONE_MATCH])
@accepts_player
@match_first("read")
@blp.arguments(WaitQuerySchema(), location="query")
@blp.response(200, MatchViewSchema, headers=headers("ETag"))
@blp.alt_response(304, **not_modified_doc("unchanged since If-None-Match (after `wait` s)"))
@blp.doc(operationId="getMatch")
def show(args: dict[str, Any], match_id: str) -> Response:
    """The match as the caller may see it. `If-None-Match` gives 304 when nothing changed;
    with `wait` the request is held until the match changes or the wait runs out."""
    seen = request.headers.get("If-None-Match")
    viewed = None
    digest = auth.token_hash()
    if digest is not False and id_can_exist(match_id):  # (else no statement may name it)
        viewed = view(_Reader(), match_id, digest, seen, args["wait"])
    if viewed is None:  # an unknown match or token: read in full, which answers 401 or 404
        player_id = optional_player_id()
        viewed = full_view(get_match(match_id), player_id, seen)
    if viewed.status == 304:
        return not_modified(viewed.tag)
    return body_response(viewed.body, 200, tagged(viewed.tag))


def optional_player_id() -> str | None:
    player = optional_player()
    return None if player is None else player.id


def _listening() -> Hub:
    """This process's hub, its listener started (what it hears is trusted only then)."""
    found = hub()
    found.ensure_listener()
    return found


class _Reader:
    """app.play.view's Reader for Flask's path: the session's connection, the caller's slots."""

    def heard(self, match_id: str, digest: str | None) -> Current | None:
        return heard_of(_listening().known, match_id, digest)

    def read(self, match_id: str, digest: str | None) -> Current | None:
        return current_for(match_id, digest, heard=False)

    def watch(self, match_id: str, wait: int) -> bool:
        if wait:  # (a read alone answers a plain conditional GET here: a watch would take a
            _listening().watch([match_id], wait)  # second connection beside the session's)
        return True

    def wait(self, match_id: str, changed: Callable[[], Current | None],
             wait: int) -> Current | None:
        return wait_until([match_id], changed, wait)

    def load(self, match_id: str, version: int) -> Match | None:
        return recent.get(match_id, version) or read_match(match_id) or get_match(match_id)

    def rendered(self, match: Match, player_id: str | None) -> tuple[conditional.Key, bytes]:
        return conditional.rendered(match, player_id)


@blp.route("/matches/<match_id>/join", methods=["POST"])
@requires_player
@match_first("join")
@malformed_counts("seat", caller_id)
@blp.arguments(JoinSchema(), required=False, examples=examples(JOIN_EXAMPLES))
@blp.response(200, MatchViewSchema, headers=headers("ETag"))
@blp.doc(operationId="joinMatch")
def join(body: dict[str, Any], match_id: str) -> Response:
    """Take a seat (`seat`, or the first free one); private matches need `invite_code`.
    Joining again returns the seat you already have."""
    player_id = caller_id()
    ratelimit.check("seat", player_id)
    answer, _ = service.join_match(player_id, match_id, body["seat"], body["invite_code"],
                                   body["client_seed"])
    return answer_response(answer)


@blp.route("/matches/<match_id>/leave", methods=["POST"])
@requires_player
@match_first("leave")
@blp.response(200, MatchViewSchema, headers=headers("ETag"))
@blp.doc(operationId="leaveMatch")
@takes_no_body
def leave(match_id: str) -> Response:
    """Give up your seat before the match starts."""
    return answer_response(service.leave_match(seat_caller(), match_id))


@blp.route("/matches/<match_id>/resign", methods=["POST"])
@requires_player
@match_first("resign")
@blp.response(200, MatchViewSchema, headers=headers("ETag"))
@blp.doc(operationId="resignMatch")
@takes_no_body
def resign(match_id: str) -> Response:
    """Your team concedes the match."""
    return answer_response(play.resign(seat_caller(), match_id))


@blp.route("/matches/<match_id>/rematch", methods=["POST"])
@requires_player
@match_first("rematch")
@blp.response(201, MatchViewSchema, headers=headers("ETag", "Location"))
@blp.alt_response(200, schema=MatchViewSchema, headers=headers("ETag", "Location"),
                  description="the rematch existed already: the same match")
@blp.doc(operationId="createRematch", **links((200, 201), "match_id", MATCH_OPERATIONS))
@takes_no_body
def rematch(match_id: str) -> Response:
    """Play a finished match again with the same players.

    The same ruleset, options and turn rules; seat s plays at s + 1; the other players are
    invited, bots keep playing. Asked again, by anyone: 200 with the same match."""
    answer = make_rematch(caller_id(), match_id, MatchCreateSchema().load)
    return answer_response(answer, {"Location": f"/v1/matches/{answer.body['id']}"})
