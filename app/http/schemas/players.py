"""Players as the server shows them: public profiles, statistics and ratings."""
from __future__ import annotations

from marshmallow import fields

from app.http.schemas.base import ResponseSchema


class PlayerPublicSchema(ResponseSchema):
    id = fields.String()
    name = fields.String()
    handle = fields.String(allow_none=True)
    bot = fields.Boolean()
    created_at = fields.DateTime()


class PlayerStatsSchema(ResponseSchema):
    matches = fields.Integer()
    active = fields.Integer()
    finished = fields.Integer()
    won = fields.Integer()
    lost = fields.Integer()


class RatingSchema(ResponseSchema):
    rating = fields.Float(metadata={"description": "the mean skill (mu), 1500 for a new player"})
    mu = fields.Float()
    sigma = fields.Float(metadata={"description": "the uncertainty of mu"})
    provisional = fields.Boolean(metadata={"description": "sigma is still above 350"})
    rated_matches = fields.Integer()


class RatingsSchema(ResponseSchema):
    duel = fields.Nested(RatingSchema, metadata={"description": "2-player matches"})
    teams = fields.Nested(RatingSchema, metadata={"description": "4- and 6-player matches"})


class PlayerProfileSchema(PlayerPublicSchema):
    stats = fields.Nested(PlayerStatsSchema)
    ratings = fields.Nested(RatingsSchema)
    matches_played = fields.Integer(metadata={"description": "finished matches"})
    won = fields.Integer()
    lost = fields.Integer()
    forfeited = fields.Integer(metadata={"description": "lost by time (a deadline forfeit)"})
    hands_won = fields.Integer()


class PlayerCreatedSchema(PlayerPublicSchema):
    token = fields.String(metadata={"description": "shown only here; send as Bearer token"})
