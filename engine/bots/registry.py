"""The bot levels by name, behind one interface, and the one way to ask any of them."""
from __future__ import annotations

import random
from functools import partial
from typing import Any, Protocol

from .easy import choose_easy
from .hard import choose_hard
from .medium import choose_medium
from .random_bot import choose_random
from .tendencies import LateAnswers


class Bot(Protocol):
    """A level's decision: one item of `view["legal_actions"]` (which holds two or more) for
    the view's seat, drawn only from `rng`; `budget_ms` caps its thinking time (None: the
    level's default; a level that does not search ignores it)."""

    def __call__(self, view: dict[str, Any], rng: random.Random, *,
                 budget_ms: float | None = None) -> dict[str, Any]: ...


BOTS: dict[str, Bot] = {"random": choose_random, "easy": choose_easy, "medium": choose_medium,
                        "hard": choose_hard}
"""Every level, weakest first."""

SEARCHING_LEVELS = ("hard",)
"""The levels that search for every decision: the ones that cost the most to run."""


class ReadingBot(Protocol):
    """A level that also reads the match so far: `history` is how the opponents answered its
    team's late raises (tendencies.late_answers; None: unknown)."""

    def __call__(self, view: dict[str, Any], rng: random.Random, *,
                 budget_ms: float | None = None,
                 history: LateAnswers | None = None) -> dict[str, Any]: ...


READERS: dict[str, ReadingBot] = {"hard": choose_hard}
READING_LEVELS = tuple(READERS)
"""The levels that also read the match so far (`history=`)."""


def choose_with(bot: Bot, view: dict[str, Any], rng: random.Random, *,
                budget_ms: float | None = None) -> dict[str, Any]:
    """One item of `view["legal_actions"]` chosen by `bot`; the only legal action, when there
    is one, without asking it. ValueError when the seat has nothing to do."""
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("this seat has nothing to do")
    if len(legal) == 1:
        return dict(legal[0])
    return dict(bot(view, rng, budget_ms=budget_ms))


def choose(level: str, view: dict[str, Any], rng: random.Random, *,
           budget_ms: float | None = None, history: LateAnswers | None = None
           ) -> dict[str, Any]:
    """One item of `view["legal_actions"]` chosen by the bot `level` for the view's seat.

    `view` is exactly `engine.view(state, seat)` for a seat that may act; `budget_ms` caps the
    hard level's thinking time (default DEFAULT_BUDGET_MS); `history` is how the opponents
    answered the seat's team's late raises so far in the match, for the READING_LEVELS (None:
    unknown). ValueError for an unknown level.
    """
    bot = BOTS.get(level)
    if bot is None:
        raise ValueError(f"unknown bot level {level!r}")
    reader = READERS.get(level)
    if history is not None and reader is not None:
        bot = partial(reader, history=history)
    return choose_with(bot, view, rng, budget_ms=budget_ms)
