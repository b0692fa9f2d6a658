"""Request and response schemas: they validate input and are the source of openapi.yaml."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar

from marshmallow import EXCLUDE, INCLUDE, Schema, ValidationError, fields, validate, validates

from app.errors import ProblemSchema
from engine import OPTION_CHOICES, OPTION_DEFAULTS, PLAYER_COUNTS, RULESETS
from engine.bots import BOT_LEVELS

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


class InviteSchema(Schema):
    seat = fields.Integer(required=True, validate=SEAT_RANGE, **STRICT_INT)
    player_id = fields.String(required=True, validate=validate.Length(1, 32))


class DealSchema(Schema):
    vira = fields.String(allow_none=True, load_default=None)
    hands = fields.List(fields.List(fields.String()), required=True)


class MatchCreateSchema(Schema):
    ruleset = fields.String(load_default="paulista", validate=validate.OneOf(list(RULESETS)))
    players = fields.Integer(load_default=2, validate=validate.OneOf(PLAYER_COUNTS), **STRICT_INT)
    target_score = fields.Integer(load_default=12, validate=validate.Equal(12), **STRICT_INT)
    seat = fields.Integer(load_default=None, allow_none=True, validate=SEAT_RANGE, **STRICT_INT)
    bots = fields.List(fields.Nested(BotSeatSchema), load_default=list)
    invite = fields.List(fields.Nested(InviteSchema), load_default=list, metadata={
        "description": "seats reserved for named players: each finds the invitation in "
                       "GET /v1/me/matches, accepts by joining and declines by leaving"})
    visibility = fields.String(load_default="public",
                               validate=validate.OneOf(["public", "private"]))
    turn_timeout = fields.Integer(
        load_default=None, allow_none=True, validate=validate.Range(10, MAX_TURN_TIMEOUT),
        metadata={"description": "seconds each player has to act (10 s to 14 days), or null for "
                                 "no limit; see on_timeout"},
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
    """Loads every kind of action at once (the engine checks each kind's fields); the spec
    documents the body as the ``Action`` oneOf of :data:`UNIONS` instead."""

    type = fields.String(required=True,
                         validate=validate.OneOf(["play", "raise", "accept", "refuse"]))
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
    ruleset = fields.String(validate=validate.OneOf(list(RULESETS)))
    players = QueryInteger(validate=validate.OneOf(PLAYER_COUNTS))


class MyMatchesQuerySchema(WaitQuerySchema):
    status = fields.String(validate=validate.OneOf(["waiting", "active", "finished", "cancelled"]))
    your_turn = fields.Boolean()
    limit = QueryInteger(load_default=50, validate=validate.Range(1, 200))
    offset = QueryInteger(load_default=0, validate=validate.Range(0, MAX_OFFSET))


# --- documentation building blocks ------------------------------------------------------
# The spec is generated from these schemas by apispec, with the conversions of
# ``app.extensions.TypedConverter`` (required response fields, nullable $refs, components).


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
    (an OpenAPI ``discriminator``); registered by ``app.extensions.ProblemApi``."""

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
    bot = fields.Boolean()
    created_at = fields.DateTime()


class PlayerStatsSchema(ResponseSchema):
    matches = fields.Integer()
    active = fields.Integer()
    finished = fields.Integer()
    won = fields.Integer()
    lost = fields.Integer()


class PlayerProfileSchema(PlayerPublicSchema):
    stats = fields.Nested(PlayerStatsSchema)


class PlayerCreatedSchema(PlayerPublicSchema):
    token = fields.String(metadata={"description": "shown only here; send as Bearer token"})


# --- the match view ------------------------------------------------------------------------

STATUSES = ["waiting", "active", "finished", "cancelled"]
HAND_END_REASONS = ["tricks", "raise_refused", "mao_de_onze_refused", "void", "illegal_call"]
ENUMS: dict[str, list[str]] = {"Special": ["mao_de_onze", "mao_de_ferro"],
                               "BotLevel": list(BOT_LEVELS)}
"""Enumerations that are components, so that a nullable one is ``allOf: [$ref]`` +
``nullable`` (an inline ``enum`` with ``null`` becomes several enum types in generators)."""


class RaisePendingSchema(ResponseSchema):
    kind = tag("raise")
    by_seat = fields.Integer()
    to = fields.Integer(metadata={"description": "the stake if the raise is accepted"})


class MaoDeOnzePendingSchema(ResponseSchema):
    kind = tag("mao_de_onze")
    team = fields.Integer(metadata={"description": "the team on 11, which decides"})


class SeatSchema(ResponseSchema):
    seat = fields.Integer()
    team = fields.Integer()
    player = fields.Nested(PlayerPublicSchema, allow_none=True)
    bot_level = Component("BotLevel", allow_none=True)
    invited = fields.Boolean(metadata={
        "description": "the seat is reserved for `player`, who has not accepted yet"})
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


class HandSchema(ResponseSchema):
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
    tricks = fields.List(fields.Nested(TrickSchema))
    to_act = fields.List(fields.Integer())


class LastHandSchema(ResponseSchema):
    number = fields.Integer()
    winner_team = fields.Integer(allow_none=True)
    points = fields.Integer()
    reason = enum(HAND_END_REASONS)
    tricks = fields.List(fields.Nested(TrickSchema))


class YouSchema(ResponseSchema):
    seat = fields.Integer()
    team = fields.Integer()


def _option(name: str, **kwargs: Any) -> fields.Field:
    values = OPTION_CHOICES[name]
    if all(isinstance(v, bool) for v in values):
        return fields.Boolean()
    if all(isinstance(v, str) for v in values):
        return enum(values)
    if None in values:
        return fields.Integer(allow_none=True, metadata={"description": f"null or {values[1]}"})
    return fields.Integer(validate=validate.OneOf(values))


class RulesSchema(ResponseSchema):
    """The effective ruleset and options (RULES.md names)."""

    ruleset = enum(RULESETS)
    first_dealer = fields.Raw(metadata={
        "oneOf": [{"type": "string", "enum": ["random"]}, {"type": "integer"}]})
    tie_leader = _option("tie_leader")
    all_ties = _option("all_ties")
    response_mode = _option("response_mode")
    raise_cap = _option("raise_cap")
    iron_hand_blind = _option("iron_hand_blind")
    iron_hand_value = fields.Integer()
    face_down = _option("face_down")
    face_down_after_tie = _option("face_down_after_tie")
    max_face_down_per_team_per_trick = _option("max_face_down_per_team_per_trick")
    force_highest_after_first_tie = _option("force_highest_after_first_tie")
    illegal_call_policy = _option("illegal_call_policy")
    games_to_win = _option("games_to_win")


class MatchViewSchema(ResponseSchema):
    id = fields.String()
    ruleset = enum(RULESETS)
    players = fields.Integer()
    target_score = fields.Integer()
    status = enum(STATUSES)
    version = fields.Integer()
    visibility = enum(["public", "private"])
    invite_code = fields.String(allow_none=True, metadata={"description": "seated players only"})
    fixed_deals = fields.Boolean()
    start_score = fields.List(fields.Integer())
    turn_timeout = fields.Integer(allow_none=True)
    on_timeout = enum(["auto_play", "forfeit"])
    deadline = fields.DateTime(allow_none=True)
    seats = fields.List(fields.Nested(SeatSchema))
    score = fields.List(fields.Integer())
    games = fields.List(fields.Integer())
    winner_team = fields.Integer(allow_none=True)
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
    ruleset = enum(RULESETS)
    players = fields.Integer()
    status = enum(STATUSES)
    visibility = enum(["public", "private"])
    version = fields.Integer()
    score = fields.List(fields.Integer())
    seats_free = fields.Integer()
    winner_team = fields.Integer(allow_none=True)
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


# --- events (engine/play.py, engine/deal.py, engine/scoring.py, app/matches.py) ----------


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
    reason = enum(HAND_END_REASONS)
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


class PlayerResignedEventSchema(EventSchema):
    type = tag("player_resigned")
    seat = fields.Integer()
    team = fields.Integer()


class TurnTimedOutEventSchema(EventSchema):
    """A turn deadline passed: the seat lost its turn (followed by the action the `easy` bot
    made for it, or by the team's forfeit)."""

    type = tag("turn_timed_out")
    seat = fields.Integer()
    player_id = fields.String(allow_none=True)
    outcome = enum(["auto_play", "forfeit"])
    abandoned = fields.Boolean(metadata={"description": "the third deadline in a row"})
    timeouts_in_row = fields.Integer()


class DeadlineSetEventSchema(EventSchema):
    """A new turn deadline for the seats to act (matches with a `turn_timeout`)."""

    type = tag("deadline_set")
    seats = fields.List(fields.Integer())
    deadline = fields.DateTime()


class EventPageSchema(ResponseSchema):
    items = fields.List(Component("Event"))
    next_after = fields.Integer()


# --- rulesets ------------------------------------------------------------------------------


class OptionChoicesSchema(ResponseSchema):
    values = fields.Raw(metadata={"description": "the accepted values, or a sentence"})
    default = fields.Raw(metadata={"description": "any JSON value, null included"})


class RulesetSchema(ResponseSchema):
    name = enum(RULESETS)
    base_value = fields.Integer()
    ladder = fields.List(fields.Integer())
    special_hand_at = fields.Integer()
    mao_de_onze_stake = fields.Integer()
    mao_de_onze_refused_award = fields.Integer()
    options = fields.Dict(keys=fields.String(), values=fields.Nested(OptionChoicesSchema))


class RulesetListSchema(ResponseSchema):
    items = fields.List(fields.Nested(RulesetSchema))
    bot_levels = fields.List(fields.String())


# --- problems (app.errors.problem builds them) -------------------------------------------


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
                    TurnTimedOutEventSchema, DeadlineSetEventSchema),
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
