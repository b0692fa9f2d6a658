"""Kuhn poker behind engine.bots.cfr's game interface: the small game that checks the solver.

Three cards (J, Q, K), one each, antes of 1; player 0 checks or bets 1, player 1 answers;
a check facing a bet folds. Player 0's value at equilibrium is -1/18.
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from engine.bots.cfr import TERMINAL

KuhnState = tuple[int, int, str]
"""(player 0's card, player 1's card, history of "p" pass and "b" bet)."""

GAME_VALUE = -1.0 / 18.0
_ENDS = {"pp", "bp", "bb", "pbp", "pbb"}


class Kuhn:
    def sample_root(self, rng: random.Random) -> KuhnState:
        a, b = rng.sample(range(3), 2)
        return (a, b, "")

    def roots(self) -> list[tuple[KuhnState, float]]:
        """Every deal, each with its probability."""
        return [((a, b, ""), 1.0 / 6.0) for a, b in itertools.permutations(range(3), 2)]

    def player(self, state: KuhnState) -> int:
        history = state[2]
        return TERMINAL if history in _ENDS else len(history) % 2

    def utility(self, state: KuhnState) -> float:
        a, b, history = state
        if history in ("bp", "pbp"):  # the last bettor's opponent folded
            return 1.0 if history == "bp" else -1.0
        pot = 2.0 if "b" in history else 1.0
        return pot if a > b else -pot

    def infoset(self, state: KuhnState) -> str:
        return f"{state[len(state[2]) % 2]}{state[2]}"

    def actions(self, state: KuhnState) -> Sequence[str]:
        return ("p", "b")

    def child(self, state: KuhnState, action: int) -> KuhnState:
        return (state[0], state[1], state[2] + "pb"[action])
