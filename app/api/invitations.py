"""The caller's invitations, declined all at once."""
from __future__ import annotations

from flask import Response
from flask_smorest import Blueprint

from app import invitations, ratelimit
from app.api.responses import json_response
from app.auth import require_player
from app.schemas import AUTH_REQUIRED, InvitationsDeclinedSchema

blp = Blueprint("invitations", __name__, url_prefix="/v1", description="Invitations")


@blp.route("/me/invitations/decline", methods=["POST"])
@blp.response(200, InvitationsDeclinedSchema)
@blp.doc(operationId="declineAllInvitations", **AUTH_REQUIRED)
def decline_all() -> Response:
    """Decline every invitation you have not accepted yet (each as `leave` declines one)."""
    player = require_player()
    ratelimit.check("seat", player.id)
    return json_response({"declined": invitations.decline_all(player)})
