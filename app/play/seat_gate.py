"""Refusing a leave or resign that cannot succeed before the match row is locked, so that a
caller with no business in a match never queues on its lock (each verb still checks
everything again under the lock; a join does the same in its lock statement,
app/db/hot_statements.py: JOIN_LOCK). Only facts that never change back are trusted unlocked: a
match that left `waiting` never returns to it, one that ended stays ended, and the caller's
own seat appears only through the caller's own join. The same read orders the errors of a
request whose body or query is malformed (:func:`refuse_before_body`)."""
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

Scope = Literal["read", "replay", "act", "join", "leave", "resign", "rematch"]
"""What a request does with the match in its path, for :func:`refuse_before_body`."""


def _standing(match_id: str, player_id: str | None) -> tuple[str, bool, bool]:
    """The match's status and whether the caller sits in it, or is invited to it; 404 when
    there is no such match."""
    if not id_can_exist(match_id):
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    with db.engine.connect() as conn:
        row = conn.execute(_READ, {"match": match_id, "player": player_id}).first()
    if row is None:
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    return row[0], row[1], row[2]


def refuse_outsider(match_id: str, player_id: str, verb: Verb) -> None:
    """Raise the error `verb`'s locked path would give the caller, when an unlocked read
    already proves it: 404 no match, 403 `not_a_player`, then 409 for a match past that
    verb (a resign only once the match has ended: a waiting one may still start)."""
    _refuse(match_id, player_id, verb, settled_only=True)


def refuse_before_body(match_id: str, player_id: str | None, scope: Scope) -> None:
    """Raise what is wrong with a request to `match_id` before its body or query (which is
    malformed): 404 no match, then for `scope` the caller's place (403 `not_a_player`) and the
    match's state (409), in the order its verb checks them; nothing when those are right.
    The request fails either way, so an unlocked read is enough (API.md's order: 401, 404,
    403, 409, then 422)."""
    _refuse(match_id, player_id, scope, settled_only=False)


def _refuse(match_id: str, player_id: str | None, scope: Scope, *, settled_only: bool) -> None:
    """The checks of both: with `settled_only`, a state that may still change (a waiting
    match, for `act` or `resign`) is not refused."""
    status, seated, invited = _standing(match_id, player_id)
    if scope in ("replay", "rematch") and status != "finished":
        raise ApiError(409, "match_not_finished", f"the match is {status}, not finished")
    if scope in ("read", "replay"):
        return
    if scope == "join":
        if status != "waiting" and not seated:
            raise ApiError(409, "match_not_waiting", "the match has already started or ended")
        return
    if not seated and not (scope == "leave" and invited):
        raise ApiError(403, "not_a_player", "you have no seat in this match")
    if scope == "leave" and status != "waiting":
        raise ApiError(409, "match_not_waiting", "you can leave only before the match starts")
    if scope in ("act", "resign") and status != "active" and not (
            settled_only and status == "waiting"):
        raise ApiError(409, "match_not_active", f"the match is {status}")
