"""How likely a determinized world is, given the other seats' choices the seat has seen.

A uniform deal of the unseen cards ignores what the opponents' choices say about their cards:
a caller usually holds good cards, and a seat that played a low card into a trick it could
have won cheaply probably could not. Each world is weighted by how well it explains those
choices under a simple model of play (the easy rules): every opponent card play this hand that
the model would not have made with that world's cards, and every opponent call of the hand
(`hand.calls`: a raise, or an accepted call) the model would not have made with the cards that
opponent was dealt, multiplies the weight by a constant below 1. Nothing is excluded
outright: people and other bots play differently, and bluff.
"""
from __future__ import annotations

from ..cards import strengths
from ..legal import forced_highest, is_blind, strongest
from ..state import MatchState
from .cardplay import choose_card, easy_calls, simple_strength

UNLIKELY_CALL = 0.15
"""Weight factor of a world in which the pending call was made on cards the model would not
call on."""
UNLIKELY_PLAY = 0.5
"""Weight factor for each opponent card play the model would not have made in the world. Mild:
a searching opponent or a person often plays a card the easy rule would not (0.15 reads easy
exactly; 0.5, with playout.CALL_ODDS at 1.0, beats the level's earlier self, decision 0011)."""
UNLIKELY_ACCEPT = 0.4
"""Weight factor of a world in which an opponent accepted a call holding nothing the model
would accept with (no good card, no trick won)."""


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
    forced = forced_highest(world)
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
                cards = strongest(cards, table)
            results = [t.winner_team for t in h.tricks[:t_index]]
            choice = choose_card(cards, table, trick.plays[:p_index], player, results)
            if table[choice.card] != table[card]:
                weight *= UNLIKELY_PLAY
    return weight * _calls_weight(world, seat, table, held)


def _calls_weight(world: MatchState, seat: int, table: dict[str, int],
                  dealt: dict[int, list[str]]) -> float:
    """How well the opponents' answered calls of the hand fit the cards `dealt` to them in
    `world`: a raise (its pending one is weighed with the cards held now, above) or an
    accept made on cards the model would not call or accept with is unlikely."""
    h = world.hand
    pending = h.pending is not None and h.pending["kind"] == "raise"
    results = [t.winner_team for t in h.tricks if t.done]
    weight = 1.0
    for i, call in enumerate(h.calls):
        who = int(call["seat"])
        if who % 2 == seat % 2 or "kind" in call or (pending and i == len(h.calls) - 1):
            continue
        if call["action"] == "raise" and not easy_calls(dealt[who], table, results, who % 2):
            weight *= UNLIKELY_CALL
        elif call["action"] == "accept" and simple_strength(dealt[who], table, results,
                                                            who % 2) < 1:
            weight *= UNLIKELY_ACCEPT
    return weight
