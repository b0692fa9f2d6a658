"""Rate limits shared by every app process (a fixed window per kind and key, counted in
PostgreSQL), answered with 429 `rate_limited` and `Retry-After`.

Limits come from the config as "COUNT/SECONDS" strings; an empty value turns a limit off
(the test configuration does, except in the tests of this module). The count is taken in its
own short transaction, so a request that fails afterwards (an illegal action, say) still
counts, and the request's own transaction is not touched.
"""
from __future__ import annotations

import hashlib
import math

from flask import current_app
from sqlalchemy import text

from app.infra.problems import ApiError
from app.db.extensions import db

KINDS = ("register", "action", "create", "seat")
"""What is limited: registrations per address, actions, match creations and seat changes
(join, leave, resign) per player."""

_COUNT = text("""
    INSERT INTO rate_windows AS w (kind, key, started_at, used)
    VALUES (:kind, :key, clock_timestamp(), 1)
    ON CONFLICT (kind, key) DO UPDATE SET
        started_at = CASE WHEN w.started_at <= clock_timestamp() - make_interval(secs => :period)
                          THEN clock_timestamp() ELSE w.started_at END,
        used = CASE WHEN w.started_at <= clock_timestamp() - make_interval(secs => :period)
                    THEN 1 ELSE w.used + 1 END
    RETURNING used,
        extract(epoch FROM w.started_at + make_interval(secs => :period) - clock_timestamp())
""")


def parse_rule(rule: str) -> tuple[int, float]:
    """ "COUNT/SECONDS" -> (count, seconds)."""
    count, _, seconds = rule.partition("/")
    return int(count), float(seconds)


def _key(value: str) -> str:
    """Keys fit the column whatever their length (an IPv6 address, a player id)."""
    return value if len(value) <= 64 else hashlib.sha256(value.encode()).hexdigest()


def check(kind: str, key: str) -> None:
    """Count one request of `kind` by `key`; 429 when the window's limit is used up."""
    rule = current_app.config.get(f"RATE_LIMIT_{kind.upper()}")
    if not rule:
        return
    limit, period = parse_rule(rule)
    with db.engine.begin() as conn:
        used, left = conn.execute(_COUNT, {"kind": kind, "key": _key(key),
                                           "period": period}).one()
    if used > limit:
        raise ApiError(429, "rate_limited", f"too many {kind} requests; retry later",
                       retry_after=max(1, math.ceil(left)))
