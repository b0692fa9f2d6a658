"""app.prepared: statements planned once per connection, by PREPARE / EXECUTE."""
from __future__ import annotations

from typing import Any

import psycopg2
import pytest

from app.prepared import Statement, run

TWICE = Statement("test_twice", "SELECT %(n)s * 2, %(label)s || '!', %(n)s + 1",
                  {"n": "int", "label": "text"})


class Fairy:
    """What app.prepared uses of SQLAlchemy's pooled connection: `info` and `cursor()`."""

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
    from app.waiting import libpq_dsn

    return libpq_dsn(database_url)


def test_a_statement_is_prepared_once_per_connection_and_outlives_rollbacks(dsn: str) -> None:
    fairy = Fairy(dsn)
    try:
        assert run(fairy, [TWICE], {"n": 20, "label": "a"}).fetchone() == (40, "a!", 21)
        assert fairy.prepared() == {"test_twice"}
        fairy.connection.rollback()  # a rollback keeps prepared statements
        sent: list[str] = []

        class Spy(psycopg2.extensions.cursor):
            def execute(self, sql: str, params: Any = None) -> None:  # type: ignore[override]
                sent.append(sql)
                super().execute(sql, params)

        fairy.cursor = lambda: fairy.connection.cursor(cursor_factory=Spy)  # type: ignore
        assert run(fairy, [TWICE], {"n": 1, "label": "b"}).fetchone() == (2, "b!", 2)
        assert sent == ["EXECUTE test_twice(%(n)s, %(label)s)"]
        fairy.connection.rollback()
        # another connection (or one whose info was lost) finds what it has prepared
        other = Fairy(dsn)
        assert run(other, [TWICE], {"n": 3, "label": "c"}).fetchone() == (6, "c!", 4)
        fairy.info.clear()
        assert run(fairy, [TWICE], {"n": 4, "label": "d"}).fetchone() == (8, "d!", 5)
        other.connection.close()
    finally:
        fairy.connection.close()


def test_a_failed_execute_reads_the_prepared_statements_again(dsn: str) -> None:
    fairy = Fairy(dsn)
    try:
        with pytest.raises(psycopg2.Error):
            run(fairy, [TWICE], {"n": "not a number", "label": "x"})
        fairy.connection.rollback()
        assert "truco_prepared" not in fairy.info
        assert run(fairy, [TWICE], {"n": 5, "label": "y"}).fetchone() == (10, "y!", 6)
    finally:
        fairy.connection.close()


def test_every_parameter_has_a_declared_type() -> None:
    with pytest.raises(AssertionError):
        Statement("test_bad", "SELECT %(a)s, %(b)s", {"a": "int"})
    assert TWICE.prepare == "PREPARE test_twice (int, text) AS SELECT $1 * 2, $2 || '!', $1 + 1"
