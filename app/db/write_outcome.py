"""What a write whose message failed did: the one question a lost connection leaves open.

A write and its `COMMIT` travel in one message (app/db/hot_sql.py); when that message fails
with a database error, the outcome is read back on the same connection. The match as written
(its version and the `updated_at` the writing process chose): committed, answered as if
nothing had failed. An older version, or that version by someone else: nothing kept, 503
`service_unavailable`. A newer version, or a read that fails too: 503 `outcome_unknown`, and a
retry with the same Idempotency-Key answers the stored result or applies the action once.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg2

from app.infra.problems import UNAVAILABLE_RETRY_AFTER, ApiError

UNCERTAIN = (psycopg2.OperationalError, psycopg2.InterfaceError)
"""The errors after which a write's commit may or may not have happened."""


def outcome_unknown() -> ApiError:
    """503 `outcome_unknown`: the change may have been kept; retry with the same key."""
    return ApiError(503, "outcome_unknown",
                    "The database did not confirm whether this change was kept. Retry the "
                    "same request with the same Idempotency-Key: it is answered as kept if "
                    "it was, and applied once if it was not.",
                    retry_after=UNAVAILABLE_RETRY_AFTER)


def was_committed(conn: Any, match_id: str, version: int, updated_at: datetime) -> bool:
    """Whether `match_id` is stored as written (`version`, `updated_at`), read on `conn`
    after its message failed (the failed transaction rolled back first); raises
    :func:`outcome_unknown` when that cannot tell."""
    try:
        with conn.dbapi_connection.cursor() as cursor:
            cursor.execute("ROLLBACK")
            cursor.execute("SELECT version, updated_at FROM matches WHERE id = %s",
                           (match_id,))
            row = cursor.fetchone()
    except psycopg2.Error:
        raise outcome_unknown() from None
    if row is None or row[0] < version:
        return False
    if row[0] > version:  # written over since: whether ours is beneath cannot be read here
        raise outcome_unknown()
    return bool(row[1] == updated_at)
