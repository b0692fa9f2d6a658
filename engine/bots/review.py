"""A review of one decision: what `hard`'s search, given only what the seat could see when it
decided, thinks each of its legal actions was worth, and what the action taken gave up.

A value is the chance that the seat's team wins the match after the action (value.match_value),
averaged over the same drawn worlds and playouts for every action, so the values compare the
actions with each other; each is an estimate from REVIEW_PLAYOUTS playouts, so a small
difference is noise, hence MISTAKE_LOSS, the least loss a review calls a mistake.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..actions import normal_form
from .hard import action_values

REVIEW_PLAYOUTS = 360
"""Playouts per reviewed decision: `hard`'s own budget (a decision takes it ~50 ms)."""
MISTAKE_LOSS = 0.05
"""The least loss of match-winning chance that a review counts as a mistake."""


@dataclass(frozen=True)
class ReviewedDecision:
    """Every legal action with its value, and which of them was played and which is best."""

    options: list[tuple[dict[str, Any], float]]
    played: int
    best: int

    @property
    def loss(self) -> float:
        """What the action taken gave up against the best one (0 when it was the best)."""
        return self.options[self.best][1] - self.options[self.played][1]

    @property
    def mistake(self) -> bool:
        return self.loss >= MISTAKE_LOSS


def review_decision(view: dict[str, Any], played: dict[str, Any], seed: int,
                    playouts: int = REVIEW_PLAYOUTS) -> ReviewedDecision:
    """The review of `played` (an action legal in `view`, the seat's view when it decided),
    the same for the same view, action and `seed`. ValueError when `played` is not legal."""
    actions = [dict(a) for a in view["legal_actions"]]
    taken = normal_form(played)
    index = next((i for i, a in enumerate(actions) if a == taken), None)
    if index is None:
        raise ValueError(f"{taken} is not a legal action in this view")
    values = action_values(view, actions, random.Random(seed), budget_ms=float("inf"),
                           playouts=playouts)
    best = max(range(len(actions)), key=values.__getitem__)
    if values[index] >= values[best]:
        best = index  # (a tie with the best is no loss)
    return ReviewedDecision(list(zip(actions, values)), index, best)
