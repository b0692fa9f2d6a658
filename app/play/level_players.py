"""The built-in bot levels as players: one row per level (made by migration 0013), so that
each level has a profile and ratings like everyone. A seat with `bot_level` counts as that
level's player."""
from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

from engine.bots import BOT_LEVELS

LEVEL_PLAYERS: dict[str, str] = {level: f"p_level_{level}" for level in BOT_LEVELS}
"""Each level's player id (fixed: clients may keep them)."""
_LEVELS = {player_id: level for level, player_id in LEVEL_PLAYERS.items()}


def level_of(player_id: str) -> str | None:
    """The level whose player `player_id` is, None for anyone else."""
    return _LEVELS.get(player_id)

_ENSURE = text("""
INSERT INTO players (id, name, bot, token_hash, handle)
SELECT 'p_level_' || level, level || ' bot', true, 'level:' || level, 'bot-' || level
  FROM unnest(CAST(:levels AS text[])) AS level
ON CONFLICT DO NOTHING""")


def ensure(session: Session) -> None:
    """The level players' rows exist (the migration made them; this puts back any removed)."""
    session.execute(_ENSURE, {"levels": list(LEVEL_PLAYERS)})
