"""The ruleset's options as fields: one per option of engine/rules.py, with its values."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from app.http.schemas.base import ENUMS, named_enum, pascal
from engine import OPTION_CHOICES, PLAYER_COUNTS
from engine.rules import MAX_IRON_HAND_VALUE


def option_field(name: str, **kwargs: Any) -> fields.Field[Any]:
    """The field of option ``name``: its type and its allowed values (engine/rules.py)."""
    values = OPTION_CHOICES[name]
    if all(isinstance(v, bool) for v in values):
        return fields.Boolean(**kwargs)
    if None in values:
        return fields.Integer(allow_none=True, validate=validate.Range(1, values[1]), **kwargs)
    return named_enum(pascal(name), values, **kwargs)


FIRST_DEALER = {"oneOf": [{"$ref": "#/components/schemas/RandomDealer"},
                          {"type": "integer", "minimum": 0, "maximum": max(PLAYER_COUNTS) - 1}]}
ENUMS["RandomDealer"] = ["random"]


MatchOptionsSchema = type("MatchOptionsSchema", (Schema,), {
    "__doc__": "The ruleset's options (docs/rules.md names), each with its type and values: the "
               "create body's `options` (the engine checks them: 422 naming options.<name>).",
    "first_dealer": fields.Raw(metadata={**FIRST_DEALER, "description": "a seat, or random"}),
    "iron_hand_value": fields.Integer(validate=validate.Range(1, MAX_IRON_HAND_VALUE), metadata={
        "description": "the stake of a mão de ferro; default: the ruleset's base value"}),
    **{name: option_field(name) for name in OPTION_CHOICES}})
