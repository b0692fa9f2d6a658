"""How likely a determinized world is, given the other seats' choices the seat has seen.

A uniform deal of the unseen cards ignores what the opponents' choices say about their cards:
a caller usually holds good cards, and a seat that played a low card into a trick it could
have won cheaply probably could not. Each world is weighted by how well it explains those
choices under a simple model of play (the easy rules): every opponent card play this hand that
the model would not have made with that world's cards, and a pending call the model would not
have made, multiplies the weight by a constant below 1. Nothing is excluded outright: people
and other bots play differently, and bluff.
"""
from __future__ import annotations

from ..cards import strengths
from ..legal import is_blind
from ..state import MatchState
from .cardplay import choose_card, easy_calls

UNLIKELY_CALL = 0.15
"""Weight factor of a world in which the pending call was made on cards the model would not
call on."""
UNLIKELY_PLAY = 0.15
"""Weight factor for each opponent card play the model would not have made in the world."""


def world_weight(world: MatchState, seat: int) -> float:
    """The relative likelihood of `world` for `seat` (1.0 when every choice fits the model)."""
    h = world.hand
    if is_blind(world):
        return 1.0
    table = strengths(world.ruleset, h.vira)
    weight = 1.0
    pending = h.pending
    if pending is not None and pending["kind"] == "raise" and pending["by_seat"] % 2 != seat % 2:
        caller = int(pending["by_seat"])
        results = [t.winner_team for t in h.tricks if t.done]
        if not easy_calls(h.hands[caller], table, results, caller % 2):
            weight *= UNLIKELY_CALL
    forced = world.options.force_highest_after_first_tie and h.tricks[0].done and h.tricks[0].tie
    held = {s: list(cards) for s, cards in enumerate(h.hands)}
    for t_index in range(len(h.tricks) - 1, -1, -1):
        trick = h.tricks[t_index]
        for p_index in range(len(trick.plays) - 1, -1, -1):
            player, card, face_down = trick.plays[p_index]
            held[player].append(card)  # the hand it held when it played this card
            if player % 2 == seat % 2 or face_down:
                continue
            cards = held[player]
            if forced and t_index > 0:
                top = max(table[c] for c in cards)
                cards = [c for c in cards if table[c] == top]
            results = [t.winner_team for t in h.tricks[:t_index]]
            choice = choose_card(cards, table, trick.plays[:p_index], player, results)
            if table[choice.card] != table[card]:
                weight *= UNLIKELY_PLAY
    return weight
