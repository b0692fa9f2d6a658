"""The hot verbs' database work: an action in two round trips, or one for the match this
process wrote last (:func:`write_if_current`); a creation and a join in two; the read that
renders views.

On a pooled connection of its own (:func:`own_connection`), outside the ORM session:
:func:`lock_and_load` (`BEGIN`, the match row locked, then the match, seats, players, the stored
answer of an Idempotency-Key and the players' webhook endpoints read, in one message), then
:func:`write_and_commit` (everything the change writes in one statement, `COMMIT`, then the
notifications, in one message). Rows come back as plain stand-ins for the models (:func:`_row`);
the models and migrations stay the one definition of the tables. Why: docs/performance.md.
"""
from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TypeVar

import orjson
import psycopg2.errors
from psycopg2.extensions import TRANSACTION_STATUS_IDLE
from sqlalchemy.engine import Engine

from app.db import prepared
from app.infra.problems import ApiError
from app.db.extensions import db
from app.db.models import Match, Player, Seat, id_can_exist
from app.db.prepared import Statement
from app.db.channels import CHANNEL, announce
from app.db.write_outcome import UNCERTAIN, was_committed
from app.db.writes import BufferedWrites, Endpoint
from engine.bots import SEARCHING_LEVELS

T = TypeVar("T")

_LOCK = Statement("truco_action_lock", """
SELECT 1 FROM matches WHERE id = %(match_id)s FOR UPDATE""", {"match_id": "text"})

_JOIN_LOCK = Statement("truco_join_lock", """
SELECT 1 FROM matches m
 WHERE m.id = %(match_id)s
   AND (m.status = 'waiting' OR EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id
                                           AND s.player_id = %(player_id)s AND NOT s.invited))
   FOR UPDATE OF m""", {"match_id": "text", "player_id": "text"})
"""A join's lock: none for a caller who has no seat in a match past waiting (the join is
refused from the read that follows: a match never goes back to waiting), so such callers
never queue on the lock of a match being played."""

_PLAYER_FIELDS = """'name', p.name, 'handle', p.handle, 'bot', p.bot,
                'created_at', to_char(p.created_at AT TIME ZONE 'UTC',
                                      'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')"""
"""A player `p`'s fields as JSON object members (read back by :func:`_player`)."""


def _active_endpoints(players: str) -> str:
    """The active webhook endpoints of the players of the SQL array `players`, as JSON text
    (read back by :func:`_endpoints`)."""
    return f"""(SELECT json_agg(json_build_object('id', e.id, 'player_id', e.player_id,
                                          'events', e.events))::text
          FROM webhook_endpoints e
         WHERE e.status = 'active' AND e.player_id = ANY({players}))"""


_MATCH_AND_SEATS = """
SELECT m.id, m.ruleset, m.players, m.target_score, m.status, m.visibility, m.invite_code,
       m.created_by, m.seed, m.fixed_deals, m.config::text, m.state::text, m.version,
       m.event_count, m.action_count, m.winner_team, m.turn_timeout, m.on_timeout,
       m.deadline, m.to_act, m.score, m.warn_at, m.due_at, m.created_at, m.updated_at,
       m.end_reason, m.rematch_id,
       (SELECT json_agg(json_build_object(
                'seat', s.seat, 'player_id', s.player_id, 'bot_level', s.bot_level,
                'invited', s.invited, 'timeouts', s.timeouts,
                'timeouts_in_row', s.timeouts_in_row, 'client_seed', s.client_seed,
                'invited_at', CASE WHEN s.invited THEN to_char(s.joined_at AT TIME ZONE 'UTC',
                                    'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') END,
                """ + _PLAYER_FIELDS + """)
                ORDER BY s.seat)::text
          FROM seats s LEFT JOIN players p ON p.id = s.player_id
         WHERE s.match_id = m.id)"""
"""The match's columns and its seats with their players (the first 28 columns of a read)."""

_READ = Statement("truco_match_read",
                  _MATCH_AND_SEATS + "\n  FROM matches m WHERE m.id = %(match_id)s",
                  {"match_id": "text"})

_CALLER = """(SELECT json_build_object('id', p.id, """ + _PLAYER_FIELDS + """)::text
          FROM players p WHERE p.id = %(player_id)s)"""
