"""Leaderboard request and response schemas."""
from __future__ import annotations

from marshmallow import fields, validate

from app.db.rating_models import FORMATS
from app.http.schemas.base import MAX_OFFSET, QueryInteger, QuerySchema, ResponseSchema, enum


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
