"""``GET /v1/rulesets``: each ruleset with its ladder and options, and the bot levels."""
from __future__ import annotations

from typing import Any

from marshmallow import fields

from app.http.schemas.base import ResponseSchema, enum, named_enum, pascal
from app.http.schemas.options import FIRST_DEALER, option_field
from engine import OPTION_CHOICES, RULESETS
from engine.bots import BOT_LEVELS


def _choices(name: str, default: fields.Field[Any], values: fields.Field[Any]) -> fields.Nested:
    """``{"values", "default"}`` of option ``name`` in /v1/rulesets: its own typed schema."""
    schema = type(f"{pascal(name)}ChoicesSchema", (ResponseSchema,),
                  {"values": values, "default": default})
    return fields.Nested(schema)


RulesetOptionsSchema = type("RulesetOptionsSchema", (ResponseSchema,), {
    "first_dealer": _choices("first_dealer", fields.Raw(metadata=FIRST_DEALER),
                             fields.List(fields.String(), metadata={"description": "sentences"})),
    "iron_hand_value": _choices("iron_hand_value", fields.Integer(), fields.String(
        metadata={"description": "a sentence"})),
    **{name: _choices(name, option_field(name), fields.List(option_field(name)))
       for name in OPTION_CHOICES}})


class RulesetSchema(ResponseSchema):
    name = named_enum("RulesetName", RULESETS)
    base_value = fields.Integer()
    ladder = fields.List(fields.Integer())
    special_hand_at = fields.Integer()
    mao_de_onze_stake = fields.Integer()
    mao_de_onze_refused_award = fields.Integer()
    options = fields.Nested(RulesetOptionsSchema)


class LevelPlayerSchema(ResponseSchema):
    level = enum(BOT_LEVELS)
    player_id = fields.String(metadata={"description": "the level's player: profile, ratings"})


class RulesetListSchema(ResponseSchema):
    items = fields.List(fields.Nested(RulesetSchema))
    bot_levels = fields.List(fields.String())
    bots = fields.List(fields.Nested(LevelPlayerSchema))
