"""Request and response schemas: they validate input and are the source of openapi.yaml."""
from __future__ import annotations

import re
import unicodedata
from copy import deepcopy
from dataclasses import dataclass
from typing import Any, ClassVar

from flask_smorest.utils import deepupdate
from marshmallow import (EXCLUDE, INCLUDE, Schema, ValidationError, fields, validate,
                         validates_schema)

from app.http.errors import ProblemSchema
from app.infra.problems import PROBLEM_MIMETYPE
from engine import OPTION_CHOICES, OPTION_DEFAULTS, PLAYER_COUNTS, RULESETS
from engine.actions import KINDS as ACTION_KINDS
from engine.bots import BOT_LEVELS
from engine.rules import MAX_IRON_HAND_VALUE

MAX_TURN_TIMEOUT = 1_209_600
MAX_OFFSET = 2**31 - 1  # PostgreSQL's OFFSET is a bigint: a larger number would be a 500
MAX_WAIT_SECONDS = 60  # the longest long poll (`wait`)
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
    LIMIT = 10**18 - 1
    """The largest it can be (18 digits): a Range stated in the spec, so that no value the
    spec allows is refused as not an integer (`after`, `step` had no maximum)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.validators.insert(0, validate.Range(-self.LIMIT, self.LIMIT))

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, str) and not self._FORM.fullmatch(value):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class QuerySchema(Schema):
    """Query strings ignore parameters they do not know (cache busters, tracing)."""

    class Meta:
        unknown = EXCLUDE


ENUMS: dict[str, list[Any]] = {}
"""Enumerations that are components of the spec, by name, so that generators give each one
class with good names; a nullable one is ``allOf: [$ref]`` + ``nullable``."""
INT_NAMES = {1: "one", 2: "two", 4: "four", 6: "six", 12: "twelve"}
"""The member names of integer enumerations (``x-enum-varnames``): ``PlayerCount.FOUR``."""


def named_enum(component: str, values: Any, field: type[fields.Field] | None = None,
               **kwargs: Any) -> fields.Field:
    """A field that takes one of ``values``, documented as the component ``component``."""
    values = list(values)
    assert ENUMS.setdefault(component, values) == values, component
    ints = isinstance(values[0], int)
    cls = field or (fields.Integer if ints else fields.String)
    metadata = {**kwargs.pop("metadata", {}), "component": component}
    return cls(validate=validate.OneOf(values), metadata=metadata,
               **(STRICT_INT if ints and cls is fields.Integer else {}), **kwargs)


def pascal(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


# --- requests --------------------------------------------------------------------------


def check_name(value: str) -> None:
    """A player's name: 1 to 32 printable characters after trimming, one of them visible."""
    text = value.strip()
    if not 1 <= len(text) <= 32 or not text.isprintable():
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


