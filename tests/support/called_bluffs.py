"""A spot where `hard` may raise a weak hand after the first trick, and match histories of
opponents who call or fold to the team's late raises (decision 0036's tests)."""
from __future__ import annotations

from typing import Any

from engine import MatchState
from engine.bots import LateAnswers
from tests.support.bot_positions import fixed, play

CALLERS = LateAnswers(refused=0, answered=4)
FOLDERS = LateAnswers(refused=4, answered=4)


def second_trick(cards: list[str]) -> MatchState:
    """2-player Paulista, vira 4d: seat 0 takes trick 1 with Kc over Qd and leads trick 2
    holding `cards`."""
    return play(fixed(2, [["Kc", *cards], ["Qd", "Ac", "4s"]]), (0, "Kc"), (1, "Qd"))


def the_raise(view: dict[str, Any], actions: list[dict[str, Any]], values: list[float],
              best: int) -> int:
    """A stand-in for concealment.hide_dump that settles the search on its raise."""
    return next(i for i, a in enumerate(actions) if a["type"] == "raise")
