"""What a client sends: request bodies and query strings, validated before any verb runs."""
from __future__ import annotations

import re
import unicodedata
from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from app.http.schemas.base import (MAX_OFFSET, MAX_TURN_TIMEOUT, MAX_WAIT_SECONDS, SEAT_RANGE,
                                   STRICT_INT, QueryInteger, QuerySchema, StrictBoolean, named_enum,
                                   visible)
from engine import OPTION_DEFAULTS, PLAYER_COUNTS, RULESETS
from engine.actions import KINDS as ACTION_KINDS
from engine.bots import BOT_LEVELS


JOINERS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: format characters that names in Persian, Indic
scripts and emoji sequences (a family, a flag of skin tones) need, so printable in a name."""


def printable(char: str) -> bool:
    """Printable in a name: what Python calls printable, a joiner, or a space of any width
    (Python leaves out every space but U+0020; a no-break space is a name's too)."""
    return char.isprintable() or char in JOINERS or unicodedata.category(char) == "Zs"


def check_name(value: str) -> None:
    """A player's name: 1 to 32 printable characters after trimming, one of them visible."""
    text = value.strip()
    if not 1 <= len(text) <= 32 or not all(map(printable, text)):
        raise ValidationError("must be 1 to 32 printable characters after trimming")
    if not any(visible(c) for c in text):
        raise ValidationError("must contain at least one visible character")


HANDLE_PATTERN = "^[A-Za-z0-9_-]{3,20}$"


def check_storable(value: str) -> None:
    """Text PostgreSQL cannot hold (a NUL character, or a lone surrogate, which a JSON
    "\\ud800" escape makes and UTF-8 cannot encode): refused here, not a 500 at the query."""
    if "\x00" in value:
        raise ValidationError("must not contain a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError("must be valid Unicode text (no lone surrogate)") from None


def check_handle(value: str) -> None:
    """A handle: 3 to 20 of a-z 0-9 _ - (letters of either case; unique regardless of it)."""
    if not re.fullmatch(HANDLE_PATTERN[1:-1], value):
        raise ValidationError("must be 3 to 20 of a-z 0-9 _ -")


def handle_field(**kwargs: Any) -> fields.String:
    return fields.String(validate=check_handle, metadata={
        "description": "3 to 20 of a-z 0-9 _ -; unique regardless of case",
        "pattern": HANDLE_PATTERN}, **kwargs)


class PlayerCreateSchema(Schema):
    name = fields.String(required=True, validate=check_name, metadata={
        "description": "1 to 32 printable characters after trimming", "minLength": 1})
    bot = StrictBoolean(load_default=False, metadata={"description": "a program, not a person"})
    handle = handle_field(load_default=None, allow_none=True)


class PlayerUpdateSchema(Schema):
    SPEC_RULES: ClassVar[dict[str, Any]] = {"minProperties": 1}
    name = fields.String(validate=check_name, metadata={
        "description": "1 to 32 printable characters after trimming", "minLength": 1})
    handle = handle_field(allow_none=True)

    @validates_schema
    def _not_empty(self, data: dict[str, Any], **_: Any) -> None:
        if not data:
            raise ValidationError("send name or handle", "_body")


class PlayerLookupQuerySchema(QuerySchema):
    handle = fields.String(required=True, validate=[validate.Length(1, 64), check_storable],
                           metadata={"description": "compared regardless of case"})


class BotSeatSchema(Schema):
    seat = fields.Integer(required=True, validate=SEAT_RANGE, **STRICT_INT)
    level = named_enum("BotLevel", BOT_LEVELS, required=True)


class InviteSchema(Schema):
    # The seat and exactly one of player_id or handle (a oneOf would make generated clients'
    # Invite model untyped).
    SPEC_RULES: ClassVar[dict[str, Any]] = {"minProperties": 2, "maxProperties": 2}
    seat = fields.Integer(required=True, validate=SEAT_RANGE, **STRICT_INT)
    player_id = fields.String(validate=[validate.Length(1, 32), check_storable],
                              metadata={"description": "exactly one of player_id or handle"})
    handle = fields.String(validate=[validate.Length(1, 64), check_storable])

    @validates_schema
    def _one_player(self, data: dict[str, Any], **_: Any) -> None:
        if ("player_id" in data) == ("handle" in data):
            raise ValidationError("name the player by exactly one of player_id or handle",
                                  "player_id")


class DealSchema(Schema):
    vira = fields.String(allow_none=True, load_default=None)
    hands = fields.List(fields.List(fields.String()), required=True)


CLIENT_SEED: dict[str, Any] = {
    "load_default": None, "allow_none": True,
    "validate": validate.Regexp(r"\A[A-Za-z0-9._-]{1,64}\Z",
                                error="must be 1 to 64 of A-Z a-z 0-9 . _ -"),
    "metadata": {"description": "your seat's contribution to the shuffle (docs/fairness.md)",
                 "pattern": "^[A-Za-z0-9._-]{1,64}$"}}
"""The `client_seed` of the create and join bodies."""


class MatchCreateSchema(Schema):
    # Not (a commitment and (a seed or deals)), written without anyOf (which client
    # generators read as an untyped union): not (commitment and not (no seed and no deals)).
    SPEC_RULES: ClassVar[dict[str, Any]] = {"not": {
        "description": "a commitment is for shuffled deals: not with seed or deals",
        "required": ["commitment"],
        "properties": {"commitment": {"type": "string"}},
        "not": {"properties": {"seed": {"not": {"type": "integer"}},
                               "deals": {"not": {"type": "array"}}}}}}
    ruleset = named_enum("RulesetName", RULESETS, load_default="paulista")
    players = named_enum("PlayerCount", PLAYER_COUNTS, load_default=2)
    target_score = named_enum("TargetScore", [12], load_default=12)
    seat = fields.Integer(load_default=None, allow_none=True, validate=SEAT_RANGE, **STRICT_INT)
    bots = fields.List(fields.Nested(BotSeatSchema), load_default=list)
    invite = fields.List(fields.Nested(InviteSchema), load_default=list, metadata={
        "description": "seats reserved for named players: each finds the invitation in "
                       "GET /v1/me/matches, accepts by joining and declines by leaving"})
    visibility = named_enum("Visibility", ["public", "private"], load_default="public")
    turn_timeout = fields.Integer(
        load_default=None, allow_none=True, validate=validate.Range(10, MAX_TURN_TIMEOUT),
        metadata={"description": "seconds each player has to act (10 s to 14 days), or null for "
                                 "no limit; see on_timeout"},
        **STRICT_INT)
    on_timeout = named_enum("TimeoutPolicy", ["auto_play", "forfeit"], load_default="auto_play")
    seed = fields.Integer(load_default=None, allow_none=True,
                          validate=validate.Range(0, 2**62), **STRICT_INT)
    start_score = fields.List(fields.Integer(**STRICT_INT), load_default=None, allow_none=True)
    deals = fields.List(fields.Nested(DealSchema), load_default=None, allow_none=True)
    client_seed = fields.String(**CLIENT_SEED)
    commitment = fields.String(load_default=None, allow_none=True, validate=validate.Regexp(
        r"\A[0-9a-fA-F]{64}\Z", error="must be a commitment from POST /v1/commitments"),
        metadata={"description": "a commitment from POST /v1/commitments: the match uses "
                                 "its secret",
                  "pattern": "^[0-9a-fA-F]{64}$"})
    options = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "component": "MatchOptions",
        "description": "ruleset options by name (docs/rules.md); defaults: "
                       + ", ".join(f"{k}={v}" for k, v in OPTION_DEFAULTS.items())})