"""The caller's own fields (read back by :func:`_caller`): a player about to take a seat."""


def _load(name: str, caller: bool) -> Statement:
    """The action's read of a locked match (:func:`lock_and_load`); `caller`: with the
    caller's own fields last (a join: the caller has no seat yet)."""
    return Statement(name, _MATCH_AND_SEATS + """,
       (SELECT json_build_object('request_hash', i.request_hash,
                                 'status_code', i.status_code,
                                 'answer', coalesce(i.answer, i.response::text),
                                 'headers', i.headers)::text
          FROM idempotency_records i
         WHERE i.player_id = %(player_id)s AND i.match_id = m.id AND i.key = %(key)s),
       """ + _active_endpoints(
        "ARRAY(SELECT s.player_id::text FROM seats s WHERE s.match_id = m.id) || %(player_id)s"
    ) + (",\n       " + _CALLER if caller else "") + """
  FROM matches m WHERE m.id = %(match_id)s""",
                     {"match_id": "text", "player_id": "text", "key": "text"})


_LOAD = _load("truco_action_load", caller=False)
_JOIN_LOAD = _load("truco_join_load", caller=True)

_UPDATE_MATCH = """
m AS (
  UPDATE matches SET version = (%(w)s->>'version')::int,
         updated_at = (%(w)s->>'updated_at')::timestamptz,
         event_count = (%(w)s->>'event_count')::int,
         action_count = (%(w)s->>'action_count')::int,
         state = nullif(%(w)s->'state', 'null'), to_act = (%(w)s->>'to_act')::smallint[],
         score = (%(w)s->>'score')::smallint[], status = %(w)s->>'status',
         winner_team = (%(w)s->>'winner_team')::smallint, end_reason = %(w)s->>'end_reason',
         deadline = (%(w)s->>'deadline')::timestamptz,
         warn_at = (%(w)s->>'warn_at')::timestamptz, due_at = (%(w)s->>'due_at')::timestamptz
   WHERE id = %(w)s->>'match_id' /*if unchanged*/)"""

_INSERT_MATCH = """
m AS (
  INSERT INTO matches (id, ruleset, players, target_score, status, visibility, invite_code,
                       created_by, seed, fixed_deals, config, state, version, event_count,
                       action_count, winner_team, turn_timeout, on_timeout, deadline, to_act,
                       score, warn_at, due_at, created_at, updated_at)
  SELECT x.id, x.ruleset, x.players, x.target_score, x.status, x.visibility, x.invite_code,
         x.created_by, x.seed, x.fixed_deals, x.config, nullif(x.state, 'null'), x.version,
         x.event_count, x.action_count, x.winner_team, x.turn_timeout, x.on_timeout,
         x.deadline, x.to_act::smallint[], x.score::smallint[], x.warn_at, x.due_at,
         x.created_at, x.updated_at
    FROM jsonb_to_record(%(w)s) AS x(
         id text, ruleset text, players smallint, target_score smallint, status text,
         visibility text, invite_code text, created_by text, seed bigint, fixed_deals boolean,
         config jsonb, state jsonb, version int, event_count int, action_count int,
         winner_team smallint, turn_timeout int, on_timeout text, deadline timestamptz,
         to_act text, score text, warn_at timestamptz, due_at timestamptz,
         created_at timestamptz, updated_at timestamptz)
)"""

_SEATS = """
st AS (
  INSERT INTO seats (match_id, seat, player_id, bot_level, invited, client_seed)
  SELECT %(w)s->>'match_id', x.seat, x.player_id, x.bot_level, x.invited, x.client_seed
    FROM jsonb_to_recordset(%(w)s->'seats')
         AS x(seat smallint, player_id text, bot_level text, invited boolean,
              client_seed text)
  ON CONFLICT (match_id, seat) DO UPDATE SET invited = EXCLUDED.invited,
                                             client_seed = EXCLUDED.client_seed)"""
"""The seats taken (a seat reserved by an invitation is accepted: it exists already), with
their client seeds."""

_INSERT_ACTIONS = """
a AS (
  INSERT INTO actions (match_id, n, seat, player_id, body)
  SELECT %(w)s->>'match_id', x.n, x.seat, x.player_id, x.body
    FROM jsonb_to_recordset(%(w)s->'actions')
         AS x(n int, seat smallint, player_id text, body jsonb) /*where current*/)"""

