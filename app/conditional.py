"""A match view's current ETag from what the process knows (app/known.py) or one cheap query:
conditional GETs (304) and woken long polls are answered without loading or rendering the
match when nothing changed, and one rendering of each (match, version, seat) is shared by
every request that asks for it.

The query reads the version of the match and the caller's seat (the token checked in the
same statement); it returns nothing for an unknown match or token, and the caller then takes
the full path, which answers 401 / 404 exactly as before.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, NamedTuple, TypeVar

from app import prepared
from app.api.responses import json_bytes
from app.auth import bearer_token, hash_token, parse_bearer, token_sent
from app.extensions import db
from app.known import Known
from app.models import Match, id_can_exist
from app.prepared import Statement
from app.rendering import etag_of, match_view, seat_number
from app.waiting import hub

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
and how many more seconds the match is watched (None: it is not; app/watches.py),
numbered as asked (from 1); a match or a token that does not exist gives no row. One
caller's read, or many at once (app/batched_reads.py). Each (match, token) is looked up on
its own (`LATERAL`), by index: planned once for any number of them (app/prepared.py), a
join of the whole list would hash the `players` table."""


class Current(NamedTuple):
    """Who asks and what they would see now: the key of one rendering."""

    match_id: str
    version: int
    seat: int | None
    player_id: str | None
    heard: bool = False
    """Told by what the process heard (app/known.py), not read: it may lag a change that
    another process committed a moment ago, by as long as the notification takes."""

    @property
    def etag(self) -> str:
        return etag_of(self.match_id, self.version, self.seat)


def current(match_id: str, heard: bool = True) -> Current | None:
    """The caller's current view of `match_id` (version and seat), or None when it cannot be
    told cheaply: no such match, an unknown token, a malformed Authorization header.

    With `heard`, without a query when this process knows the match's version, the token
    and the seat (app/known.py): good for a 304, which says only "nothing you have not seen
    was heard of". A body is always rendered from a version read (`heard=False`), so that a
    client whose action another process has just acknowledged never reads the match from
    before it. Otherwise one query, whose findings the process learns."""
    if not id_can_exist(match_id):
        return None
    token = bearer_token()
    if token is None and token_sent():
        return None
    return current_for(match_id, None if token is None else hash_token(token), heard)


def current_for(match_id: str, digest: str | None, heard: bool = True) -> Current | None:
    """:func:`current` for the caller whose token hashes to `digest` (None: no token),
    outside a request (a stream, app/streams.py)."""
    found = hub()
    found.ensure_listener()
    known = found.known
    if heard:
        now = heard_of(known, match_id, digest)
        if now is not None:
            return now
    return read_current(db.session.connection().connection, known, match_id, digest)


def read_current(fairy: Any, known: Known, match_id: str,
                 token_hash: str | None) -> Current | None:
    """The caller's current view read on the pooled connection `fairy` (one prepared
    statement), learned by `known`; None for an unknown match or token."""
    generation = known.generation
    with prepared.run(fairy, [READ_CURRENT],
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


def token_hash_of(authorization: str | None) -> str | None | bool:
    """The token hash of a raw Authorization header: None without a header, False for a
    malformed one (Flask's path answers it 401)."""
    if not authorization:
        return None
    token = parse_bearer(authorization)
    return False if token is None else hash_token(token)


Key = tuple[str, int, "int | None"]
"""(match id, version, seat): what a view body depends on (the ETag promises as much)."""


def rendered(match: Match, player_id: str | None) -> tuple[Key, bytes]:
    """The key and the JSON body of `match`'s view for `player_id`: what a rendering shared
    by :class:`Renderings` holds."""
    seat = seat_number(match, player_id)
    return (match.id, match.version, seat), json_bytes(match_view(match, seat))


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Renderings(Generic[K, V]):
    """The last few rendered view bodies by (match, version, seat), shared by the requests
    of this process (a change wakes many long polls of one match at once): concurrent
    requests for one key render it once, the others wait for that body. (Generic: the
    streams share their frames the same way, app/streams.py.)"""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._bodies: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._rendering: dict[K, threading.Lock] = {}

    def _known(self, key: K) -> V | None:
        with self._lock:
            body = self._bodies.get(key)
            if body is not None:
                self._bodies.move_to_end(key)
            return body

    def get(self, key: K, render: Callable[[], tuple[K, V]]) -> tuple[K, V]:
        """The body of `key`, or what `render` gives: it loads the match, which may have
        moved on, so it returns the key it rendered (stored under that key)."""
        body = self._known(key)
        if body is not None:
            return key, body
        with self._lock:
            busy = self._rendering.setdefault(key, threading.Lock())
        try:
            with busy:  # a second request for this key waits for the first one's body
                body = self._known(key)
                if body is not None:
                    return key, body
                done, body = render()
                with self._lock:
                    self._bodies[done] = body
                    while len(self._bodies) > self._size:
                        self._bodies.popitem(last=False)
                return done, body
        finally:
            with self._lock:
                self._rendering.pop(key, None)


renderings: Renderings[Key, bytes] = Renderings()
"""This process's shared renderings."""