CLIENT_SEED = {"load_default": None, "allow_none": True,
               "validate": validate.Regexp(r"\A[A-Za-z0-9._-]{1,64}\Z",
                                           error="must be 1 to 64 of A-Z a-z 0-9 . _ -"),
               "metadata": {"description": "your seat's contribution to the shuffle "
                                           "(docs/fairness.md)",
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
    limit = QueryInteger(load_default=20, validate=validate.Range(1, 100))
    offset = QueryInteger(load_default=0, validate=validate.Range(0, MAX_OFFSET))
    ruleset = named_enum("RulesetName", RULESETS)
    players = named_enum("PlayerCount", PLAYER_COUNTS, QueryInteger)


class MyMatchesQuerySchema(WaitQuerySchema):
    status = named_enum("MatchStatus", ["waiting", "active", "finished", "cancelled"])
    your_turn = fields.Boolean()
    limit = QueryInteger(load_default=50, validate=validate.Range(1, 200))
    offset = QueryInteger(load_default=0, validate=validate.Range(0, MAX_OFFSET))


# --- documentation building blocks ------------------------------------------------------
# The spec is generated from these schemas by apispec, with the conversions of
# ``app.db.extensions.TypedConverter`` (required response fields, nullable $refs, components).


class ResponseSchema(Schema):
    """A body the server sends (documentation only: handlers build the JSON themselves).

    Every field is always sent, so the spec marks each one required, except those named in
    ``OPTIONAL``. Clients must accept fields they do not know yet (additive changes are free).
    """

    class Meta:
        unknown = INCLUDE

    OPTIONAL: ClassVar[frozenset[str]] = frozenset()


class Component(fields.Raw):
    """A value described by a hand-written component of the spec (a ``oneOf`` of
    :data:`UNIONS`, an enumeration of :data:`ENUMS`): documented as its ``$ref``
    (``allOf: [$ref]`` + ``nullable`` when it may be null)."""

    def __init__(self, component: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.component = component


def tag(value: str) -> fields.String:
    """The field that tells the variants of a ``oneOf`` apart: exactly ``value``."""
    return fields.String(required=True, validate=validate.Equal(value))


def enum(values: Any, **kwargs: Any) -> fields.String:
    return fields.String(validate=validate.OneOf(list(values)), **kwargs)


@dataclass(frozen=True)
class OneOf:
    """A spec component that is one of several schemas, told apart by the field ``key``
    (an OpenAPI ``discriminator``); registered by ``app.db.extensions.ProblemApi``."""

    key: str
    variants: dict[str, type[Schema]]


def one_of(key: str, *schemas: type[Schema]) -> OneOf:
    """The ``OneOf`` of ``schemas``, each mapped by the value of its ``tag`` field ``key``."""
    return OneOf(key, {s._declared_fields[key].validators[0].comparable: s  # type: ignore
                       for s in schemas})


# --- actions (the request body of POST .../actions and the items of legal_actions) -------


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


# --- players -------------------------------------------------------------------------------


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


# --- the match view ------------------------------------------------------------------------

STATUSES = ["waiting", "active", "finished", "cancelled"]
HAND_END_REASONS = ["tricks", "raise_refused", "mao_de_onze_refused", "void", "illegal_call"]
END_REASONS = ["score", "resigned", "timed_out", "cancelled"]
ENUMS.update({"Special": ["mao_de_onze", "mao_de_ferro"], "BotLevel": list(BOT_LEVELS),
              "EndReason": END_REASONS})


class RaisePendingSchema(ResponseSchema):
    kind = tag("raise")
    by_seat = fields.Integer()
    to = fields.Integer(metadata={"description": "the stake if the raise is accepted"})


class MaoDeOnzePendingSchema(ResponseSchema):
    kind = tag("mao_de_onze")
    team = fields.Integer(metadata={"description": "the team on 11, which decides"})


class SummarySeatSchema(ResponseSchema):
    """Who sits at a seat, as a list of matches shows it."""
    seat = fields.Integer()
    team = fields.Integer()
    player = fields.Nested(PlayerPublicSchema, allow_none=True)
    bot_level = Component("BotLevel", allow_none=True)
    invited = fields.Boolean(metadata={
        "description": "the seat is reserved for `player`, who has not accepted yet"})


class SeatSchema(SummarySeatSchema):
    """A seat in the match view: who sits there, with its timeouts and cards."""

    timeouts = fields.Integer(metadata={
        "description": "turn deadlines this seat let pass (each auto-played or forfeited)"})
    timeouts_in_row = fields.Integer(metadata={
        "description": "deadlines passed since its player last acted; at 3 the team forfeits"})
    cards_in_hand = fields.Integer()


class PlaySchema(ResponseSchema):
    seat = fields.Integer()
    card = fields.String(allow_none=True, metadata={"description": "null: face down"})
    face_down = fields.Boolean()


class TrickSchema(ResponseSchema):
    plays = fields.List(fields.Nested(PlaySchema))
    winner_team = fields.Integer(allow_none=True)
    tie = fields.Boolean()


class CallSchema(ResponseSchema):
    """One call of a hand's betting: a raise (`to`) or an answer (`kind` on a mão de onze
    decision)."""

    OPTIONAL = frozenset({"to", "kind"})
    seat = fields.Integer()
    action = enum(["raise", "accept", "refuse"])
    to = fields.Integer(metadata={"description": "a raise: the stake it asks for"})
    kind = enum(["mao_de_onze"], metadata={"description": "a mão de onze decision"})


CALLS = {"description": "the hand's betting so far, in order (public): raises and answers"}


class HandSchema(ResponseSchema):
    OPTIONAL = frozenset({"hands"})
    number = fields.Integer()
    dealer = fields.Integer()
    vira = fields.String(allow_none=True, metadata={"description": "null in mineiro"})
    manilhas = fields.List(fields.String(), metadata={"description": "strongest first"})
    cards = fields.List(fields.String(allow_none=True), allow_none=True, metadata={
        "description": "your cards; null entries when hidden (play by slot); null for a "
                       "spectator"})
    partner_cards = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                                allow_none=True,
                                metadata={"description": "a partner's seat: its cards"})
    stake = fields.Integer()
    special = Component("Special", allow_none=True)
    pending = Component("Pending", allow_none=True)
    calls = fields.List(fields.Nested(CallSchema), metadata=CALLS)
    tricks = fields.List(fields.Nested(TrickSchema))
    to_act = fields.List(fields.Integer())
    hands = fields.List(fields.List(fields.String()), metadata={
        "description": "in a replay, to the match's players only: every seat's cards"})


class LastHandSchema(ResponseSchema):
    number = fields.Integer()
    winner_team = fields.Integer(allow_none=True)
    points = fields.Integer()
    reason = named_enum("HandEndReason", HAND_END_REASONS)
    tricks = fields.List(fields.Nested(TrickSchema))
    calls = fields.List(fields.Nested(CallSchema), metadata=CALLS)


class YouSchema(ResponseSchema):
    seat = fields.Integer()
    team = fields.Integer()


def _option(name: str, **kwargs: Any) -> fields.Field:
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
    **{name: _option(name) for name in OPTION_CHOICES}})