_INSERT_EVENTS = """
e AS (
  INSERT INTO events (match_id, seq, version, type, data)
  SELECT %(w)s->>'match_id', x.seq, x.version, x.type, x.data
    FROM jsonb_to_recordset(%(w)s->'events')
         AS x(seq int, version int, type text, data jsonb) /*where current*/)"""

_RESET_TIMEOUTS = """
s AS (
  UPDATE seats SET timeouts_in_row = 0
   WHERE match_id = %(w)s->>'match_id' AND seat = (%(w)s->>'seat')::smallint
     AND timeouts_in_row <> 0 /*and current*/)"""

_INSERT_IDEMPOTENCY = """
i AS (
  INSERT INTO idempotency_records
         (player_id, match_id, key, request_hash, status_code, answer, headers)
  SELECT %(w)s->>'player_id', %(w)s->>'match_id', %(w)s->>'key', %(w)s->>'request_hash',
         (%(w)s->>'status_code')::int, %(answer)s, %(w)s->'headers'
   WHERE %(w)s->>'key' IS NOT NULL /*and current*/)"""
"""(The answer is a parameter of its own, as text: it is only ever sent back, and as part of
the JSON document PostgreSQL would parse it.)"""

_INSERT_DELIVERIES = """
d AS (
  INSERT INTO webhook_deliveries (id, endpoint_id, event, payload, status, attempts,
                                  next_attempt_at)
  SELECT x.id, x.endpoint_id, x.event, x.payload, 'pending', 0, x.next_attempt_at
    FROM jsonb_to_recordset(%(w)s->'deliveries')
         AS x(id text, endpoint_id text, event text, payload jsonb,
              next_attempt_at timestamptz)
   WHERE EXISTS (SELECT FROM webhook_endpoints e WHERE e.id = x.endpoint_id FOR KEY SHARE))"""
"""The deliveries, each to an endpoint that still exists, held until the commit (its deletion
waits, then deletes them by its cascade). An endpoint read with the match whose deletion has
committed since, or commits while this waits for its row, gets none: the insert would fail
its foreign key, and with it the whole change. (A KEY SHARE lock, as the foreign key's check
takes: it waits for no claim or record of a delivery, which lock the endpoint FOR NO KEY
UPDATE; the deletion takes no match's lock.)"""

_DONE = """
SELECT 1"""
"""The end of a write statement (its data-modifying CTEs run whether it reads them or not)."""

_DONE_IF_CURRENT = """
SELECT 1 / count(*)::int AS ok FROM m"""
"""The end of :data:`_WRITE_IF_CURRENT`, its guard: when `m` updated no row (the match is no
longer at the version the write started from), `1 / 0` fails the whole statement
(`division_by_zero`, SQLSTATE 22012) before anything is kept (nor its `COMMIT` run, nor the
notifications sent)."""

_NOTIFY = Statement("truco_notify", """
SELECT count(pg_notify(x.channel, x.payload))
  FROM jsonb_to_recordset(%(notifications)s) AS x(channel text, payload text, gated boolean)
 WHERE NOT x.gated
    OR EXISTS (SELECT 1 FROM match_watches w WHERE w.match_id = %(watched)s AND w.until > now())
""", {"notifications": "jsonb", "watched": "text"})
"""The notifications of a write, sent once its `COMMIT` is done, in the same message but a
transaction of their own whose commit does not wait for the disk (app/db/prepared.py:
`after_commit`), so that concurrent writes share their flushes. An action's notification of
its match (`gated`) is sent only while the match (`watched`) is watched (app/live/watches.py);
the others always are. A notification comes only after its change is committed, never for a
write that failed; a committed change goes untold only if its backend ends between the two or
this transaction fails (the verb then answers 503): docs/performance.md."""

_UNCHANGED = """ AND version = (%(w)s->>'version')::int - 1
     AND NOT EXISTS (SELECT 1 FROM seats s JOIN webhook_endpoints e ON e.player_id = s.player_id
                      WHERE s.match_id = %(w)s->>'match_id' AND e.status = 'active')
  RETURNING 1"""
