"""The four kinds of action as the spec documents them (the ``Action`` oneOf, also the items
of ``legal_actions``); ``inputs.ActionSchema`` loads them all at once."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from app.http.schemas.base import tag


class PlayActionSchema(Schema):
    type = tag("play")
    card = fields.String(metadata={"description": "card code such as 7c (case-insensitive); "
                                                  "exactly one of card or slot"})
    slot = fields.Integer(metadata={"description": "position in hand.cards; the only way "
                                                   "when the cards are hidden"})
    face_down = fields.Boolean(metadata={"description": "from the second trick on"})


class RaiseActionSchema(Schema):
    type = tag("raise")
    to = fields.Integer(allow_none=True,
                        metadata={"description": "the next ladder value, optional"})


class AcceptActionSchema(Schema):
    type = tag("accept")


class RefuseActionSchema(Schema):
    type = tag("refuse")


ACTION_EXAMPLES: dict[str, dict[str, Any]] = {
    "play": {"type": "play", "card": "7c"},
    "play_face_down": {"type": "play", "card": "4s", "face_down": True},
    "play_slot": {"type": "play", "slot": 0},
    "raise": {"type": "raise", "to": 3},
    "accept": {"type": "accept"},
    "refuse": {"type": "refuse"},
}
