"""What one seat, or a spectator, may know: the match view and redacted events (API.md)."""
from __future__ import annotations

from typing import Any

from .cards import manilhas
from .events import Event, HandDealt
from .knowledge import partners_seen, play_seen, sees_everything
from .legal import is_blind, legal_actions
from .rules import TARGET_SCORE
from .state import MatchState


def _redact_tricks(tricks: list[dict[str, Any]],
                   viewer: int | None) -> list[dict[str, Any]]:
    """Table tricks as `viewer` sees them: a face-down card only to the seat that played it."""
    return [{**t, "plays": [p if play_seen(p["seat"], p["face_down"], viewer)
                            else {**p, "card": None} for p in t["plays"]]} for t in tricks]


def view(state: MatchState, seat: int | None, open_cards: bool = False) -> dict[str, Any]:
    """The match as `seat` (None: a spectator) may see it; never a card it may not know.
    `open_cards`: as a player sees it once the match is over (its replay): every card, the
    hands of every seat in `hand.hands`, no legal actions (knowledge.sees_everything decides
    who may)."""
    h = state.hand
    cards: list[str | None] | None = None
    open_cards = open_cards and sees_everything(seat, finished=True)
    if seat is not None:
        cards = [None] * len(h.hands[seat]) if is_blind(state) and not open_cards \
            else list(h.hands[seat])
    partners = partners_seen(state.players, h.eleven_team, seat)
    hand: dict[str, Any] = {
        "number": h.number, "dealer": h.dealer, "vira": h.vira,
        "manilhas": list(manilhas(state.ruleset, h.vira)),
        "cards": cards,
        "partner_cards": {str(p): list(h.hands[p]) for p in partners} if partners else None,
        "stake": h.stake, "special": h.special,
        "pending": dict(h.pending) if h.pending else None,
        "calls": [dict(c) for c in h.calls],
        "tricks": [t.as_table() for t in h.tricks if t.plays],
        "to_act": list(h.to_act),
    }
    if open_cards:
        hand["hands"] = [list(x) for x in h.hands]
    else:
        hand["tricks"] = _redact_tricks(hand["tricks"], seat)
    return {
        "ruleset": state.ruleset, "players": state.players, "target_score": TARGET_SCORE,
        "rules": {"ruleset": state.ruleset, **state.options.to_dict()},
        "status": state.status, "score": list(state.score), "games": list(state.games),
        "winner_team": state.winner_team,
        "you": None if seat is None else {"seat": seat, "team": seat % 2},
        "hand": hand,
        "last_hand": None if state.last_hand is None else {
            **state.last_hand, "tricks": state.last_hand["tricks"] if open_cards
            else _redact_tricks(state.last_hand["tricks"], seat),
            "calls": [dict(c) for c in state.last_hand.get("calls", [])]},
        "legal_actions": [] if seat is None or open_cards else legal_actions(state, seat),
        "cards_in_hand": [len(c) for c in h.hands],
    }


def redact_event(event: Event, seat: int | None, finished: bool) -> Event:
    """`event` as `seat` may see it; a finished match's players see the whole log (a
    `hand_dealt` then keeps `cards` and `partner_cards` as in play, with every seat's `hands`
    beside them, so a client reads one shape before and after the end)."""
    if sees_everything(seat, finished):
        if event["type"] != "hand_dealt":
            return event
        assert seat is not None
        hands = event["hands"]
        partners = partners_seen(len(hands), event["eleven_team"], seat)
        opened: HandDealt = {
            **event, "cards": list(hands[seat]),
            "partner_cards": {str(p): list(hands[p]) for p in partners} if partners else None}
        return opened
    if event["type"] == "card_played":
        if play_seen(event["seat"], event["face_down"], seat):
            return event
        return {**event, "card": None}
    if event["type"] != "hand_dealt":
        return event
    hands = event["hands"]
    partners = partners_seen(len(hands), event["eleven_team"], seat)
    out: HandDealt = {
        **event,
        "cards": None if seat is None else ([None] * 3 if event["blind"] else list(hands[seat])),
        "partner_cards": {str(p): list(hands[p]) for p in partners} if partners else None}
    del out["hands"]
    return out
