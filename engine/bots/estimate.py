"""Card counting for the `medium` level: how likely a card, and the whole hand, is to win."""
from __future__ import annotations

from itertools import product

from ..state import Trick
from ..tricks import ALL_TIES, hand_outcome
from .observation import Observation


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


def _outcome(results: list[int | None], team: int) -> float:
    """1 when trick `results` (done and imagined) win the hand for `team`, 0 when they lose it,
    0.5 for three ties (the rules of RULES.md §5, by the engine's own function)."""
    tricks = [Trick(0, [], r, r is None, True) for r in results]
    for i in range(2, len(tricks) + 1):
        outcome = hand_outcome(tricks[:i])
        if outcome is not None:
            return 0.5 if outcome == ALL_TIES else float(outcome == team)
    return 0.5


def hand_chance(obs: Observation, cards: list[str], partners: list[list[str]]) -> float:
    """The chance that the seat's team wins the hand, treating the remaining tricks as
    independent: in each, its best remaining card (and any partner's) against the opponents'
    unknown cards; a partner whose cards are unknown wins a trick like a random card would."""
    opponents = obs.players // 2
    chance = beat_chances(obs, cards + [c for hand in partners for c in hand])
    mine = sorted((chance[c] ** opponents for c in cards), reverse=True)
    known = [sorted((chance[c] ** opponents for c in hand), reverse=True) for hand in partners]
    unknown_partners = obs.players // 2 - 1 - len(partners)
    left = 3 - len(obs.results)
    per_trick = []
    for i in range(left):
        lose = 1.0 - (mine[i] if i < len(mine) else 0.0)
        for hand in known:
            lose *= 1.0 - (hand[i] if i < len(hand) else 0.0)
        lose *= (1.0 - 1.0 / (opponents + 1)) ** unknown_partners
        per_trick.append(1.0 - lose)
    total = 0.0
    for outcome in product((True, False), repeat=left):
        p = 1.0
        for won, q in zip(outcome, per_trick):
            p *= q if won else 1.0 - q
        imagined = obs.results + [obs.team if won else 1 - obs.team for won in outcome]
        total += p * _outcome(imagined, obs.team)
    return total
