"""The events the engine emits, one typed definition each (API.md "Event types").

`apply`, `resign`, `forfeit` and `new_match` build exactly these; the app stores them and adds
`seq`, `version` and `at`. A field that is NotRequired is absent from some form of the event
(`redact_event`). tests/contract/test_event_types.py holds each equal to its schema in the API spec.
"""
# (no `from __future__ import annotations`: TypedDict must see NotRequired at run time)
from typing import Any, Literal, NotRequired, TypedDict, Union

HandEndReason = Literal["tricks", "raise_refused", "mao_de_onze_refused", "void", "illegal_call"]
"""How a hand ended (`hand_won.reason`, `last_hand.reason`)."""
MatchEndReason = Literal["score", "resigned", "timed_out"]
"""How the engine ends a match (`match_won.end_reason`)."""


class HandDealt(TypedDict):
    type: Literal["hand_dealt"]
    hand: int
    dealer: int
    vira: str | None
    manilhas: list[str]
    special: str | None
    stake: int
    pending: dict[str, Any] | None
    eleven_team: int | None
    blind: bool
    hands: NotRequired[list[list[str]]]
    """Every seat's cards: always as emitted; redacted away for a match still played."""
    cards: NotRequired[list[str | None] | None]
    """The viewer's cards: in the redacted form, and beside `hands` in a finished match's log
    (face up there even for a blind hand)."""
    partner_cards: NotRequired[dict[str, list[str]] | None]
    """The partners' hands the viewer saw in play (a mão de onze), in the redacted form and in a
    finished match's log."""


class CardPlayed(TypedDict):
    type: Literal["card_played"]
    seat: int
    card: str | None
    """None only where redacted: a face-down card another seat played."""
    face_down: bool
    trick: int


class TrickWon(TypedDict):
    type: Literal["trick_won"]
    trick: int
    winner_team: int
    seat: int


class TrickTied(TypedDict):
    type: Literal["trick_tied"]
    trick: int


class Raised(TypedDict):
    type: Literal["raised"]
    seat: int
    to: int


class RaiseAccepted(TypedDict):
    type: Literal["raise_accepted"]
    seat: int
    stake: int


class RaiseRefused(TypedDict):
    type: Literal["raise_refused"]
    seat: int
    team_refused: bool


class ElevenDecided(TypedDict):
    type: Literal["eleven_decided"]
    seat: int
    team: int
    accept: bool
    final: bool


class IllegalCall(TypedDict):
    type: Literal["illegal_call"]
    seat: int


class HandWon(TypedDict):
    type: Literal["hand_won"]
    hand: int
    winner_team: int | None
    points: int
    reason: HandEndReason
    score: list[int]


class GameWon(TypedDict):
    type: Literal["game_won"]
    winner_team: int
    games: list[int]
    score: list[int]


class MatchWon(TypedDict):
    type: Literal["match_won"]
    winner_team: int
    score: list[int]
    games: list[int]
    end_reason: MatchEndReason


class PlayerResigned(TypedDict):
    type: Literal["player_resigned"]
    seat: int
    team: int


class MatchForfeited(TypedDict):
    type: Literal["match_forfeited"]
    team: int
    seat: int
    reason: Literal["timed_out"]


Event = Union[HandDealt, CardPlayed, TrickWon, TrickTied, Raised, RaiseAccepted, RaiseRefused,
              ElevenDecided, IllegalCall, HandWon, GameWon, MatchWon, PlayerResigned,
              MatchForfeited]
"""Any event the engine emits, told apart by its `type`."""
