"""The hot verbs' database work: an action in two round trips, or one for the match this
process wrote last (:func:`write_if_current`); a creation and a join in two; the read that
renders views.

On a pooled connection of its own (:func:`own_connection`), outside the ORM session:
:func:`lock_and_load` (`BEGIN`, the match row locked, then the match, seats, players, the stored
answer of an Idempotency-Key and the players' webhook endpoints read, in one message), then
:func:`write_and_commit` (everything the change writes in one statement, `COMMIT`, then the
notifications, in one message). The statements are in app/db/hot_statements.py; rows come back
as plain stand-ins for the models (app/db/hot_rows.py), so the models and migrations stay the
one definition of the tables. Why: docs/performance.md.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import orjson
import psycopg2.errors
from psycopg2.extensions import TRANSACTION_STATUS_IDLE
from sqlalchemy.engine import Engine

from app.db import prepared
from app.db.channels import CHANNEL, announce
from app.db.extensions import db
from app.db.hot_rows import caller_of, endpoints_of, match_of, player_of
from app.db.hot_statements import (CREATE_WRITE, CREATION_LOAD, JOIN_LOAD, JOIN_LOCK, JOIN_WRITE,
                                   LOAD, LOCK, LOCK_PLAYER, MATCH_COLUMNS, NOTIFY, READ, WRITE,
                                   WRITE_IF_CURRENT)
from app.db.models import Match, Player, Seat, id_can_exist
from app.db.prepared import Statement
from app.db.write_outcome import UNCERTAIN, was_committed
from app.db.writes import BufferedWrites, Endpoint
from app.infra.problems import ApiError


IdempotencyRecord = tuple[str, str, int, bytes, dict[str, str]]
"""An answer to keep for an Idempotency-Key: the key, the request's hash, the status, the
body as sent, the headers."""


@dataclass
class Loaded:
    """A locked match as the action needs it."""

    match: Match
    replay: dict[str, Any] | None
    """The stored answer of this Idempotency-Key, if it was used before: its request hash,
    status code, headers and `answer` (the body as sent, JSON text)."""
    endpoints: list[Endpoint]
    caller: Player | None = None
    """The caller as stored (read for a join only: :func:`lock_and_load`'s `caller`)."""


@contextmanager
def own_connection(engine: Engine | None = None) -> Iterator[Any]:
    """A pooled connection (SQLAlchemy's ``_ConnectionFairy``) of `engine` (the app's by
    default) outside the ORM session, in autocommit: each statement on its own, or one
    verb's transaction, whose `BEGIN` travels with its first statement
    (:func:`lock_and_load`, :func:`creation_load`) and whose `COMMIT` with its last
    (:func:`write_and_commit` and the like). Whatever ends the block with a
    transaction still open (an API error, a replay, a database error) rolls it back before
    the connection goes back to the pool; a connection that cannot even do that is
    dropped."""
    conn = (engine or db.engine).raw_connection()
    dbapi: Any = conn.dbapi_connection  # psycopg2's connection (`autocommit`, `info`)
    try:
        dbapi.autocommit = True
        yield conn
    finally:
        try:
            if dbapi.info.transaction_status != TRANSACTION_STATUS_IDLE:
                with dbapi.cursor() as cursor:
                    cursor.execute("ROLLBACK")
            dbapi.autocommit = False
        except Exception:  # noqa: BLE001 - the connection is broken: never reused
            conn.invalidate()
        conn.close()


def lock_and_load(conn: Any, match_id: str, player_id: str, key: str | None,
                  caller: bool = False) -> Loaded:
    """Begin, lock `match_id` and read it (404 when there is none): one round trip on the
    action's connection `conn` (:func:`own_connection`). `caller`: also read the caller,
    `player_id` (a join seats them; 401 when there is no such player)."""
    if not id_can_exist(match_id):
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    with prepared.run(conn, [JOIN_LOCK if caller else LOCK, JOIN_LOAD if caller else LOAD],
                      {"match_id": match_id, "player_id": player_id, "key": key},
                      begin=True) as cur:
        row = cur.fetchone()
    if row is None:
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    loaded = _loaded(row[:MATCH_COLUMNS + 2])
    if caller:
        loaded.caller = caller_of(row[MATCH_COLUMNS + 2])
    return loaded


def read_match(match_id: str, conn: Any = None) -> Match | None:
    """The same read without the lock (a view to render): the match, its seats and players,
    in one prepared statement (on `conn`, a pooled connection, or the session's); None when
    there is no such match."""
    if not id_can_exist(match_id):
        return None
    if conn is None:
        conn = db.session.connection().connection
    with prepared.run(conn, [READ], {"match_id": match_id}) as cur:
        row = cur.fetchone()
    return None if row is None else match_of(row)


def _loaded(row: tuple[Any, ...]) -> Loaded:
    replay, endpoints = row[MATCH_COLUMNS:]
    return Loaded(match_of(row[:MATCH_COLUMNS]),
                  None if replay is None else orjson.loads(replay), endpoints_of(endpoints))


def _array(numbers: list[int]) -> str:
    """A PostgreSQL array literal of integers."""
    return "{" + ",".join(map(str, numbers)) + "}"


def _document(match: Match, writes: BufferedWrites, **more: Any) -> str:
    """What a write statement reads (its one parameter `w`): the match's columns and what
    `writes` holds, with `more`."""
    return orjson.dumps({
        "match_id": match.id, "version": match.version, "updated_at": match.updated_at,
        "event_count": match.event_count, "action_count": match.action_count,
        "state": match.state, "to_act": _array(match.to_act), "score": _array(match.score),
        "status": match.status, "winner_team": match.winner_team,
        "end_reason": match.end_reason,
        "deadline": match.deadline, "warn_at": match.warn_at, "due_at": match.due_at,
        "events": writes.events, "deliveries": writes.deliveries,
        **more}, option=orjson.OPT_NAIVE_UTC).decode()


def _notifications(writes: BufferedWrites, watched: str | None = None) -> dict[str, Any]:
    """The parameters of `hot_statements.NOTIFY`: what `writes` notifies; `watched`: an action's
    match, whose change is notified only while it is watched (app/live/watches.py)."""
    return {"notifications": orjson.dumps(
        [{"channel": c, "payload": p, "gated": watched is not None and c == CHANNEL}
         for c, p in writes.notifications]).decode(), "watched": watched}


def write_and_commit(conn: Any, match: Match, writes: BufferedWrites, seat: int,
                     player_id: str,
                     idempotency: IdempotencyRecord | None,
                     ) -> None:
    """Store the changed `match` after an action of `seat` and everything `writes` holds,
    in one statement on the action's connection `conn` (:func:`own_connection`), and
    commit, in one round trip; then this process knows the new versions at once, whatever
    its listener's lag (as a session's commit teaches it: app/live/hub.py). `idempotency`:
    (key, request hash, status, response body as sent, headers) to keep, if any. (When the
    write fails, the `COMMIT` is never run: :func:`own_connection` rolls the transaction
    back.)"""
    _write_and_commit(conn, WRITE, _action_parameters(
        match, writes, seat, player_id, idempotency), writes, match)


def write_if_current(conn: Any, match: Match, writes: BufferedWrites, seat: int,
                     player_id: str,
                     idempotency: IdempotencyRecord | None,
                     ) -> bool:
    """:func:`write_and_commit` for an action applied to the match as this process last
    wrote it (app/live/recent.py), without reading it first: `BEGIN`, the write and `COMMIT` in
    one round trip, kept only if the match is still at the version before `match`'s and
    `writes` has no delivery to enqueue (its players had no webhook endpoint: nor have they
    now). False when it was not kept: the match moved on (or gained an endpoint), or the
    `Idempotency-Key` is used already; the caller then does it all again the locked way
    (:func:`own_connection` rolls this transaction back)."""
    assert not writes.deliveries, "an action with deliveries is written the locked way"
    try:
        _write_and_commit(conn, WRITE_IF_CURRENT, _action_parameters(
            match, writes, seat, player_id, idempotency), writes, match, begin=True)
    except (psycopg2.errors.DivisionByZero, psycopg2.errors.UniqueViolation):
        return False
    return True


def _action_parameters(match: Match, writes: BufferedWrites, seat: int, player_id: str,
                       idempotency: IdempotencyRecord | None,
                       ) -> dict[str, Any]:
    """The parameters of an action's write: its document, the answer to keep and the
    notifications."""
    key, request_hash, status_code, response, headers = idempotency or (None,) * 5
    return {"w": _document(match, writes, actions=writes.actions, seat=seat,
                           player_id=player_id, key=key, request_hash=request_hash,
                           status_code=status_code, headers=headers),
            "answer": None if response is None else response.decode(),
            **_notifications(writes, watched=match.id)}


def seat_and_commit(conn: Any, match: Match, writes: BufferedWrites, seat: Seat) -> None:
    """Store the changed `match` after a join that took (or accepted) `seat`, as
    :func:`write_and_commit` stores an action."""
    _write_and_commit(conn, JOIN_WRITE, {
        "w": _document(match, writes, seats=[_seat_row(seat)]), **_notifications(writes)},
        writes, match)


def create_and_commit(conn: Any, match: Match, writes: BufferedWrites) -> None:
    """Insert the new `match` (its row, seats, events, deliveries) and commit, in one round
    trip on `conn`, in the transaction :func:`creation_load` began."""
    _write_and_commit(conn, CREATE_WRITE, {"w": _document(
        match, writes, id=match.id, ruleset=match.ruleset, players=match.players,
        target_score=match.target_score, visibility=match.visibility,
        invite_code=match.invite_code, created_by=match.created_by, seed=match.seed,
        fixed_deals=match.fixed_deals, config=match.config, turn_timeout=match.turn_timeout,
        on_timeout=match.on_timeout, created_at=match.created_at,
        seats=[_seat_row(s) for s in match.seats]),
        **_notifications(writes)}, writes, match)


def _seat_row(seat: Seat) -> dict[str, Any]:
    return {"seat": seat.seat, "player_id": seat.player_id, "bot_level": seat.bot_level,
            "invited": seat.invited, "client_seed": seat.client_seed}


@dataclass
class CreationLoad:
    """What a creation reads before it writes (:func:`creation_load`)."""

    waiting: int
    """The matches of the creator still waiting for players."""
    invited: dict[str, Player]
    """The invited players that exist, by id."""
    endpoints: list[Endpoint]
    creator: Player
    """The creator as stored."""
    bots_in_flight: dict[str, int]
    """The creator's unfinished matches with a bot and their `hard` seats (bot_quota)."""
    pending: dict[str, dict[str, int]]
    """The invited players' pending invitations (app/play/invitation_rules.py)."""
    blocked_by: list[str]
    """The invited players who have blocked the creator."""


def creation_load(conn: Any, player_id: str, invited: list[str]) -> CreationLoad:
    """Begin, lock the creator's row (so that parallel creations count each other's
    waiting matches; a lock that lets the foreign keys of its other rows be checked), and
    read what a creation needs: one round trip on `conn`
    (:func:`own_connection`)."""
    with prepared.run(conn, [LOCK_PLAYER, CREATION_LOAD],
                      {"player_id": player_id, "invited": invited}, begin=True) as cur:
        waiting, players, endpoints, creator, bots, pending, blocked_by = cur.fetchone()
    return CreationLoad(
        waiting,
        {p["id"]: player_of(p["id"], p) for p in orjson.loads(players or "[]")},
        endpoints_of(endpoints), caller_of(creator), orjson.loads(bots),
        orjson.loads(pending or "{}"), orjson.loads(blocked_by or "[]"))


def _write_and_commit(conn: Any, statement: Statement, params: dict[str, Any],
                      writes: BufferedWrites, match: Match, begin: bool = False) -> None:
    """Every write of this path: `statement` (storing `match`), `COMMIT`, the notifications
    after it (`hot_statements.NOTIFY`), in one message; then this process knows what it committed.
    A message that fails uncertainly is judged by what was kept (app/db/write_outcome.py)."""
    try:
        prepared.run(conn, [statement], params, begin=begin, commit=True,
                     after_commit=[NOTIFY]).close()
    except UNCERTAIN:
        if not was_committed(conn, match.id, match.version, match.updated_at):
            raise
    announce(writes.changes)
