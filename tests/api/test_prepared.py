"""app.db.prepared: statements planned once per connection, by PREPARE / EXECUTE."""
from __future__ import annotations

from typing import Any

import psycopg2
import pytest

from app.db.prepared import Statement, run

TWICE = Statement("test_twice", "SELECT %(n)s * 2, %(label)s || '!', %(n)s + 1",
                  {"n": "int", "label": "text"})


class Fairy:
    """What app.db.prepared uses of SQLAlchemy's pooled connection: `info` and `cursor()`."""

    def __init__(self, dsn: str) -> None:
        self.connection = psycopg2.connect(dsn)
        self.info: dict[str, Any] = {}

    def cursor(self) -> Any:
        return self.connection.cursor()

    def prepared(self) -> set[str]:
        with self.connection.cursor() as cur:
            cur.execute("SELECT name FROM pg_prepared_statements")
            return {name for (name,) in cur.fetchall()}


@pytest.fixture()
def dsn(database_url: str) -> str:
    from app.db.channels import libpq_dsn

    return libpq_dsn(database_url)


def test_a_statement_is_prepared_once_per_connection_and_outlives_rollbacks(dsn: str) -> None:
    conn = Fairy(dsn)
    try:
        assert run(conn, [TWICE], {"n": 20, "label": "a"}).fetchone() == (40, "a!", 21)
        assert conn.prepared() == {"test_twice"}
        conn.connection.rollback()  # a rollback keeps prepared statements
        sent: list[str] = []

        class Spy(psycopg2.extensions.cursor):
            def execute(self, sql: str, params: Any = None) -> None:  # type: ignore[override]
                sent.append(sql)
                super().execute(sql, params)

        conn.cursor = lambda: conn.connection.cursor(cursor_factory=Spy)  # type: ignore
        assert run(conn, [TWICE], {"n": 1, "label": "b"}).fetchone() == (2, "b!", 2)
        assert sent == ["EXECUTE test_twice(%(n)s, %(label)s)"]
        conn.connection.rollback()
        # another connection (or one whose info was lost) finds what it has prepared
        other = Fairy(dsn)
        assert run(other, [TWICE], {"n": 3, "label": "c"}).fetchone() == (6, "c!", 4)
        conn.info.clear()
        assert run(conn, [TWICE], {"n": 4, "label": "d"}).fetchone() == (8, "d!", 5)
        other.connection.close()
    finally:
        conn.connection.close()


def test_a_failed_execute_reads_the_prepared_statements_again(dsn: str) -> None:
    conn = Fairy(dsn)
    try:
        with pytest.raises(psycopg2.Error):
            run(conn, [TWICE], {"n": "not a number", "label": "x"})
        conn.connection.rollback()
        assert "truco_prepared" not in conn.info
        assert run(conn, [TWICE], {"n": 5, "label": "y"}).fetchone() == (10, "y!", 6)
    finally:
        conn.connection.close()


def test_what_runs_after_the_commit_is_a_transaction_of_its_own(dsn: str) -> None:
    """`after_commit`: once the `COMMIT` is done, in the same message, in a transaction of
    its own that does not wait for the disk; a failure there leaves what was committed
    committed, and a failure before it runs nothing after."""
    note = Statement("test_note", "INSERT INTO test_after VALUES (%(n)s, txid_current(), "
                     "current_setting('synchronous_commit'))", {"n": "int"})
    later = Statement("test_later", "INSERT INTO test_after VALUES (%(n)s + 100, "
                      "txid_current(), current_setting('synchronous_commit'))", {"n": "int"})
    conn = Fairy(dsn)
    conn.connection.autocommit = True
    try:
        with conn.connection.cursor() as cur:
            cur.execute("CREATE TEMPORARY TABLE test_after (n int PRIMARY KEY, tx bigint, "
                        "sync text)")
        def rollback() -> None:  # (as app/db/hot_sql.py's own_connection does)
            with conn.connection.cursor() as cur:
                cur.execute("ROLLBACK")

        run(conn, [note], {"n": 1}, begin=True, commit=True, after_commit=[later]).close()
        # the statement before the commit fails: nothing after it runs
        with pytest.raises(psycopg2.errors.UniqueViolation):
            run(conn, [note], {"n": 1}, begin=True, commit=True, after_commit=[later])
        rollback()
        # the statement after the commit fails: what was committed stays
        with pytest.raises(psycopg2.errors.UniqueViolation):
            run(conn, [note], {"n": 2}, begin=True, commit=True, after_commit=[note])
        rollback()
        with conn.connection.cursor() as cur:
            cur.execute("SELECT n, tx, sync FROM test_after ORDER BY n")
            rows = cur.fetchall()
            cur.execute("SHOW synchronous_commit")
            assert cur.fetchone() == ("on",)  # (only that transaction's setting)
        assert [(n, sync) for n, _, sync in rows] == [(1, "on"), (2, "on"), (101, "off")]
        assert rows[2][1] != rows[0][1]  # (another transaction)
    finally:
        conn.connection.close()


