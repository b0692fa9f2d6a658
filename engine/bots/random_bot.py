"""The `random` level: a uniformly random legal action."""
from __future__ import annotations

import random
from typing import Any


def choose_random(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One of the view's legal actions, drawn with `rng` (the view must belong to a seat to act)."""
    actions = view["legal_actions"]
    if not actions:
        raise ValueError("this seat has nothing to do")
    return dict(rng.choice(actions))
