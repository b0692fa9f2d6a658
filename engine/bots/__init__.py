"""Built-in computer players: each decides from a seat's view, never from hidden state."""
from __future__ import annotations

from .random_bot import choose_random

BOT_LEVELS = ("random", "easy", "medium", "hard")
AVAILABLE_LEVELS = ("random",)

__all__ = ["AVAILABLE_LEVELS", "BOT_LEVELS", "choose_random"]