class RulesSchema(ResponseSchema, MatchOptionsSchema):
    """The effective ruleset and options (RULES.md names)."""

    ruleset = named_enum("RulesetName", RULESETS)


class FairnessSchema(ResponseSchema):
    """Scheme truco-commit-v1 (docs/fairness.md); null in a match with fixed deals."""

    scheme = enum(["truco-commit-v1"])
    commitment = fields.String(metadata={"description": "hex SHA-256 of the secret"})
    client_seeds = fields.List(fields.String(allow_none=True), metadata={
        "description": "by seat: your own from the start, everyone's once the match starts; "
                       '"" for none and for bots'})
    secret = fields.String(allow_none=True, metadata={
        "description": "hex, once the match is finished"})


class ReplayQuerySchema(QuerySchema):
    step = QueryInteger(load_default=0, validate=validate.Range(min=0), metadata={
        "description": "0 (before the first event) to `steps` (after the last)"})


class ReplaySchema(ResponseSchema):
    step = fields.Integer()
    steps = fields.Integer(metadata={"description": "the events of the log"})
    view = fields.Nested("MatchViewSchema", metadata={
        "description": "the match after the change that wrote event `step`: to its players "
                       "with every card (`hand.hands`, face-down cards) and no legal actions; "
                       "to anyone else as a spectator saw it"})


class CommitmentSchema(ResponseSchema):
    commitment = fields.String(metadata={"description": "hex SHA-256 of the secret"})
    expires_at = fields.DateTime(metadata={"description": "use it in a create body by then"})
    match_id = fields.String(metadata={
        "description": "the id the match created with it will have (part of the deal key)"})


