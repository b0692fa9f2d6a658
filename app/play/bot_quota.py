"""What one player may have built-in bots doing at once: the matches with a bot they
created that are not over, and the `hard` seats in them (the bots that cost the most to
run). Checked at creation, counted under the lock of the creator's row
(app/db/hot_sql.py: creation_load), so that parallel creations count each other."""
from __future__ import annotations

from typing import Any

from flask import current_app

from app.infra.problems import ApiError



def check_bot_quota(bots: list[dict[str, Any]], in_flight: dict[str, int]) -> None:
    """Raise 409 `too_many_bot_matches` when a new match with `bots` would take its creator
    past MAX_BOT_MATCHES unfinished matches with a bot, or past MAX_HARD_BOTS `hard` seats
    in them (0: no cap)."""
    if not bots:
        return
    max_matches = current_app.config["MAX_BOT_MATCHES"]
    max_hard = current_app.config["MAX_HARD_BOTS"]
    hard = sum(b["level"] == "hard" for b in bots)
    if max_matches and in_flight["matches"] + 1 > max_matches:
        raise ApiError(409, "too_many_bot_matches",
                       f"you already have {in_flight['matches']} unfinished matches with "
                       f"built-in bots (at most {max_matches}); finish or resign one first",
                       limit=max_matches)
    if max_hard and in_flight["hard"] + hard > max_hard:
        raise ApiError(409, "too_many_bot_matches",
                       f"you already have {in_flight['hard']} hard bots in unfinished "
                       f"matches and ask for {hard} more (at most {max_hard})",
                       limit=max_hard)
