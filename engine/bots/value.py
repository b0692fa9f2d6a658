"""What a score is worth: the chance to win the match from it, for the hard bot's playouts.

A playout stops at the end of the hand, so its result is a score, not a win. The chance to win
the game from a score is a small dynamic program in which every later hand is a coin toss worth
the ladder's values with falling odds (most hands are played for the base value); near 12 a
point is worth far more than at 0 × 0, which is what the search needs to weigh calls there.
"""
from __future__ import annotations

from functools import lru_cache

from ..rules import RULESETS, TARGET_SCORE
from ..state import MatchState

_ODDS = (0.6, 0.25, 0.1, 0.05)
"""Assumed chance that a hand is played for the 1st, 2nd, 3rd, 4th value of the ladder."""


@lru_cache(maxsize=4)
def _game_table(ruleset: str) -> tuple[tuple[float, ...], ...]:
    """table[a][b]: the chance that a team at `a` points beats one at `b` (both below 12)."""
    ladder = RULESETS[ruleset].ladder
    points = list(zip(ladder, _ODDS))
    w = [[0.0] * TARGET_SCORE for _ in range(TARGET_SCORE)]

    def at(a: int, b: int) -> float:
        if a >= TARGET_SCORE:
            return 1.0
        if b >= TARGET_SCORE:
            return 0.0
        return w[a][b]

    for a in range(TARGET_SCORE - 1, -1, -1):
        for b in range(TARGET_SCORE - 1, -1, -1):
            w[a][b] = sum(p * 0.5 * (at(a + k, b) + at(a, b + k)) for k, p in points)
    return tuple(tuple(row) for row in w)


def game_chance(ruleset: str, mine: int, theirs: int) -> float:
    """The chance to win the game from `mine` × `theirs` points."""
    if mine >= TARGET_SCORE:
        return 1.0
    if theirs >= TARGET_SCORE:
        return 0.0
    return _game_table(ruleset)[mine][theirs]


def _match_chance(mine_need: int, theirs_need: int, game: float) -> float:
    """Games still needed by each team, this game won with chance `game`, later ones 1/2."""
    if mine_need <= 0:
        return 1.0
    if theirs_need <= 0:
        return 0.0
    return (game * _match_chance(mine_need - 1, theirs_need, 0.5)
            + (1.0 - game) * _match_chance(mine_need, theirs_need - 1, 0.5))


def match_value(state: MatchState, team: int) -> float:
    """The chance that `team` wins the match from `state`."""
    if state.status != "active":
        return 1.0 if state.winner_team == team else 0.0
    need = state.options.games_to_win
    return _match_chance(need - state.games[team], need - state.games[1 - team],
                         game_chance(state.ruleset, state.score[team], state.score[1 - team]))