"""The guard of an action written without a read first (:func:`write_if_current`): the match
is still at the version before this one, and none of its players has an active webhook
endpoint (the write enqueues no delivery: one that has goes the locked way)."""


def _writing(name: str, *parts: str, if_current: bool = False) -> Statement:
    """One statement of `parts` (data-modifying CTEs) from one JSON document `w` (one
    parameter to quote instead of two dozen) and, for an action, the answer to keep.
    `if_current`: the match's update is guarded (:data:`_UNCHANGED`), every other part writes
    only if it did, and the statement fails when it did not (:data:`_DONE_IF_CURRENT`). (The
    notifications follow the commit: :data:`_NOTIFY`.)"""
    if if_current:
        sql = "WITH" + ",".join(parts).replace("/*if unchanged*/", _UNCHANGED).replace(
            "/*where current*/", "WHERE EXISTS (SELECT 1 FROM m)").replace(
            "/*and current*/", "AND EXISTS (SELECT 1 FROM m)") + _DONE_IF_CURRENT
        assert "/*" not in sql, "every part is guarded"
    else:
        sql = "WITH" + ",".join(parts) + _DONE
    return Statement(name, sql, {"w": "jsonb", **({"answer": "text"} if "%(answer)s" in sql
                                                   else {})})


_WRITE = _writing("truco_action_write", _UPDATE_MATCH, _INSERT_ACTIONS,
                  _INSERT_EVENTS, _RESET_TIMEOUTS, _INSERT_IDEMPOTENCY,
                  _INSERT_DELIVERIES)
"""Everything an action writes (:func:`write_and_commit`)."""

_WRITE_IF_CURRENT = _writing("truco_action_write_if_current", _UPDATE_MATCH, _INSERT_ACTIONS,
                             _INSERT_EVENTS, _RESET_TIMEOUTS, _INSERT_IDEMPOTENCY,
                             if_current=True)
"""Everything an action writes, when the match is unchanged since the version it was
applied to, no delivery to enqueue (:func:`write_if_current`)."""

_JOIN_WRITE = _writing("truco_join_write", _UPDATE_MATCH, _SEATS,
                       _INSERT_EVENTS, _INSERT_DELIVERIES)
"""Everything a join writes: the match, the seat taken (or the invitation accepted), events,
deliveries (:func:`write_and_commit`)."""

_CREATE_WRITE = _writing("truco_create_write", _INSERT_MATCH, _SEATS,
                         _INSERT_EVENTS,
                         _INSERT_DELIVERIES)
"""Everything a creation writes: the match, its seats, events, deliveries
(:func:`create_and_commit`)."""


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


_PLAIN: dict[type, type] = {}


def _row(model: type[T], **columns: Any) -> T:
    """A stand-in for an instance of `model` holding `columns`: a plain object with the
    model's own methods (`Match.seat_of`, ...) and none of the ORM's instrumentation, whose
    attribute reads and writes cost a tenth of an action's CPU in the process. What the
    service and the rendering do with a model they do with it; it is never added to a
    session (nothing could be flushed) and holds nothing of one."""
    plain = _PLAIN.get(model)
    if plain is None:
        methods = {name: value for name, value in vars(model).items()
                   if inspect.isfunction(value) and not name.startswith("_")}
        plain = _PLAIN[model] = type(f"Plain{model.__name__}", (), methods)
    instance = plain.__new__(plain)
    instance.__dict__.update(columns)
    return instance  # type: ignore[no-any-return]


def _utc(moment: datetime | None) -> datetime | None:
    return None if moment is None else moment.astimezone(timezone.utc)


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
    dbapi = conn.dbapi_connection
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
    with prepared.run(conn, [_JOIN_LOCK if caller else _LOCK, _JOIN_LOAD if caller else _LOAD],
                      {"match_id": match_id, "player_id": player_id, "key": key},
                      begin=True) as cur:
        row = cur.fetchone()
    if row is None:
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    loaded = _loaded(row[:MATCH_COLUMNS + 2])
    if caller:
        loaded.caller = _caller(row[MATCH_COLUMNS + 2])
    return loaded


def _caller(found: str | None) -> Player:
    """The caller read by :data:`_CALLER` (401 when the row is gone: a token this process
    knew for a player no longer stored)."""
    if found is None:
        raise ApiError(401, "unauthorized", "the bearer token is unknown")
    fields = orjson.loads(found)
    return _player(fields["id"], fields)