class MatchViewSchema(ResponseSchema):
    id = fields.String()
    ruleset = named_enum("RulesetName", RULESETS)
    players = fields.Integer()
    target_score = fields.Integer()
    status = named_enum("MatchStatus", STATUSES)
    version = fields.Integer()
    visibility = named_enum("Visibility", ["public", "private"])
    invite_code = fields.String(allow_none=True, metadata={"description": "seated players only"})
    fixed_deals = fields.Boolean()
    start_score = fields.List(fields.Integer())
    turn_timeout = fields.Integer(allow_none=True)
    on_timeout = named_enum("TimeoutPolicy", ["auto_play", "forfeit"])
    deadline = fields.DateTime(allow_none=True)
    seats = fields.List(fields.Nested(SeatSchema))
    score = fields.List(fields.Integer())
    games = fields.List(fields.Integer())
    winner_team = fields.Integer(allow_none=True)
    end_reason = Component("EndReason", allow_none=True, metadata={
        "description": "how the match ended; null until it has"})
    rematch_id = fields.String(allow_none=True, metadata={
        "description": "the rematch of this finished match (POST .../rematch); null until then"})
    fairness = fields.Nested(FairnessSchema, allow_none=True)
    you = fields.Nested(YouSchema, allow_none=True)
    hand = fields.Nested(HandSchema, allow_none=True)
    last_hand = fields.Nested(LastHandSchema, allow_none=True)
    legal_actions = fields.List(Component("Action"), metadata={
        "description": "every complete action body you may send now"})
    rules = fields.Nested(RulesSchema)
    created_at = fields.DateTime()
    updated_at = fields.DateTime()


class MatchSummarySchema(ResponseSchema):
    id = fields.String()
    ruleset = named_enum("RulesetName", RULESETS)
    players = fields.Integer()
    status = named_enum("MatchStatus", STATUSES)
    visibility = named_enum("Visibility", ["public", "private"])
    version = fields.Integer()
    score = fields.List(fields.Integer())
    seats_free = fields.Integer()
    winner_team = fields.Integer(allow_none=True)
    end_reason = Component("EndReason", allow_none=True, metadata={
        "description": "how the match ended; null until it has"})
    seats = fields.List(fields.Nested(SummarySeatSchema), metadata={
        "description": "every seat, in order: who sits there (`player` null: a free seat or "
                       "a built-in bot), as the match view's seats without their cards"})
    to_act = fields.List(fields.Integer(), metadata={
        "description": "the seats that may act now (empty unless the match is active)"})
    you = fields.Nested(YouSchema, allow_none=True)
    your_turn = fields.Boolean(metadata={
        "description": "the match waits for you: your seat may act, or you are invited"})
    invitation = fields.Boolean(metadata={
        "description": "a seat here is reserved for you: join to accept, leave to decline"})
    deadline = fields.DateTime(allow_none=True)
    created_at = fields.DateTime()
    updated_at = fields.DateTime()
    invitation_expires_at = fields.DateTime(allow_none=True, metadata={
        "description": "when your invitation expires (then it is declined for you)"})
    turn_timeout = fields.Integer(allow_none=True, metadata={
        "description": "seconds a seat may take to act; null: no limit"})
    on_timeout = enum(["auto_play", "forfeit"])
    fixed_deals = fields.Boolean(metadata={
        "description": "the deals were fixed at creation (`seed`, `deals` or `start_score`), "
                       "not drawn fairly: a match to think twice about joining"})


class MatchListSchema(ResponseSchema):
    items = fields.List(fields.Nested(MatchSummarySchema))
    next_offset = fields.Integer(allow_none=True,
                                 metadata={"description": "the next page's offset; null: last"})


class InvitationsDeclinedSchema(ResponseSchema):
    declined = fields.Integer(metadata={"description": "how many invitations were declined"})


class BlockedSchema(InvitationsDeclinedSchema):
    player_id = fields.String(metadata={"description": "the player blocked"})


class BlockedPlayerSchema(ResponseSchema):
    player_id = fields.String()
    created_at = fields.DateTime()


