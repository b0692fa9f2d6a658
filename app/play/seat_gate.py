"""Refusing a leave or resign that cannot succeed before the match row is locked, so that a
caller with no business in a match never queues on its lock (each verb still checks
everything again under the lock; a join does the same in its lock statement,
app/db/hot_sql.py: _JOIN_LOCK). Only facts that never change back are trusted unlocked: a
match that left `waiting` never returns to it, one that ended stays ended, and the caller's
own seat appears only through the caller's own join."""
from __future__ import annotations

from typing import Literal

from sqlalchemy import text

from app.infra.problems import ApiError
from app.db.extensions import db
from app.db.models import id_can_exist

_READ = text("""
SELECT m.status,
       EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.player_id = :player
                                       AND NOT s.invited),
       EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.player_id = :player
                                       AND s.invited)
  FROM matches m WHERE m.id = :match""")

Verb = Literal["leave", "resign"]


def refuse_outsider(match_id: str, player_id: str, verb: Verb) -> None:
    """Raise the error `verb`'s locked path would give the caller, when an unlocked read
    already proves it: 404 no match, 403 `not_a_player`, then 409 for a match past that
    verb."""
    if not id_can_exist(match_id):
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    with db.engine.connect() as conn:
        row = conn.execute(_READ, {"match": match_id, "player": player_id}).first()
    if row is None:
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    status, seated, invited = row
    if not seated and not (verb == "leave" and invited):
        raise ApiError(403, "not_a_player", "you have no seat in this match")
    if verb == "leave" and status != "waiting":
        raise ApiError(409, "match_not_waiting", "you can leave only before the match starts")
    if verb == "resign" and status in ("finished", "cancelled"):
        raise ApiError(409, "match_not_active", f"the match is {status}")
