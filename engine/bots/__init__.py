"""Built-in computer players: each decides from a seat's view, never from hidden state.

`choose(level, view, rng)` is the one entry point (registry.py: every level behind one `Bot`
interface). Every level is deterministic given `rng` (except the hard level when its time cap
cuts a search short, see hard.py).
"""
from __future__ import annotations

from .hard import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS
from .random_bot import choose_random
from .registry import BOTS, READING_LEVELS, SEARCHING_LEVELS, Bot, choose, choose_with
from .tendencies import COUNTED_EVENTS, LateAnswers, late_answers

BOT_LEVELS = tuple(BOTS)
AVAILABLE_LEVELS = BOT_LEVELS

__all__ = ["AVAILABLE_LEVELS", "BOTS", "BOT_LEVELS", "COUNTED_EVENTS", "DEFAULT_BUDGET_MS",
           "DEFAULT_PLAYOUTS", "READING_LEVELS", "SEARCHING_LEVELS", "Bot", "LateAnswers",
           "choose", "choose_random", "choose_with", "late_answers"]
