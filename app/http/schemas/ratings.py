"""Leaderboard and match ratings: request and response schemas."""
from __future__ import annotations

from marshmallow import fields, validate

from app.db.rating_models import FORMATS
from app.http.schemas.base import MAX_OFFSET, QueryInteger, QuerySchema, ResponseSchema, enum
from app.http.schemas.players import RatingSchema


class LeaderboardQuerySchema(QuerySchema):
    format = fields.String(load_default="duel", validate=validate.OneOf(FORMATS), metadata={
        "description": "duel (2-player matches) or teams (4 and 6)"})
    bots = fields.Boolean(load_default=True, truthy={"true"}, falsy={"false"}, metadata={
        "description": "false: people only (no built-in level, no bot account)"})
    offset = QueryInteger(load_default=0, validate=validate.Range(0, MAX_OFFSET))
    limit = QueryInteger(load_default=50, validate=validate.Range(1, 100))


class BoardPlayerSchema(ResponseSchema):
    id = fields.String()
    name = fields.String()
    handle = fields.String(allow_none=True)
    bot = fields.Boolean()


class LeaderboardEntrySchema(ResponseSchema):
    rank = fields.Integer(metadata={"description": "1 for the best rating"})
    player = fields.Nested(BoardPlayerSchema)
    rating = fields.Float()
    provisional = fields.Boolean()
    rated_matches = fields.Integer()


class LeaderboardSchema(ResponseSchema):
    format = enum(FORMATS)
    items = fields.List(fields.Nested(LeaderboardEntrySchema))
    next_offset = fields.Integer(allow_none=True,
                                 metadata={"description": "the next page's offset; null: last"})


class RatingChangeSchema(ResponseSchema):
    player = fields.Nested(BoardPlayerSchema)
    team = fields.Integer(metadata={"description": "the team the player sat in"})
    before = fields.Nested(RatingSchema, metadata={"description": "the format's rating before "
                                                   "the match"})
    after = fields.Nested(RatingSchema, metadata={"description": "and after it (as profiles "
                                                  "showed it once the match was counted)"})
    change = fields.Float(metadata={"description": "after's rating minus before's"})


class MatchRatingsSchema(ResponseSchema):
    state = enum(["counting", "rated", "unrated"], metadata={"description": (
        "counting: the match has just ended and is being counted (ask again in a second); "
        "rated: `changes` says what it did; unrated: fixed deals or a start score")})
    format = enum(FORMATS, metadata={"description": "duel (2 players) or teams (4 and 6)"})
    changes = fields.List(fields.Nested(RatingChangeSchema), metadata={
        "description": "one per rated player, by team, the larger gain first"})


class RatingHistoryQuerySchema(QuerySchema):
    format = fields.String(load_default="duel", validate=validate.OneOf(FORMATS), metadata={
        "description": "duel (2-player matches) or teams (4 and 6)"})
    offset = QueryInteger(load_default=0, validate=validate.Range(0, MAX_OFFSET))
    limit = QueryInteger(load_default=20, validate=validate.Range(1, 100))


class RatedMatchSchema(ResponseSchema):
    match_id = fields.String()
    rated_at = fields.DateTime(metadata={"description": "when the match was counted"})
    team = fields.Integer(metadata={"description": "the team the player sat in"})
    won = fields.Boolean()
    before = fields.Nested(RatingSchema)
    after = fields.Nested(RatingSchema)
    change = fields.Float(metadata={"description": "after's rating minus before's"})


class RatingHistorySchema(ResponseSchema):
    format = enum(FORMATS)
    items = fields.List(fields.Nested(RatedMatchSchema), metadata={
        "description": "the player's rated matches in the format, the latest first"})
    next_offset = fields.Integer(allow_none=True,
                                 metadata={"description": "the next page's offset; null: last"})
