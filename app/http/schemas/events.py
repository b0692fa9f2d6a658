"""The event log's entries, one schema per type (engine/play.py, engine/deal.py,
engine/scoring.py, app/play/seats.py write them)."""
from __future__ import annotations

from marshmallow import fields

from app.http.schemas.base import Component, ResponseSchema, enum, named_enum, tag
from app.http.schemas.views import END_REASONS, HAND_END_REASONS


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
