"""Built-in computer players: each decides from a seat's view, never from hidden state."""
from __future__ import annotations

import random
from typing import Any

from .random_bot import choose_random

BOT_LEVELS = ("random", "easy", "medium", "hard")
AVAILABLE_LEVELS = ("random",)


def choose(level: str, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The action the bot of `level` takes in the seat whose `view` this is."""
    if level not in AVAILABLE_LEVELS:
        raise ValueError(f"bot level {level!r} is not available")
    return choose_random(view, rng)


__all__ = ["AVAILABLE_LEVELS", "BOT_LEVELS", "choose", "choose_random"]
