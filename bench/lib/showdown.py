"""A 2-player seat's chance to win the hand's tricks from what it sees, for bench tools.

The other seat's cards are dealt at random from those the seat cannot place, and both seats
play the rest of the hand by `engine.bots.cardplay.choose_card` on bare card lists with no
further calls: a fast, rough strength of the hand that also counts the cards already played
and the tricks already won (the easy rule's count of good things does neither finely).
`bench/betting_profile.py` tallies a level's raises by it: whether its raises say anything
about its cards.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots.cardplay import Play, choose_card, table_top
from engine.bots.observation import Observation
from engine.state import Trick
from engine.tricks import ALL_TIES, hand_outcome

SAMPLES = 16
"""Deals of the other seat's cards per estimate."""


def chance(strength: dict[str, int], seat: int, mine: Sequence[str], unseen: Sequence[str],
           count: int, results: Sequence[int | None], plays: Sequence[Play], turn: int,
           rng: random.Random, samples: int = SAMPLES) -> float:
    """The chance that `seat` (0 or 1) wins the hand (a void hand counts half) holding `mine`
    with `count` cards of the other seat's dealt from `unseen`; `results`: the done tricks'
    winners, `plays`: the open trick's, `turn`: the seat to play."""
    pool = list(unseen)
    total = 0.0
    for _ in range(samples):
        hands = {seat: list(mine), 1 - seat: rng.sample(pool, count)}
        won = play_out(strength, results, plays, turn, hands)
        total += 0.5 if won is None else float(won == seat)
    return total / samples


def view_chance(obs: Observation, rng: random.Random, samples: int = SAMPLES) -> float:
    """`chance` for the seat of a 2-player `obs` that sees its cards and is to play."""
    assert obs.players == 2 and obs.cards is not None
    other = 1 - obs.seat
    return chance(obs.strength, obs.seat, obs.cards, obs.knowledge.unseen,
                  obs.knowledge.unknown_counts.get(other, 0), obs.results, obs.plays,
                  obs.seat, rng, samples)


def play_out(strength: dict[str, int], results: Sequence[int | None], plays: Sequence[Play],
             turn: int, hands: dict[int, list[str]]) -> int | None:
    """The seat that wins the hand (None: void) when both seats of `hands` play choose_card
    from the open trick's `plays`, `turn` to play. A face-down card counts 0."""
    course = [Trick(0, [], r, r is None, True) for r in results]
    table = list(plays)
    seat = turn
    while True:
        outcome = hand_outcome(course)
        if outcome is not None:
            return None if outcome == ALL_TIES else int(outcome)
        card = choose_card(hands[seat], strength, table, seat,
                           [t.winner_team for t in course]).card
        hands[seat].remove(card)
        table.append((seat, card, False))
        if len(table) < 2:
            seat = 1 - seat
            continue
        _, teams = table_top(table, strength)  # with 2 players a seat is its team
        winner = teams.pop() if len(teams) == 1 else None
        leader = table[0][0]
        course.append(Trick(leader, [], winner, winner is None, True))
        seat, table = (leader if winner is None else winner), []  # a tie: the leader again