def test_every_parameter_has_a_declared_type() -> None:
    with pytest.raises(AssertionError):
        Statement("test_bad", "SELECT %(a)s, %(b)s", {"a": "int"})
    assert TWICE.prepare == "PREPARE test_twice (int, text) AS SELECT $1 * 2, $2 || '!', $1 + 1"


BULK = """
INSERT INTO players (id, name, token_hash, bot)
SELECT 'p_bulk' || g, 'bulk', md5(g::text) || md5(g::text || 'x'), false
  FROM generate_series(1, 4000) g;
INSERT INTO matches (id, ruleset, players, target_score, status, visibility, created_by, seed,
                     config, on_timeout)
SELECT 'm_bulk' || g, 'paulista', 2, 12, 'finished', 'public', 'p_bulk' || g, g, '{}',
       'auto_play'
  FROM generate_series(1, 4000) g;
INSERT INTO seats (match_id, seat, player_id)
SELECT 'm_bulk' || g, s, 'p_bulk' || ((g + s) % 4000 + 1)
  FROM generate_series(1, 4000) g, generate_series(0, 1) s;
INSERT INTO webhook_endpoints (id, player_id, url, events, secret)
SELECT 'wh_bulk' || g, 'p_bulk' || g, 'https://example.org/', '{your_turn}', 'x'
  FROM generate_series(1, 4000) g;
INSERT INTO idempotency_records (player_id, match_id, key, request_hash, status_code, response)
SELECT 'p_bulk' || g, 'm_bulk' || g, 'k', 'h', 200, '{}'
  FROM generate_series(1, 4000) g;
INSERT INTO match_watches (match_id, until)
SELECT 'm_bulk' || g, now() + interval '1 minute' FROM generate_series(1, 4000) g;
ANALYZE players, matches, seats, webhook_endpoints, idempotency_records, match_watches
"""


def _scans(plan: dict[str, Any]) -> list[tuple[str, str]]:
    """(node type, relation) of every node of an EXPLAIN (FORMAT JSON) plan."""
    found = [(plan["Node Type"], plan.get("Relation Name", ""))]
    for child in plan.get("Plans", []):
        found += _scans(child)
    return found


def test_the_hot_statements_are_planned_once_with_index_lookups(dsn: str) -> None:
    """The app's connections use each prepared statement's generic plan
    (`plan_cache_mode`, app/infra/config.py), so every statement must have a good one: with
    thousands of players, matches, seats and endpoints (in a transaction rolled back), no
    statement of the hot paths scans a whole table."""
    from app.db import hot_statements
    from app.live import watches
    from app.live.current import READ_CURRENT
    from app.infra.config import connect_args, database_limits

    statements = {
        READ_CURRENT: {"match_ids": ["m_bulk7", "m_bulk8"],
                                   "token_hashes": [None, "x" * 64]},
        hot_statements.READ: {"match_id": "m_bulk7"},
        hot_statements.LOCK: {"match_id": "m_bulk7"},
        hot_statements.LOAD: {"match_id": "m_bulk7", "player_id": "p_bulk8", "key": "k"},
        hot_statements.LOCK_PLAYER: {"player_id": "p_bulk8"},
        hot_statements.CREATION_LOAD: {"player_id": "p_bulk8", "invited": ["p_bulk9"]},
        hot_statements.WRITE: {"w": '{"match_id": "m_bulk7", "seat": 0}', "answer": None},
        hot_statements.WRITE_IF_CURRENT: {
            "w": '{"match_id": "m_bulk7", "seat": 0, "version": 2}', "answer": None},
        hot_statements.JOIN_LOAD: {"match_id": "m_bulk7", "player_id": "p_bulk8", "key": None},
        hot_statements.JOIN_WRITE: {"w": '{"match_id": "m_bulk7"}'},
        hot_statements.NOTIFY: {"notifications": '[{"channel": "truco", "payload": "x", '
                                                 '"gated": true}]', "watched": "m_bulk7"},
        watches.WATCH: {"match_ids": ["m_bulk7", "m_bulk8"], "seconds": 60.0},
    }
    options = connect_args(database_limits({}))["options"]
    assert "-c plan_cache_mode=force_generic_plan" in options
    conn = psycopg2.connect(dsn, options=options)
    try:
        with conn.cursor() as cur:
            cur.execute("SHOW plan_cache_mode")
            assert cur.fetchone() == ("force_generic_plan",)
            cur.execute(BULK)
            for statement, params in statements.items():
                cur.execute(statement.prepare)
                cur.execute("EXPLAIN (FORMAT JSON) " + statement.execute, params)
                (plan,) = cur.fetchone()[0]
                whole = [rel for node, rel in _scans(plan["Plan"]) if node == "Seq Scan"]
                assert not whole, (statement.name, whole)
    finally:
        conn.rollback()
        conn.close()
