"""The SQL of the hot verbs (app/db/hot_sql.py), each statement prepared once per connection
(app/db/prepared.py): the locks, the reads of a match with its seats and players, and the
writes of an action, a join and a creation, each one statement of data-modifying CTEs."""
from __future__ import annotations

from app.db.prepared import Statement
from engine.bots import SEARCHING_LEVELS


LOCK = Statement("truco_action_lock", """
SELECT 1 FROM matches WHERE id = %(match_id)s FOR UPDATE""", {"match_id": "text"})

JOIN_LOCK = Statement("truco_join_lock", """
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
"""A player `p`'s fields as JSON object members (read back by `hot_rows.player_of`)."""


def _active_endpoints(players: str) -> str:
    """The active webhook endpoints of the players of the SQL array `players`, as JSON text
    (read back by `hot_rows.endpoints_of`)."""
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

READ = Statement("truco_match_read",
                 _MATCH_AND_SEATS + "\n  FROM matches m WHERE m.id = %(match_id)s",
                 {"match_id": "text"})

_CALLER = """(SELECT json_build_object('id', p.id, """ + _PLAYER_FIELDS + """)::text
          FROM players p WHERE p.id = %(player_id)s)"""
"""The caller's own fields (read back by `hot_rows.caller_of`): a player about to take a seat."""


def _load(name: str, caller: bool) -> Statement:
    """The action's read of a locked match (`hot_sql.lock_and_load`); `caller`: with the
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


LOAD = _load("truco_action_load", caller=False)
JOIN_LOAD = _load("truco_join_load", caller=True)

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
"""The end of :data:`WRITE_IF_CURRENT`, its guard: when `m` updated no row (the match is no
longer at the version the write started from), `1 / 0` fails the whole statement
(`division_by_zero`, SQLSTATE 22012) before anything is kept (nor its `COMMIT` run, nor the
notifications sent)."""

NOTIFY = Statement("truco_notify", """
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
"""The guard of an action written without a read first (`hot_sql.write_if_current`): the match
is still at the version before this one, and none of its players has an active webhook
endpoint (the write enqueues no delivery: one that has goes the locked way)."""


def _writing(name: str, *parts: str, if_current: bool = False) -> Statement:
    """One statement of `parts` (data-modifying CTEs) from one JSON document `w` (one
    parameter to quote instead of two dozen) and, for an action, the answer to keep.
    `if_current`: the match's update is guarded (:data:`_UNCHANGED`), every other part writes
    only if it did, and the statement fails when it did not (:data:`_DONE_IF_CURRENT`). (The
    notifications follow the commit: :data:`NOTIFY`.)"""
    if if_current:
        sql = "WITH" + ",".join(parts).replace("/*if unchanged*/", _UNCHANGED).replace(
            "/*where current*/", "WHERE EXISTS (SELECT 1 FROM m)").replace(
            "/*and current*/", "AND EXISTS (SELECT 1 FROM m)") + _DONE_IF_CURRENT
        assert "/*" not in sql, "every part is guarded"
    else:
        sql = "WITH" + ",".join(parts) + _DONE
    return Statement(name, sql, {"w": "jsonb", **({"answer": "text"} if "%(answer)s" in sql
                                                   else {})})


WRITE = _writing("truco_action_write", _UPDATE_MATCH, _INSERT_ACTIONS,
                 _INSERT_EVENTS, _RESET_TIMEOUTS, _INSERT_IDEMPOTENCY,
                 _INSERT_DELIVERIES)
"""Everything an action writes (`hot_sql.write_and_commit`)."""

WRITE_IF_CURRENT = _writing("truco_action_write_if_current", _UPDATE_MATCH, _INSERT_ACTIONS,
                            _INSERT_EVENTS, _RESET_TIMEOUTS, _INSERT_IDEMPOTENCY,
                            if_current=True)
"""Everything an action writes, when the match is unchanged since the version it was
applied to, no delivery to enqueue (`hot_sql.write_if_current`)."""

JOIN_WRITE = _writing("truco_join_write", _UPDATE_MATCH, _SEATS,
                      _INSERT_EVENTS, _INSERT_DELIVERIES)
"""Everything a join writes: the match, the seat taken (or the invitation accepted), events,
deliveries (`hot_sql.write_and_commit`)."""

CREATE_WRITE = _writing("truco_create_write", _INSERT_MATCH, _SEATS,
                        _INSERT_EVENTS,
                        _INSERT_DELIVERIES)
"""Everything a creation writes: the match, its seats, events, deliveries
(`hot_sql.create_and_commit`)."""
MATCH_COLUMNS = 28
"""The columns of :data:`_MATCH_AND_SEATS`."""
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


LOCK_PLAYER = Statement("truco_lock_player", """
SELECT 1 FROM players WHERE id = %(player_id)s FOR NO KEY UPDATE""", {"player_id": "text"})

CREATION_LOAD = Statement("truco_creation_load", """
SELECT (SELECT count(*) FROM matches
         WHERE created_by = %(player_id)s AND status = 'waiting'),
       (SELECT json_agg(json_build_object('id', p.id, """ + _PLAYER_FIELDS + """))::text
          FROM players p WHERE p.id = ANY(%(invited)s) AND p.closed_at IS NULL),
       """ + _active_endpoints("%(invited)s || %(player_id)s") + """,
       """ + _CALLER + """,
       """ + BOTS_IN_FLIGHT + """,
       """ + PENDING_INVITATIONS + """,
       """ + BLOCKED_BY, {"player_id": "text", "invited": "text[]"})
