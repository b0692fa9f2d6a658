"""Built-in computer players: each decides from a seat's view, never from hidden state.

`choose(level, view, rng)` is the one entry point. Every level is deterministic given `rng`
(except the hard level when its time cap cuts a search short, see hard.py).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .easy import choose_easy
from .hard import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS, choose_hard
from .medium import choose_medium
from .random_bot import choose_random

BOT_LEVELS = ("random", "easy", "medium", "hard")
AVAILABLE_LEVELS = BOT_LEVELS

_SIMPLE: dict[str, Callable[[dict[str, Any], random.Random], dict[str, Any]]] = {
    "random": choose_random, "easy": choose_easy, "medium": choose_medium}


def choose(level: str, view: dict[str, Any], rng: random.Random, *,
           budget_ms: float | None = None) -> dict[str, Any]:
    """One item of `view["legal_actions"]` chosen by the bot `level` for the view's seat.

    `view` is exactly `engine.view(state, seat)` for a seat that may act; `budget_ms` caps the
    hard level's thinking time (default DEFAULT_BUDGET_MS; the other levels ignore it).
    """
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if not view["legal_actions"]:
        raise ValueError("this seat has nothing to do")
    if level == "hard":
        return choose_hard(view, rng, budget_ms=budget_ms)
    return dict(_SIMPLE[level](view, rng))


__all__ = ["AVAILABLE_LEVELS", "BOT_LEVELS", "DEFAULT_BUDGET_MS", "DEFAULT_PLAYOUTS", "choose",
           "choose_random"]