class BlockedListSchema(ResponseSchema):
    items = fields.List(fields.Nested(BlockedPlayerSchema))


class MyMatchListSchema(MatchListSchema):
    awaiting = fields.Integer(metadata={
        "description": "how many of your matches wait for your move, whatever the filters "
                       "and the page (invitations are counted apart)"})
    invitations = fields.Integer(metadata={
        "description": "your pending invitations, whatever the filters and the page"})


# --- events (engine/play.py, engine/deal.py, engine/scoring.py, app/play/seats.py) ----------


class EventSchema(ResponseSchema):
    """The fields of every event; each type adds its own."""

    seq = fields.Integer()
    version = fields.Integer()
    at = fields.DateTime()


class PlayerJoinedEventSchema(EventSchema):
    OPTIONAL = frozenset({"player_id", "bot_level"})
    type = tag("player_joined")
    seat = fields.Integer()
    player_id = fields.String(metadata={"description": "a player took the seat"})
    bot_level = Component("BotLevel", metadata={"description": "a built-in bot took the seat"})


class PlayerLeftEventSchema(EventSchema):
    type = tag("player_left")
    seat = fields.Integer()
    player_id = fields.String()


class PlayerInvitedEventSchema(EventSchema):
    type = tag("player_invited")
    seat = fields.Integer(metadata={"description": "the seat reserved for the player"})
    player_id = fields.String()


class InvitationDeclinedEventSchema(EventSchema):
    type = tag("invitation_declined")
    seat = fields.Integer(metadata={"description": "the seat, free again"})
    player_id = fields.String()


class MatchCancelledEventSchema(EventSchema):
    type = tag("match_cancelled")
    end_reason = enum(["cancelled"])


class MatchStartedEventSchema(EventSchema):
    type = tag("match_started")


class HandDealtEventSchema(EventSchema):
    OPTIONAL = frozenset({"cards", "partner_cards", "hands"})
    type = tag("hand_dealt")
    hand = fields.Integer()
    dealer = fields.Integer()
    vira = fields.String(allow_none=True)
    manilhas = fields.List(fields.String())
    special = Component("Special", allow_none=True)
    stake = fields.Integer()
    pending = Component("Pending", allow_none=True)
    eleven_team = fields.Integer(allow_none=True)
    blind = fields.Boolean(metadata={"description": "cards hidden: played by slot"})
    cards = fields.List(fields.String(allow_none=True), allow_none=True, metadata={
        "description": "the viewer's cards (null entries when blind; null for a spectator); "
                       "absent when `hands` is sent"})
    partner_cards = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                                allow_none=True, metadata={"description": "as in the view"})
    hands = fields.List(fields.List(fields.String()), metadata={
        "description": "every seat's cards: in a finished match's log, for its players"})


class CardPlayedEventSchema(EventSchema):
    type = tag("card_played")
    seat = fields.Integer()
    card = fields.String(allow_none=True, metadata={"description": "null: face down"})
    face_down = fields.Boolean()
    trick = fields.Integer(metadata={"description": "1, 2 or 3"})


class TrickWonEventSchema(EventSchema):
    type = tag("trick_won")
    trick = fields.Integer()
    winner_team = fields.Integer()
    seat = fields.Integer(metadata={"description": "the seat that won it (leads next)"})


class TrickTiedEventSchema(EventSchema):
    type = tag("trick_tied")
    trick = fields.Integer()


class RaisedEventSchema(EventSchema):
    type = tag("raised")
    seat = fields.Integer()
    to = fields.Integer()


class RaiseAcceptedEventSchema(EventSchema):
    type = tag("raise_accepted")
    seat = fields.Integer()
    stake = fields.Integer()


class RaiseRefusedEventSchema(EventSchema):
    type = tag("raise_refused")
    seat = fields.Integer()
    team_refused = fields.Boolean(metadata={"description": "the whole team has refused"})


