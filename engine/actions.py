"""Reading an action body (API.md's vocabulary) into a checked, typed action."""
from __future__ import annotations

from typing import Any, NamedTuple

from .cards import DECK, parse_card
from .errors import InvalidAction

_FIELDS = {
    "play": {"type", "card", "slot", "face_down"},
    "raise": {"type", "to"},
    "accept": {"type"},
    "refuse": {"type"},
}


KINDS = tuple(_FIELDS)
"""The four kinds of action, as a body's `type` names them."""

FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "type": (str,), "card": (str,), "slot": (int,), "face_down": (bool,), "to": (int, type(None)),
}
"""Every field an action body may have, with the JSON types it may take."""

_CODES = frozenset(DECK)


def well_typed(body: Any) -> bool:
    """Whether `body` is an object whose `type` is one of :data:`KINDS` and whose every field
    is one of :data:`FIELD_TYPES` with one of its types (a boolean is no integer): what a
    request schema passes on unchanged. Which fields a kind takes is :func:`parse_action`'s."""
    kind = body.get("type") if isinstance(body, dict) else None
    if not isinstance(kind, str) or kind not in _FIELDS:
        return False
    for name, value in body.items():
        types = FIELD_TYPES.get(name)
        if types is None or type(value) not in types:
            return False
    return True


class ParsedAction(NamedTuple):
    type: str
    card: str | None = None
    slot: int | None = None
    face_down: bool = False
    to: int | None = None


def parse_action(body: Any) -> ParsedAction:
    """The action in `body`, or InvalidAction saying what is malformed."""
    if not isinstance(body, dict):
        raise InvalidAction("an action must be a JSON object")
    kind = body.get("type")
    allowed = _FIELDS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        raise InvalidAction("type must be one of play, raise, accept, refuse", "type")
    if not allowed.issuperset(body):
        extra = set(body) - allowed
        name = sorted(extra)[0]
        raise InvalidAction(f"unknown field {name!r} for a {kind} action", name)
    if kind == "raise":
        to = body.get("to")
        if to is not None and type(to) is not int:
            raise InvalidAction("to must be an integer", "to")
        return ParsedAction("raise", None, None, False, to)
    if kind != "play":
        return ParsedAction(str(kind), None, None, False, None)
    face_down = body.get("face_down", False)
    if type(face_down) is not bool:
        raise InvalidAction("face_down must be true or false", "face_down")
    has_card, has_slot = body.get("card") is not None, body.get("slot") is not None
    if has_card == has_slot:
        raise InvalidAction("a play names exactly one of card or slot", "card")
    if has_slot:
        slot = body["slot"]
        if type(slot) is not int:
            raise InvalidAction("slot must be an integer", "slot")
        return ParsedAction("play", None, slot, face_down, None)
    card = body["card"]
    if type(card) is not str or card not in _CODES:
        card = parse_card(card)
    if card is None:
        raise InvalidAction(f"{body['card']!r} is not a card code such as 7c, Qd or As", "card")
    return ParsedAction("play", card, None, face_down, None)


def normal_form(body: Any) -> dict[str, Any]:
    """The canonical body of the action in `body` (card codes in output form, defaults left
    out): two bodies that mean the same action have the same normal form. InvalidAction when
    `body` is malformed."""
    action = parse_action(body)
    form: dict[str, Any] = {"type": action.type}
    if action.card is not None:
        form["card"] = action.card
    if action.slot is not None:
        form["slot"] = action.slot
    if action.face_down:
        form["face_down"] = True
    if action.to is not None:
        form["to"] = action.to
    return form
