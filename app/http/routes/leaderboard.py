"""The leaderboard: public, per format, paged."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from app.play import leaderboard
from app.http.responses import json_response
from app.http.schemas.ratings import LeaderboardQuerySchema, LeaderboardSchema

blp = Blueprint("leaderboard", __name__, url_prefix="/v1", description="Ratings, best first")


@blp.route("/leaderboard")
@blp.arguments(LeaderboardQuerySchema(), location="query")
@blp.response(200, LeaderboardSchema)
@blp.doc(operationId="getLeaderboard")
def board(args: dict[str, Any]) -> Response:
    """Players with at least one rated match in the format, best rating first
    (docs/ratings.md)."""
    body = leaderboard.page(args["format"], args["bots"], args["offset"], args["limit"])
    return json_response({"format": args["format"], **body})