class ElevenDecidedEventSchema(EventSchema):
    type = tag("eleven_decided")
    seat = fields.Integer()
    team = fields.Integer()
    accept = fields.Boolean()
    final = fields.Boolean()


class IllegalCallEventSchema(EventSchema):
    type = tag("illegal_call")
    seat = fields.Integer()


class HandWonEventSchema(EventSchema):
    type = tag("hand_won")
    hand = fields.Integer()
    winner_team = fields.Integer(allow_none=True, metadata={"description": "null: void"})
    points = fields.Integer()
    reason = named_enum("HandEndReason", HAND_END_REASONS)
    score = fields.List(fields.Integer())


class GameWonEventSchema(EventSchema):
    type = tag("game_won")
    winner_team = fields.Integer()
    games = fields.List(fields.Integer())
    score = fields.List(fields.Integer())


class MatchWonEventSchema(EventSchema):
    type = tag("match_won")
    winner_team = fields.Integer()
    score = fields.List(fields.Integer())
    games = fields.List(fields.Integer())
    end_reason = enum(END_REASONS[:3])


class PlayerResignedEventSchema(EventSchema):
    type = tag("player_resigned")
    seat = fields.Integer()
    team = fields.Integer()


class MatchForfeitedEventSchema(EventSchema):
    """A team lost the match by the deadline rule (`on_timeout: forfeit`, or the third
    deadline in a row): follows the seat's `turn_timed_out`."""

    type = tag("match_forfeited")
    team = fields.Integer(metadata={"description": "the team that forfeits"})
    seat = fields.Integer(metadata={"description": "the seat whose deadline passed"})
    reason = enum(["timed_out"])


class TurnTimedOutEventSchema(EventSchema):
    """A turn deadline passed: the seat lost its turn (followed by the action the `easy` bot
    made for it, or by the team's forfeit)."""

    type = tag("turn_timed_out")
    seat = fields.Integer()
    player_id = fields.String(allow_none=True)
    outcome = named_enum("TimeoutPolicy", ["auto_play", "forfeit"])
    abandoned = fields.Boolean(metadata={"description": "the third deadline in a row"})
    timeouts_in_row = fields.Integer()


class DealsRevealedEventSchema(EventSchema):
    """The match is finished: its secret, to check every deal (docs/fairness.md); the last
    event of the log."""

    type = tag("deals_revealed")
    secret = fields.String()


class DeadlineSetEventSchema(EventSchema):
    """A new turn deadline for the seats to act (matches with a `turn_timeout`)."""

    type = tag("deadline_set")
    seats = fields.List(fields.Integer())
    deadline = fields.DateTime()


class EventPageSchema(ResponseSchema):
    items = fields.List(Component("Event"))
    next_after = fields.Integer()


# --- rulesets ------------------------------------------------------------------------------


def _choices(name: str, default: fields.Field, values: fields.Field) -> fields.Nested:
    """``{"values", "default"}`` of option ``name`` in /v1/rulesets: its own typed schema."""
    schema = type(f"{pascal(name)}ChoicesSchema", (ResponseSchema,),
                  {"values": values, "default": default})
    return fields.Nested(schema)


