"""Card counting for the `medium` level: how likely a card, and the whole hand, is to win."""
from __future__ import annotations

import random

from ..determinize import determinize
from ..play import apply
from .beliefs import world_weight
from .observation import Observation
from .playout import play_out_hand

SAMPLED_WORLDS = 32
WEIGHTED = True
"""Weigh the deals by how well they explain the opponents' choices (beliefs.world_weight)."""


def beat_chances(obs: Observation, cards: list[str]) -> dict[str, float]:
    """For each card, the chance that it beats one card drawn from those the seat cannot
    place (a tie counts half): the cards already seen are out of the count."""
    unseen = [obs.strength[c] for c in obs.knowledge.unseen]
    out = {}
    for card in cards:
        value = obs.strength[card]
        wins = sum(1.0 if v < value else 0.5 if v == value else 0.0 for v in unseen)
        out[card] = wins / len(unseen) if unseen else 1.0
    return out


def sampled_chance(obs: Observation, rng: random.Random, worlds: int = SAMPLED_WORLDS,
                   weighted: bool = WEIGHTED) -> float:
    """The chance that the seat's team wins the hand's tricks, counted over `worlds` deals of
    the cards it cannot place, each played out by the playout policy (the easy rule, a weak
    partner covered) with no further calls (a pending question is taken as accepted). A void
    hand counts half."""
    total = weights = 0.0
    for _ in range(worlds):
        state = determinize(obs.view, rng)
        weight = world_weight(state, obs.seat) if weighted else 1.0
        if state.hand.pending is not None:
            state, _ = apply(state, state.hand.to_act[0], {"type": "accept"})
        end = play_out_hand(state, rng, calls=False)
        last = end.last_hand
        assert last is not None
        won = 0.5 if last["winner_team"] is None else float(last["winner_team"] == obs.team)
        total += weight * won
        weights += weight
    return total / weights
