"""A match view's current version and the caller's seat, from what the process knows
(app/live/known.py) or one cheap query: conditional GETs (304) and woken long polls are
answered without loading or rendering the match when nothing changed.

The query reads the version of the match and the caller's seat (the token checked in the
same statement); it returns nothing for an unknown match or token, and the caller then takes
the full path, which answers 401 or 404.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from app.db import prepared
from app.db.extensions import db
from app.db.prepared import Statement
from app.infra.encoding import etag_of
from app.live.hub import hub
from app.live.known import Known

READ_CURRENT = Statement("truco_view_current", """
SELECT q.i, x.id, x.version, x.status, x.seat, x.watched
  FROM unnest(%(match_ids)s, %(token_hashes)s) WITH ORDINALITY AS q(match_id, token_hash, i)
 CROSS JOIN LATERAL (
       SELECT p.id, m.version, m.status,
              (SELECT s.seat FROM seats s
                WHERE s.match_id = m.id AND s.player_id = p.id AND NOT s.invited) AS seat,
              (SELECT extract(epoch FROM w.until - now())::float8 FROM match_watches w
                WHERE w.match_id = m.id AND w.until > now()) AS watched
         FROM matches m LEFT JOIN players p ON p.token_hash = q.token_hash
        WHERE m.id = q.match_id) AS x
 WHERE q.token_hash IS NULL OR x.id IS NOT NULL""",
                         {"match_ids": "text[]", "token_hashes": "text[]"})
"""The current version and the caller's seat of each asked (match, token hash or None),
and how many more seconds the match is watched (None: it is not; app/live/watches.py),
numbered as asked (from 1); a match or a token that does not exist gives no row. One
caller's read, or many at once (app/live/batched_reads.py). Each (match, token) is looked up on
its own (`LATERAL`), by index: planned once for any number of them (app/db/prepared.py), a
join of the whole list would hash the `players` table."""


class Current(NamedTuple):
    """Who asks and what they would see now: the key of one rendering."""

    match_id: str
    version: int
    seat: int | None
    player_id: str | None
    heard: bool = False
    """Told by what the process heard (app/live/known.py), not read: it may lag a change that
    another process committed a moment ago, by as long as the notification takes."""

    @property
    def etag(self) -> str:
        return etag_of(self.match_id, self.version, self.seat)


def current_for(match_id: str, digest: str | None, heard: bool = True) -> Current | None:
    """:func:`current` for the caller whose token hashes to `digest` (None: no token),
    outside a request (a stream, app/play/streams.py)."""
    found = hub()
    found.ensure_listener()
    known = found.known
    if heard:
        now = heard_of(known, match_id, digest)
        if now is not None:
            return now
    return read_current(db.session.connection().connection, known, match_id, digest)


def read_current(conn: Any, known: Known, match_id: str,
                 token_hash: str | None) -> Current | None:
    """The caller's current view read on the pooled connection `conn` (one prepared
    statement), learned by `known`; None for an unknown match or token."""
    generation = known.generation
    with prepared.run(conn, [READ_CURRENT],
                      {"match_ids": [match_id], "token_hashes": [token_hash]}) as cursor:
        row = cursor.fetchone()
    return learned(known, generation, match_id, token_hash, None if row is None else row[1:])


def learned(known: Known, generation: int, match_id: str, token_hash: str | None,
            row: tuple[Any, ...] | None) -> Current | None:
    """The caller's current view from a read `row` (player id, version, status, seat, the
    seconds the match is watched; None when the match or the token was not found), learned
    by `known` unless it heard of a change since `generation` (taken before the read)."""
    if row is None:
        return None
    player_id, version, status, seat, watched = row
    # seats change only while a match waits for players: later they hold for good
    known.learn(generation, match_id, version, player_id, seat, token_hash,
                settled=status != "waiting", watched_seconds=watched)
    return Current(match_id, version, seat, player_id)


def heard_of(known: Known, match_id: str, token_hash: str | None) -> Current | None:
    """The caller's current view as far as the process has heard (no query), or None when
    it has not heard enough: the match's version, the token's player, their seat then."""
    player_id = None if token_hash is None else known.player(token_hash)
    if token_hash is not None and player_id is None:
        return None
    version = known.version(match_id)
    seen = None if version is None else known.seat(match_id, player_id, version)
    if version is None or seen is None:
        return None
    return Current(match_id, version, seen.seat, player_id, heard=True)