def read_match(match_id: str, conn: Any = None) -> Match | None:
    """The same read without the lock (a view to render): the match, its seats and players,
    in one prepared statement (on `conn`, a pooled connection, or the session's); None when
    there is no such match."""
    if not id_can_exist(match_id):
        return None
    if conn is None:
        conn = db.session.connection().connection
    with prepared.run(conn, [_READ], {"match_id": match_id}) as cur:
        row = cur.fetchone()
    return None if row is None else _match_of(row)


def _loaded(row: tuple[Any, ...]) -> Loaded:
    replay, endpoints = row[MATCH_COLUMNS:]
    return Loaded(_match_of(row[:MATCH_COLUMNS]),
                  None if replay is None else orjson.loads(replay), _endpoints(endpoints))


def _endpoints(found: str | None) -> list[Endpoint]:
    return [Endpoint(e["id"], e["player_id"], tuple(e["events"]))
            for e in orjson.loads(found or "[]")]


MATCH_COLUMNS = 28
"""The columns of :data:`_MATCH_AND_SEATS`."""


def _match_of(row: tuple[Any, ...]) -> Match:
    (mid, ruleset, players, target_score, status, visibility, invite_code, created_by, seed,
     fixed_deals, config, state, version, event_count, action_count, winner_team,
     turn_timeout, on_timeout, deadline, to_act, score, warn_at, due_at, created_at,
     updated_at, end_reason, rematch_id, seats) = row
    return _row(
        Match, id=mid, ruleset=ruleset, players=players, target_score=target_score, status=status,
        visibility=visibility, invite_code=invite_code, created_by=created_by, seed=seed,
        fixed_deals=fixed_deals, config=orjson.loads(config),
        state=None if state is None else orjson.loads(state), version=version,
        event_count=event_count, action_count=action_count, winner_team=winner_team,
        turn_timeout=turn_timeout, on_timeout=on_timeout, deadline=_utc(deadline),
        to_act=list(to_act), score=list(score), warn_at=_utc(warn_at), due_at=_utc(due_at),
        created_at=_utc(created_at), updated_at=_utc(updated_at),
        end_reason=end_reason, rematch_id=rematch_id,
        seats=[_seat(mid, s) for s in orjson.loads(seats or "[]")])


_MATCH_FIELDS = tuple(k for k in Match.__table__.columns.keys() if k != "settled_at")
"""Every column of a match that :func:`_match_of` reads (`settled_at` is the settlers')."""
_SEAT_FIELDS = ("match_id", "seat", "player_id", "bot_level", "invited", "timeouts",
                "timeouts_in_row", "client_seed", "player", "joined_at")
"""What :func:`_seat` reads of a seat (`joined_at` only for an invitation: when it was
sent, which its summary shows)."""


def copy_match(match: Match) -> Match:
    """A plain copy of `match` (a stand-in, or a model object never in a session: a kept
    match, app/live/recent.py) for a verb to change, its seats copied too. (The verbs replace
    the other values, never change them in place.)"""
    return _row(Match, **{name: getattr(match, name) for name in _MATCH_FIELDS},
                seats=[_row(Seat, **{name: getattr(seat, name) for name in _SEAT_FIELDS})
                       for seat in match.seats])


def _player(player_id: str, fields: dict[str, Any]) -> Player:
    """The player `player_id` of :data:`_PLAYER_FIELDS` read as JSON."""
    return _row(Player, id=player_id, name=fields["name"], handle=fields["handle"],
                bot=fields["bot"],
                created_at=datetime.fromisoformat(fields["created_at"]))


