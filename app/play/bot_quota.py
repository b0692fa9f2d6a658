"""What one player may have built-in bots doing at once: the matches with a bot they
created that are not over, and the seats of searching levels in them (the bots that cost the
most to run: engine.bots.SEARCHING_LEVELS). Checked at creation, counted under the lock of the
creator's row (app/db/hot_sql.py: creation_load), so that parallel creations count each other."""
from __future__ import annotations

from typing import Any

from flask import current_app

from app.infra.problems import ApiError
from engine.bots import SEARCHING_LEVELS



def check_bot_quota(bots: list[dict[str, Any]], in_flight: dict[str, int]) -> None:
    """Raise 409 `too_many_bot_matches` when a new match with `bots` would take its creator
    past MAX_BOT_MATCHES unfinished matches with a bot, or past MAX_HARD_BOTS seats of
    searching levels in them (0: no cap)."""
    if not bots:
        return
    max_matches = current_app.config["MAX_BOT_MATCHES"]
    max_hard = current_app.config["MAX_HARD_BOTS"]
    searching = sum(b["level"] in SEARCHING_LEVELS for b in bots)
    if max_matches and in_flight["matches"] + 1 > max_matches:
        raise ApiError(409, "too_many_bot_matches",
                       f"you already have {in_flight['matches']} unfinished matches with "
                       f"built-in bots (at most {max_matches}); finish or resign one first",
                       limit=max_matches)
    if max_hard and in_flight["searching"] + searching > max_hard:
        levels = " or ".join(SEARCHING_LEVELS)
        raise ApiError(409, "too_many_bot_matches",
                       f"you already have {in_flight['searching']} {levels} bots in unfinished "
                       f"matches and ask for {searching} more (at most {max_hard})",
                       limit=max_hard)
