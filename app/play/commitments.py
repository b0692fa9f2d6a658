"""Commitments made before a match exists (`POST /v1/commitments`, docs/fairness.md): the
server draws the secret and shows its SHA-256, then the creator sends their seed; the
creation that names the commitment takes its secret, once."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import delete, func, select

from app.infra.problems import ApiError
from app.db.extensions import db
from app.play.fairness import commitment_of, new_secret
from app.db.commitment_models import Commitment
from app.db.models import Player, new_id
from app.infra.encoding import iso

LIFETIME = timedelta(minutes=10)
"""How long a commitment may be used."""
MAX_OPEN = 20
"""Unused, unexpired commitments one player may hold at once."""

_TAKE = """
SELECT player_id, secret, match_id, expires_at, used_at FROM commitments
 WHERE commitment = %(commitment)s FOR UPDATE"""
_USE = "UPDATE commitments SET used_at = now() WHERE commitment = %(commitment)s"


def issue(player_id: str) -> dict[str, Any]:
    """A fresh commitment of `player_id`: the body of the 201 (their expired, unused ones
    are dropped); 409 too_many_commitments when they hold MAX_OPEN unused ones."""
    now = datetime.now(timezone.utc)
    # the player's row locked: parallel requests count each other's commitments
    db.session.execute(select(Player.id).where(Player.id == player_id)
                       .with_for_update(key_share=True))
    unused = (Commitment.player_id == player_id) & Commitment.used_at.is_(None)
    db.session.execute(delete(Commitment).where(unused, Commitment.expires_at <= now))
    if db.session.execute(select(func.count()).select_from(Commitment)
                          .where(unused)).scalar_one() >= MAX_OPEN:
        db.session.rollback()
        raise ApiError(409, "too_many_commitments", f"you hold {MAX_OPEN} unused commitments: "
                       "create a match with one, or wait until they expire")
    secret = new_secret()
    row = Commitment(commitment=commitment_of(secret), player_id=player_id, secret=secret,
                     match_id=new_id("m_"), expires_at=now + LIFETIME)
    db.session.add(row)
    db.session.commit()
    return {"commitment": row.commitment, "expires_at": iso(row.expires_at),
            "match_id": row.match_id}


def take(conn: Any, player_id: str, commitment: str) -> tuple[str, str]:
    """The secret of `commitment` and the id of the match it is for, marked used, in the
    creation's transaction on `conn` (app/db/hot_sql.py: own_connection; a failed creation
    rolls the use back); or the problem that says why not: 422 commitment_unknown, 403
    commitment_not_yours, 422 commitment_expired, 409 commitment_used."""
    with conn.cursor() as cursor:
        cursor.execute(_TAKE, {"commitment": commitment.lower()})
        row = cursor.fetchone()
        if row is None:
            raise ApiError(422, "commitment_unknown", "no such commitment: fetch one with "
                           "POST /v1/commitments")
        owner, secret, match_id, expires_at, used_at = row
        if owner != player_id:
            raise ApiError(403, "commitment_not_yours", "this commitment was made for "
                           "another player")
        if used_at is not None:
            raise ApiError(409, "commitment_used", "this commitment is used by a match "
                           "already: fetch a new one")
        if expires_at <= datetime.now(timezone.utc):
            raise ApiError(422, "commitment_expired", "this commitment has expired: fetch "
                           "a new one")
        cursor.execute(_USE, {"commitment": commitment.lower()})
    return str(secret), str(match_id)
