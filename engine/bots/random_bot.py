"""The `random` level: a uniformly random legal action."""
from __future__ import annotations

import random
from typing import Any


def choose_random(view: dict[str, Any], rng: random.Random, *,
                  budget_ms: float | None = None) -> dict[str, Any]:
    """One of the view's legal actions, drawn with `rng` (`budget_ms` is not needed)."""
    return dict(rng.choice(view["legal_actions"]))
