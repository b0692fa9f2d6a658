"""The caller's invitations: declined all at once; players blocked from inviting them."""
from __future__ import annotations

from flask import Response
from flask_smorest import Blueprint

from app.http.errors import takes_no_body
from app.play import blocks
from app.play import invitations
from app.http.responses import json_response
from app.http.auth import require_player, requires_player, seat_caller
from app.http.schemas.views import BlockedListSchema, BlockedSchema, InvitationsDeclinedSchema

blp = Blueprint("invitations", __name__, url_prefix="/v1",
                description="Invitations: declining them, blocking who sends them")


@blp.route("/me/invitations/decline", methods=["POST"])
@requires_player
@blp.response(200, InvitationsDeclinedSchema)
@blp.doc(operationId="declineAllInvitations")
@takes_no_body
def decline_all() -> Response:
    """Decline every invitation you have not accepted yet (each as `leave` declines one)."""
    return json_response({"declined": invitations.decline_all(seat_caller())})


@blp.route("/me/blocks", methods=["GET"])
@requires_player
@blp.response(200, BlockedListSchema)
@blp.doc(operationId="listBlockedPlayers")
def list_blocked() -> Response:
    """The players you have blocked, the most recent first."""
    return json_response(blocks.blocked(require_player()))


@blp.route("/me/blocks/<player_id>", methods=["PUT"])
@requires_player
@blp.response(200, BlockedSchema)
@blp.doc(operationId="blockPlayer")
def block(player_id: str) -> Response:
    """Block a player: their invitations to you are refused, and those pending declined."""
    return json_response(blocks.block(seat_caller(), player_id))


@blp.route("/me/blocks/<player_id>", methods=["DELETE"])
@requires_player
@blp.response(204)
@blp.doc(operationId="unblockPlayer")
def unblock(player_id: str) -> Response:
    """Take a player off your blocks."""
    blocks.unblock(require_player(), player_id)
    return Response(status=204)
