"""The hard bot's playouts: every seat of a determinized world plays the easy rules from its
own cards and the table only (never the world's other hidden cards), to the end of the hand."""
from __future__ import annotations

import random
from typing import Any

from ..cards import strengths
from ..legal import is_blind, legal_actions
from ..play import apply
from ..state import MatchState
from .cardplay import choose_card, easy_calls, simple_strength, strong_cards

CALL_ODDS = 0.8
"""How often a playout seat makes a call the easy rule allows (some variety among worlds)."""


def policy(state: MatchState, seat: int, rng: random.Random,
           calls: bool = True) -> dict[str, Any]:
    """The easy level's decision for `seat`, read straight off the state for speed; without
    `calls` nobody calls and every question is accepted (to measure card strength alone)."""
    legal = legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    h = state.hand
    table = strengths(state.ruleset, h.vira)
    cards = h.hands[seat]
    team = seat % 2
    results = [t.winner_team for t in h.tricks if t.done]
    if h.pending is not None:
        if not calls:
            return legal[0]
        if h.pending["kind"] == "mao_de_onze":
            return legal[0] if strong_cards(cards, table) >= 1 else legal[1]
        good = simple_strength(cards, table, results, team)
        if good >= 3 and len(legal) == 3:
            return legal[2]
        return legal[0] if good >= 1 else legal[1]
    if is_blind(state):
        return rng.choice(legal)
    if calls and legal[-1]["type"] == "raise" and easy_calls(cards, table, results, team) \
            and rng.random() < CALL_ODDS:
        return legal[-1]
    playable = [a["card"] for a in legal if a["type"] == "play" and not a.get("face_down")]
    plays: list[tuple[int, str | None, bool]] = list(h.tricks[-1].plays)
    choice = choose_card(playable, table, plays, seat, results)
    return {"type": "play", "card": choice.card}


def play_out_hand(state: MatchState, rng: random.Random, calls: bool = True) -> MatchState:
    """`state` after its current hand is played to the end by `policy`."""
    number = state.hand.number
    while state.status == "active" and state.hand.number == number:
        seat = state.hand.to_act[0]
        state, _ = apply(state, seat, policy(state, seat, rng, calls))
    return state
