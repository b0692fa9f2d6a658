"""How a finished match ended, from the events of its final change."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

EndReason = Literal["score", "resigned", "timed_out"]


def end_reason(final_events: Iterable[dict[str, Any]]) -> EndReason:
    """`timed_out` when a team forfeited by the deadline rule (a `turn_timed_out` with
    outcome `forfeit`, or `match_forfeited`), else `resigned` when a `player_resigned` ended
    it, else `score`. `final_events`: the events of the version that finished the match,
    each with its `type`."""
    types = set()
    for event in final_events:
        kind = event["type"]
        if kind == "match_forfeited" or (kind == "turn_timed_out"
                                          and event.get("outcome") == "forfeit"):
            return "timed_out"
        types.add(kind)
    return "resigned" if "player_resigned" in types else "score"