RulesetOptionsSchema = type("RulesetOptionsSchema", (ResponseSchema,), {
    "first_dealer": _choices("first_dealer", fields.Raw(metadata=FIRST_DEALER),
                             fields.List(fields.String(), metadata={"description": "sentences"})),
    "iron_hand_value": _choices("iron_hand_value", fields.Integer(), fields.String(
        metadata={"description": "a sentence"})),
    **{name: _choices(name, _option(name), fields.List(_option(name)))
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


# --- problems (app.http.errors.problem builds them) -------------------------------------------


class ValidationProblemSchema(ProblemSchema):
    code = tag("validation_error")
    errors = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "each invalid field (`_body` for the body as a whole): its messages"})


class IllegalActionProblemSchema(ProblemSchema):
    code = tag("illegal_action")
    reason = fields.String(required=True, metadata={
        "description": "not_your_turn, card_not_in_hand, raise_pending, decision_pending, "
                       "raise_not_allowed, face_down_not_allowed, nothing_to_answer, "
                       "slot_required, must_play_highest..."})
    legal_actions = fields.List(Component("Action"), required=True)


class VersionMismatchProblemSchema(ProblemSchema):
    code = tag("version_mismatch")
    current = fields.Nested(MatchViewSchema, required=True,
                            metadata={"description": "the match as you see it now"})


class RateLimitedProblemSchema(ProblemSchema):
    code = tag("rate_limited")
    retry_after = fields.Integer(required=True,
                                 metadata={"description": "seconds; also in Retry-After"})


def any_problem(*schemas: type[ProblemSchema]) -> dict[str, Any]:
    """The body of an error response that can be any of these problems (the first that
    fits: a generic ``Problem`` last)."""
    return {"anyOf": list(schemas)}


UNPROCESSABLE = any_problem(ValidationProblemSchema, ProblemSchema)


# --- the oneOf components ------------------------------------------------------------------

UNIONS: dict[str, OneOf] = {
    "Action": one_of("type", PlayActionSchema, RaiseActionSchema, AcceptActionSchema,
                     RefuseActionSchema),
    "Pending": one_of("kind", RaisePendingSchema, MaoDeOnzePendingSchema),
    "Event": one_of("type", PlayerJoinedEventSchema, PlayerLeftEventSchema,
                    PlayerInvitedEventSchema, InvitationDeclinedEventSchema,
                    MatchCancelledEventSchema, MatchStartedEventSchema, HandDealtEventSchema,
                    CardPlayedEventSchema, TrickWonEventSchema, TrickTiedEventSchema,
                    RaisedEventSchema, RaiseAcceptedEventSchema, RaiseRefusedEventSchema,
                    ElevenDecidedEventSchema, IllegalCallEventSchema, HandWonEventSchema,
                    GameWonEventSchema, MatchWonEventSchema, PlayerResignedEventSchema,
                    TurnTimedOutEventSchema, DeadlineSetEventSchema,
                    MatchForfeitedEventSchema, DealsRevealedEventSchema),
}

# --- response headers (components/headers) -------------------------------------------------

HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {"description": "this representation's tag, for If-None-Match and If-Match",
             "schema": {"type": "string"}},
    "Location": {"description": "the URL of what was created", "schema": {"type": "string"}},
    "Retry-After": {"description": "seconds to wait before trying again",
                    "schema": {"type": "integer"}},
    "Idempotent-Replayed": {"description": "`true`: the stored answer of an earlier request "
                                           "with this Idempotency-Key; nothing was done again",
                            "schema": {"type": "string", "enum": ["true"]}},
}


def headers(*names: str) -> dict[str, str]:
    """Response headers for ``@blp.response(headers=...)``: references to HEADERS."""
    return {name: name for name in names}


# --- documentation fragments for @blp.doc -----------------------------------------------

def documented(wrapper: Any, view: Any, fragment: dict[str, Any]) -> None:
    """Give `wrapper` (a decorator's function around `view`) `view`'s OpenAPI documentation
    with `fragment` merged in, as ``@blp.doc`` would."""
    apidoc = deepcopy(getattr(view, "_apidoc", {}))
    apidoc["manual_doc"] = deepupdate(apidoc.get("manual_doc", {}), deepcopy(fragment))
    wrapper._apidoc = apidoc


