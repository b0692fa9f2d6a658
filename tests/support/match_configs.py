"""Random match configurations for the engine's property tests (hypothesis): any player
count, ruleset, option values, seed and starting score."""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import engine

OPTION_VALUES: dict[str, list[Any]] = {
    **{k: list(v) for k, v in engine.OPTION_CHOICES.items()},
    "first_dealer": ["random", 0, 1],
    "iron_hand_value": [1, 3, 20],
}


@st.composite
def match_configs(draw: st.DrawFn) -> dict[str, Any]:
    """A configuration of `engine.new_match` (players, ruleset, options, seed, start)."""
    options = {name: draw(st.sampled_from(values)) for name, values in OPTION_VALUES.items()
               if draw(st.booleans())}
    start = draw(st.sampled_from([None, [0, 0], [11, 3], [4, 11], [11, 11], [10, 10], [9, 10]]))
    return {"players": draw(st.sampled_from([2, 4, 6])),
            "ruleset": draw(st.sampled_from(["paulista", "mineiro"])),
            "options": options, "seed": draw(st.integers(0, 2**31)), "start_score": start}
