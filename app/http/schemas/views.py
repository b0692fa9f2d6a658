"""The match view, the match summaries of the lists, and what hangs off a match (its
fairness, replay and commitment)."""
from __future__ import annotations

from marshmallow import fields

from app.http.schemas.base import ENUMS, Component, ResponseSchema, enum, named_enum, tag
from app.http.schemas.options import MatchOptionsSchema
from app.http.schemas.players import PlayerPublicSchema
from engine import RULESETS
from engine.bots import BOT_LEVELS

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


class RulesSchema(ResponseSchema, MatchOptionsSchema):  # type: ignore[misc]  # made by type()
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