def _seat(match_id: str, s: dict[str, Any]) -> Seat:
    player = None if s["player_id"] is None else _player(s["player_id"], s)
    invited_at = s.get("invited_at")
    return _row(Seat, match_id=match_id, seat=s["seat"], player_id=s["player_id"],
                bot_level=s["bot_level"], invited=s["invited"], timeouts=s["timeouts"],
                timeouts_in_row=s["timeouts_in_row"], client_seed=s["client_seed"],
                player=player,
                joined_at=None if invited_at is None else datetime.fromisoformat(invited_at))


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
    """The parameters of :data:`_NOTIFY`: what `writes` notifies; `watched`: an action's
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
    _write_and_commit(conn, _WRITE, _action_parameters(
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
        _write_and_commit(conn, _WRITE_IF_CURRENT, _action_parameters(
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
    _write_and_commit(conn, _JOIN_WRITE, {
        "w": _document(match, writes, seats=[_seat_row(seat)]), **_notifications(writes)},
        writes, match)


def create_and_commit(conn: Any, match: Match, writes: BufferedWrites) -> None:
    """Insert the new `match` (its row, seats, events, deliveries) and commit, in one round
    trip on `conn`, in the transaction :func:`creation_load` began."""
    _write_and_commit(conn, _CREATE_WRITE, {"w": _document(
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


BOTS_IN_FLIGHT = """(SELECT json_build_object(
           'matches', count(DISTINCT s.match_id),
           'searching', count(*) FILTER (WHERE s.bot_level IN (""" + ", ".join(
    f"'{level}'" for level in SEARCHING_LEVELS) + """)))::text
          FROM matches m JOIN seats s ON s.match_id = m.id
         WHERE m.created_by = %(player_id)s AND m.status IN ('waiting', 'active')
           AND s.bot_level IS NOT NULL)"""
"""The creator's bot matches not over and their seats of searching levels, as JSON text."""

PENDING_INVITATIONS = """(SELECT json_object_agg(c.player_id, json_build_object(
           'all', c.total, 'mine', c.mine))::text
          FROM (SELECT s.player_id, count(*) AS total,
                       count(*) FILTER (WHERE m.created_by = %(player_id)s) AS mine
                  FROM seats s JOIN matches m ON m.id = s.match_id
                 WHERE s.player_id = ANY(%(invited)s) AND s.invited AND m.status = 'waiting'
                 GROUP BY s.player_id) c)"""
"""The invited players' pending invitations: in all and from the creator, as JSON text."""

BLOCKED_BY = """(SELECT json_agg(b.player_id)::text FROM player_blocks b
          WHERE b.player_id = ANY(%(invited)s) AND b.blocked_id = %(player_id)s)"""
"""The invited players who have blocked the creator, as JSON text."""


_LOCK_PLAYER = Statement("truco_lock_player", """
SELECT 1 FROM players WHERE id = %(player_id)s FOR NO KEY UPDATE""", {"player_id": "text"})

_CREATION_LOAD = Statement("truco_creation_load", """
SELECT (SELECT count(*) FROM matches
         WHERE created_by = %(player_id)s AND status = 'waiting'),
       (SELECT json_agg(json_build_object('id', p.id, """ + _PLAYER_FIELDS + """))::text
          FROM players p WHERE p.id = ANY(%(invited)s)),
       """ + _active_endpoints("%(invited)s || %(player_id)s") + """,
       """ + _CALLER + """,
       """ + BOTS_IN_FLIGHT + """,
       """ + PENDING_INVITATIONS + """,
       """ + BLOCKED_BY, {"player_id": "text", "invited": "text[]"})


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
    with prepared.run(conn, [_LOCK_PLAYER, _CREATION_LOAD],
                      {"player_id": player_id, "invited": invited}, begin=True) as cur:
        waiting, players, endpoints, creator, bots, pending, blocked_by = cur.fetchone()
    return CreationLoad(
        waiting,
        {p["id"]: _player(p["id"], p) for p in orjson.loads(players or "[]")},
        _endpoints(endpoints), _caller(creator), orjson.loads(bots),
        orjson.loads(pending or "{}"), orjson.loads(blocked_by or "[]"))


def _write_and_commit(conn: Any, statement: Statement, params: dict[str, Any],
                      writes: BufferedWrites, match: Match, begin: bool = False) -> None:
    """Every write of this path: `statement` (storing `match`), `COMMIT`, the notifications
    after it (:data:`_NOTIFY`), in one message; then this process knows what it committed.
    A message that fails uncertainly is judged by what was kept (app/db/write_outcome.py)."""
    try:
        prepared.run(conn, [statement], params, begin=begin, commit=True,
                     after_commit=[_NOTIFY]).close()
    except UNCERTAIN:
        if not was_committed(conn, match.id, match.version, match.updated_at):
            raise
    announce(writes.changes)
