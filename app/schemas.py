"""Request and response schemas: they validate input and are the source of openapi.yaml."""
from __future__ import annotations

import re
import unicodedata
from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates

from engine import OPTION_DEFAULTS, PLAYER_COUNTS, RULESETS
from engine.bots import BOT_LEVELS

MAX_TURN_TIMEOUT = 1_209_600
MAX_OFFSET = 2**31 - 1  # PostgreSQL's OFFSET is a bigint: a larger number would be a 500
STRICT_INT = {"strict": True}
SEAT_RANGE = validate.Range(0, max(PLAYER_COUNTS) - 1)  # the match's own limit is checked later


BLANK_LOOKING = frozenset("\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0")
"""Letters and symbols that print as nothing (Hangul fillers, the blank Braille pattern...)."""


def visible(char: str) -> bool:
    """True for a character that shows as a mark: not a space, control, format or combining
    character, nor one of the blank-looking letters."""
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANK_LOOKING


class StrictBoolean(fields.Boolean):
    """A JSON ``true`` or ``false``, nothing else (marshmallow alone takes ``1``, ``"yes"``...)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class QueryInteger(fields.Integer):
    """An integer in a query string: ASCII digits with an optional minus sign, nothing else
    (Python's int() also takes "1_000", " 7 " and other scripts' digits)."""

    _FORM = re.compile(r"-?[0-9]{1,18}")

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, str) and not self._FORM.fullmatch(value):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class QuerySchema(Schema):
    """Query strings ignore parameters they do not know (cache busters, tracing)."""

    class Meta:
        unknown = EXCLUDE


# --- requests --------------------------------------------------------------------------


class PlayerCreateSchema(Schema):
    name = fields.String(required=True, metadata={
        "description": "1 to 32 printable characters after trimming", "minLength": 1})
    bot = StrictBoolean(load_default=False, metadata={"description": "a program, not a person"})

    @validates("name")
    def _name(self, value: str, **_: Any) -> None:
        text = value.strip()
        if not 1 <= len(text) <= 32 or not text.isprintable():
            raise ValidationError("must be 1 to 32 printable characters after trimming")
        if not any(visible(c) for c in text):
            raise ValidationError("must contain at least one visible character")


class BotSeatSchema(Schema):
    seat = fields.Integer(required=True, validate=SEAT_RANGE, **STRICT_INT)
    level = fields.String(required=True, validate=validate.OneOf(BOT_LEVELS))


class DealSchema(Schema):
    vira = fields.String(allow_none=True, load_default=None)
    hands = fields.List(fields.List(fields.String()), required=True)


class MatchCreateSchema(Schema):
    ruleset = fields.String(load_default="paulista", validate=validate.OneOf(list(RULESETS)))
    players = fields.Integer(load_default=2, validate=validate.OneOf(PLAYER_COUNTS), **STRICT_INT)
    target_score = fields.Integer(load_default=12, validate=validate.Equal(12), **STRICT_INT)
    seat = fields.Integer(load_default=None, allow_none=True, validate=SEAT_RANGE, **STRICT_INT)
    bots = fields.List(fields.Nested(BotSeatSchema), load_default=list)
    visibility = fields.String(load_default="public",
                               validate=validate.OneOf(["public", "private"]))
    turn_timeout = fields.Integer(
        load_default=None, allow_none=True, validate=validate.Range(10, MAX_TURN_TIMEOUT),
        metadata={"description": "seconds per turn; deadlines are not enforced yet: must be null"},
        **STRICT_INT)
    on_timeout = fields.String(load_default="auto_play",
                               validate=validate.OneOf(["auto_play", "forfeit"]))
    seed = fields.Integer(load_default=None, allow_none=True,
                          validate=validate.Range(0, 2**62), **STRICT_INT)
    start_score = fields.List(fields.Integer(**STRICT_INT), load_default=None, allow_none=True)
    deals = fields.List(fields.Nested(DealSchema), load_default=None, allow_none=True)
    options = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "description": "ruleset options by name (docs/rules.md); defaults: "
                       + ", ".join(f"{k}={v}" for k, v in OPTION_DEFAULTS.items())})


class JoinSchema(Schema):
    seat = fields.Integer(load_default=None, allow_none=True, validate=SEAT_RANGE, **STRICT_INT)
    invite_code = fields.String(load_default=None, allow_none=True)


class ActionSchema(Schema):
    type = fields.String(required=True,
                         validate=validate.OneOf(["play", "raise", "accept", "refuse"]))
    card = fields.String(metadata={"description": "card code such as 7c; case-insensitive"})
    slot = fields.Integer(**STRICT_INT, metadata={"description": "position in hand.cards"})
    face_down = StrictBoolean()
    to = fields.Integer(allow_none=True, **STRICT_INT,
                        metadata={"description": "the next ladder value, optional"})


class WaitQuerySchema(QuerySchema):
    wait = QueryInteger(load_default=0, validate=validate.Range(0, 60),
                        metadata={"description": "long poll: seconds to wait for a change"})


class EventsQuerySchema(WaitQuerySchema):
    after = QueryInteger(load_default=0, validate=validate.Range(0))
    limit = QueryInteger(load_default=100, validate=validate.Range(1, 500))


class LobbyQuerySchema(QuerySchema):
    limit = QueryInteger(load_default=20, validate=validate.Range(1, 100))
    offset = QueryInteger(load_default=0, validate=validate.Range(0, MAX_OFFSET))
    ruleset = fields.String(validate=validate.OneOf(list(RULESETS)))
    players = QueryInteger(validate=validate.OneOf(PLAYER_COUNTS))


class MyMatchesQuerySchema(WaitQuerySchema):
    status = fields.String(validate=validate.OneOf(["waiting", "active", "finished", "cancelled"]))
    your_turn = fields.Boolean()
    limit = QueryInteger(load_default=50, validate=validate.Range(1, 200))


# --- responses (documentation: handlers build the JSON themselves) ----------------------


class PlayerPublicSchema(Schema):
    id = fields.String()
    name = fields.String()
    bot = fields.Boolean()
    created_at = fields.DateTime()


class PlayerStatsSchema(Schema):
    matches = fields.Integer()
    active = fields.Integer()
    finished = fields.Integer()
    won = fields.Integer()
    lost = fields.Integer()


class PlayerProfileSchema(PlayerPublicSchema):
    stats = fields.Nested(PlayerStatsSchema)


class PlayerCreatedSchema(PlayerPublicSchema):
    token = fields.String(metadata={"description": "shown only here; send as Bearer token"})


class SeatSchema(Schema):
    seat = fields.Integer()
    team = fields.Integer()
    player = fields.Nested(PlayerPublicSchema, allow_none=True)
    bot_level = fields.String(allow_none=True)
    cards_in_hand = fields.Integer()


class PlaySchema(Schema):
    seat = fields.Integer()
    card = fields.String(allow_none=True)
    face_down = fields.Boolean()


class TrickSchema(Schema):
    plays = fields.List(fields.Nested(PlaySchema))
    winner_team = fields.Integer(allow_none=True)
    tie = fields.Boolean()


class HandSchema(Schema):
    number = fields.Integer()
    dealer = fields.Integer()
    vira = fields.String(allow_none=True)
    manilhas = fields.List(fields.String())
    cards = fields.List(fields.String(allow_none=True), allow_none=True)
    partner_cards = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                                allow_none=True)
    stake = fields.Integer()
    special = fields.String(allow_none=True)
    pending = fields.Dict(allow_none=True)
    tricks = fields.List(fields.Nested(TrickSchema))
    to_act = fields.List(fields.Integer())


class LastHandSchema(Schema):
    number = fields.Integer()
    winner_team = fields.Integer(allow_none=True)
    points = fields.Integer()
    reason = fields.String()
    tricks = fields.List(fields.Nested(TrickSchema))


class YouSchema(Schema):
    seat = fields.Integer()
    team = fields.Integer()


class MatchViewSchema(Schema):
    id = fields.String()
    ruleset = fields.String()
    players = fields.Integer()
    target_score = fields.Integer()
    status = fields.String(metadata={"description": "waiting, active, finished or cancelled"})
    version = fields.Integer()
    visibility = fields.String()
    invite_code = fields.String(allow_none=True, metadata={"description": "seated players only"})
    fixed_deals = fields.Boolean()
    start_score = fields.List(fields.Integer())
    turn_timeout = fields.Integer(allow_none=True)
    on_timeout = fields.String()
    deadline = fields.DateTime(allow_none=True)
    seats = fields.List(fields.Nested(SeatSchema))
    score = fields.List(fields.Integer())
    games = fields.List(fields.Integer())
    winner_team = fields.Integer(allow_none=True)
    you = fields.Nested(YouSchema, allow_none=True)
    hand = fields.Nested(HandSchema, allow_none=True)
    last_hand = fields.Nested(LastHandSchema, allow_none=True)
    legal_actions = fields.List(fields.Dict())
    rules = fields.Dict()
    created_at = fields.DateTime()
    updated_at = fields.DateTime()


class MatchSummarySchema(Schema):
    id = fields.String()
    ruleset = fields.String()
    players = fields.Integer()
    status = fields.String()
    visibility = fields.String()
    version = fields.Integer()
    score = fields.List(fields.Integer())
    seats_free = fields.Integer()
    winner_team = fields.Integer(allow_none=True)
    you = fields.Nested(YouSchema, allow_none=True)
    your_turn = fields.Boolean()
    deadline = fields.DateTime(allow_none=True)
    created_at = fields.DateTime()
    updated_at = fields.DateTime()


class MatchListSchema(Schema):
    items = fields.List(fields.Nested(MatchSummarySchema))
    next_offset = fields.Integer(allow_none=True)


class EventSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    seq = fields.Integer()
    version = fields.Integer()
    type = fields.String()
    at = fields.DateTime()


class EventPageSchema(Schema):
    items = fields.List(fields.Nested(EventSchema))
    next_after = fields.Integer()


class RulesetSchema(Schema):
    name = fields.String()
    base_value = fields.Integer()
    ladder = fields.List(fields.Integer())
    special_hand_at = fields.Integer()
    mao_de_onze_stake = fields.Integer()
    mao_de_onze_refused_award = fields.Integer()
    options = fields.Dict()


class RulesetListSchema(Schema):
    items = fields.List(fields.Nested(RulesetSchema))
    bot_levels = fields.List(fields.String())


class ProblemSchema(Schema):
    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String()


# --- documentation fragments for @blp.doc -----------------------------------------------

AUTH_REQUIRED: dict[str, Any] = {"security": [{"bearerAuth": []}]}
AUTH_OPTIONAL: dict[str, Any] = {"security": [{}, {"bearerAuth": []}]}


def header_param(name: str, description: str, **schema: Any) -> dict[str, Any]:
    return {"in": "header", "name": name, "required": False, "description": description,
            "schema": {"type": "string", **schema}}


IF_NONE_MATCH = header_param("If-None-Match", "an ETag from an earlier answer: 304 when "
                             "unchanged; with `wait`, hold the request until it changes")
IF_MATCH = header_param("If-Match", "apply only if the match still has this ETag, "
                        "else 412 version_mismatch with the current view")
IDEMPOTENCY_KEY = header_param("Idempotency-Key", "1 to 255 characters; a repeat with the "
                               "same body returns the stored answer and acts once",
                               minLength=1, maxLength=255)
