"""The hard bot's playouts: every seat of a determinized world plays the easy rule from what it
would see (its own cards, its partners' when shown, the table; never the world's other hidden
cards), to the end of the hand, except that with 4 players it covers a partner's weak winning
card (cover_weak_partner)."""
from __future__ import annotations

import random
from typing import Any

from ..cards import strengths
from ..knowledge import partners_seen
from ..legal import is_blind, legal_actions
from ..play import apply
from ..state import MatchState
from .cardplay import opponents_after, table_top
from .easy import Sight, easy_rule
from .observation import play_action, playable_cards

CALL_ODDS = 1.0
"""How often a playout seat makes a call the easy rule allows. Every time: with it and
beliefs.UNLIKELY_PLAY at 0.5 the level beats its earlier self (0.8 and 0.15) in 54.8% of
duplicate matches at 120 playouts, 54.5% of 1,680 at the default 360 (docs/decisions/0011,
0012); the two were measured together, not apart."""

COVER_BELOW = 9
"""With partners, a playout seat whose partner holds the trick with a card weaker than this
(a 2) while an opponent still plays after it covers with its cheapest card above, where the
easy rule dumps its lowest: 52.5% of 1,280 four-player matches against the `hard` without it
at 120 playouts; thresholds 10 and 11 measured level (docs/decisions/0023)."""
COVER_PLAYERS = 4
"""The table size whose playout seats cover: with 6 players the same cover measured 47.5% of
1,280 matches against the `hard` without it, and 48.5% when only the last partner to play
covers (docs/decisions/0024)."""


def cover_weak_partner(seen: Sight, players: int, action: dict[str, Any]) -> dict[str, Any]:
    """`action` (the easy rule's), or the cheapest card above a partner's weak winning card
    when an opponent plays after `seen.seat` in the trick (COVER_BELOW), at a table of
    COVER_PLAYERS."""
    if players != COVER_PLAYERS or action["type"] != "play" or seen.cards is None \
            or not seen.plays:
        return action
    top, teams = table_top(seen.plays, seen.strength)
    team = seen.seat % 2
    if teams != {team} or top >= COVER_BELOW:
        return action
    if not opponents_after(seen.seat, players, len(seen.plays)):
        return action
    above = [c for c in playable_cards(seen.legal) if seen.strength[c] > top]
    return play_action(seen.legal, min(above, key=seen.strength.__getitem__)) if above else action


def sight(state: MatchState, seat: int) -> Sight:
    """What `seat` sees of `state`, as the easy rule reads it (the same as off its view)."""
    h = state.hand
    shown = partners_seen(state.players, h.eleven_team, seat)
    return Sight(seat, legal_actions(state, seat), None if is_blind(state) else h.hands[seat],
                 [h.hands[p] for p in shown], strengths(state.ruleset, h.vira),
                 h.tricks[-1].plays, [t.winner_team for t in h.tricks if t.done], h.pending)


def policy(state: MatchState, seat: int, rng: random.Random,
           calls: bool = True) -> dict[str, Any]:
    """The easy rule's decision for `seat` with a weak partner covered (cover_weak_partner),
    its calls made with chance CALL_ODDS; without `calls` nobody calls and every question is
    accepted (to measure card strength alone)."""
    if not calls and state.hand.pending is not None:
        return {"type": "accept"}
    seen = sight(state, seat)
    return cover_weak_partner(seen, state.players,
                              easy_rule(seen, rng, CALL_ODDS if calls else 0.0))


def play_out_hand(state: MatchState, rng: random.Random, calls: bool = True,
                  hand: int | None = None) -> MatchState:
    """`state` after hand number `hand` (by default its current one) is played to the end by
    `policy`; a state already past that hand is returned as it is."""
    number = state.hand.number if hand is None else hand
    while state.status == "active" and state.hand.number == number:
        seat = state.hand.to_act[0]
        state, _ = apply(state, seat, policy(state, seat, rng, calls))
    return state