def problems(described: dict[int, str]) -> dict[str, Any]:
    """``@blp.doc`` responses: each status an ``application/problem+json`` problem, described
    by the codes it carries."""
    return {"responses": {str(status): {
        "description": description,
        "content": {PROBLEM_MIMETYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        for status, description in described.items()}}


AUTH_REQUIRED: dict[str, Any] = {
    "security": [{"bearerAuth": []}],
    **problems({401: "no token, or an unknown or malformed one (code unauthorized)"})}
AUTH_OPTIONAL: dict[str, Any] = {
    "security": [{}, {"bearerAuth": []}],
    **problems({401: "a token that is unknown or malformed (code unauthorized); without "
                     "one, the answer is a spectator's"})}


def header_param(name: str, description: str, **schema: Any) -> dict[str, Any]:
    return {"in": "header", "name": name, "required": False, "description": description,
            "schema": {"type": "string", **schema}}


IF_NONE_MATCH = header_param("If-None-Match", "an ETag from an earlier answer: 304 when "
                             "unchanged; with `wait`, hold the request until it changes")
IF_NONE_MATCH_NOW = header_param("If-None-Match", "an ETag from an earlier answer: 304 when "
                                 "the answer would be the same")
IF_MATCH = header_param("If-Match", "apply only if the match still has this ETag, "
                        "else 412 version_mismatch with the current view")
IDEMPOTENCY_KEY = header_param("Idempotency-Key", "1 to 255 characters; a repeat with the "
                               "same body returns the stored answer and acts once",
                               minLength=1, maxLength=255)


def not_modified_doc(description: str) -> dict[str, Any]:
    """``@blp.alt_response(304, **not_modified_doc(...))`` of a conditional GET: declared as an
    empty text body, so that generated clients type it (``str``) rather than ``Any``."""
    return {"description": description, "headers": headers("ETag"), "content_type": "text/plain",
            "schema": {"type": "string", "maxLength": 0, "description": "no body"}}


def links(statuses: tuple[int, ...], parameter: str, operations: tuple[str, ...]
          ) -> dict[str, Any]:
    """``@blp.doc(**links(...))``: OpenAPI links from the answers `statuses` (as
    ``@blp.response`` names them: integers) to each of `operations` (operationIds), its path
    parameter `parameter` being the answer's `id`. Clients and testers (schemathesis) follow
    them from a created resource to what can be done with it."""
    found = {op[0].upper() + op[1:]: {
        "operationId": op, "parameters": {parameter: "$response.body#/id"},
        "description": f"`id` is the `{parameter}` of {op}"} for op in operations}
    return {"responses": {status: {"links": found} for status in statuses}}


MATCH_OPERATIONS = ("getMatch", "listEvents", "streamMatch", "sendAction", "joinMatch",
                    "leaveMatch", "resignMatch", "createRematch", "getReplay")
"""Where a match made (created, or a rematch) leads, by its `id`."""


def examples(bodies: dict[str, Any]) -> dict[str, Any]:
    """Named request examples for ``@blp.arguments(examples=...)``: every one is accepted."""
    return {name: {"value": body} for name, body in bodies.items()}


ACTION_BODY: dict[str, Any] = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": {"$ref": "#/components/schemas/Action"},
                         "examples": examples(ACTION_EXAMPLES)}}}}
"""The actions' request body as the ``Action`` oneOf (``ActionSchema`` loads it)."""

PLAYER_EXAMPLES = {"person": {"name": "ana", "bot": False}, "bot": {"name": "bip", "bot": True}}
MATCH_EXAMPLES: dict[str, Any] = {
    "four_players_two_bots": {
        "ruleset": "paulista", "players": 4, "seat": 0, "visibility": "public",
        "bots": [{"seat": 1, "level": "random"}, {"seat": 3, "level": "random"}],
        "options": {"response_mode": "any_accept_all_refuse"}},
    "private_two_players": {"players": 2, "visibility": "private"},
    "practice_mao_de_onze": {
        "players": 2, "bots": [{"seat": 1, "level": "random"}], "start_score": [11, 5],
        "deals": [{"vira": "6d", "hands": [["7c", "3h", "4s"], ["Kd", "2s", "Ah"]]}]},
}
JOIN_EXAMPLES: dict[str, Any] = {"first_free_seat": {}, "seat": {"seat": 1}}
