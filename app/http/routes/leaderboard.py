"""The leaderboard (public, per format, paged), what a finished match did to its players'
ratings, and a player's rating history."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from app.http.responses import json_response
from app.http.schemas.docs import problems
from app.http.schemas.ratings import (LeaderboardQuerySchema, LeaderboardSchema,
                                      MatchRatingsSchema, RatingHistoryQuerySchema,
                                      RatingHistorySchema)
from app.play import leaderboard
from app.play.rating_changes import match_ratings, player_history

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


@blp.route("/matches/<match_id>/ratings")
@blp.response(200, MatchRatingsSchema)
@blp.doc(operationId="getMatchRatings", **problems({
    404: "no such match (code match_not_found)",
    409: "the match is not finished (code match_not_finished)"}))
def ratings_of_match(match_id: str) -> Response:
    """What a finished match did to its players' ratings: each rated player's rating before
    and after it. `counting` for the second or so the worker takes to count a match that has
    just ended; `unrated` for a match with fixed deals or a start score (docs/ratings.md).
    Public, as ratings are."""
    return json_response(match_ratings(match_id))


@blp.route("/players/<player_id>/rating-history")
@blp.arguments(RatingHistoryQuerySchema(), location="query")
@blp.response(200, RatingHistorySchema)
@blp.doc(operationId="getRatingHistory",
         **problems({404: "no such player (code player_not_found)"}))
def rating_history(args: dict[str, Any], player_id: str) -> Response:
    """A player's rated matches in a format, the latest first, each with the rating before
    and after it: the line of their rating over time. Public, as ratings are."""
    return json_response(player_history(player_id, args["format"], args["offset"],
                                        args["limit"]))