class JoinSchema(Schema):
    seat = fields.Integer(load_default=None, allow_none=True, validate=SEAT_RANGE, **STRICT_INT)
    invite_code = fields.String(load_default=None, allow_none=True)
    client_seed = fields.String(**CLIENT_SEED)


class ActionSchema(Schema):
    """Loads every kind of action at once (the engine checks each kind's fields); the spec
    documents the body as the ``Action`` oneOf of :data:`UNIONS` instead."""

    type = fields.String(required=True, validate=validate.OneOf(list(ACTION_KINDS)))
    card = fields.String(metadata={"description": "card code such as 7c; case-insensitive"})
    slot = fields.Integer(**STRICT_INT, metadata={"description": "position in hand.cards"})
    face_down = StrictBoolean()
    to = fields.Integer(allow_none=True, **STRICT_INT,
                        metadata={"description": "the next ladder value, optional"})


class WaitQuerySchema(QuerySchema):
    wait = QueryInteger(load_default=0, validate=validate.Range(0, MAX_WAIT_SECONDS),
                        metadata={"description": "long poll: seconds to wait for a change"})


class EventsQuerySchema(WaitQuerySchema):
    after = QueryInteger(load_default=0, validate=validate.Range(0))
    limit = QueryInteger(load_default=100, validate=validate.Range(1, 500))


class LobbyQuerySchema(QuerySchema):
    status = fields.String(load_default="waiting",
                           validate=validate.OneOf(["waiting", "active"]), metadata={
        "description": "waiting (the default: a seat free for anyone) or active (being "
                       "played: to watch)"})
    limit = QueryInteger(load_default=20, validate=validate.Range(1, 100))
    offset = QueryInteger(load_default=0, validate=validate.Range(0, MAX_OFFSET))
    ruleset = named_enum("RulesetName", RULESETS)
    players = named_enum("PlayerCount", PLAYER_COUNTS, QueryInteger)


class MyMatchesQuerySchema(WaitQuerySchema):
    status = named_enum("MatchStatus", ["waiting", "active", "finished", "cancelled"])
    your_turn = fields.Boolean()
    limit = QueryInteger(load_default=50, validate=validate.Range(1, 200))
    offset = QueryInteger(load_default=0, validate=validate.Range(0, MAX_OFFSET))


class ReplayQuerySchema(QuerySchema):
    step = QueryInteger(load_default=0, validate=validate.Range(min=0), metadata={
        "description": "0 (before the first event) to `steps` (after the last)"})
