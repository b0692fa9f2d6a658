"""The tests' PostgreSQL: the one server of a run, the fresh databases made on it, their
migrations, and a private server a test may stop, pause and restart.

The server of a run is ``TEST_DATABASE_URL`` when set (its role needs CREATEDB), else an
embedded PostgreSQL (devtools.embedded_pg) in a temporary directory, deleted at the end.
Imports of app and sqlalchemy (devtools.embedded_pg's included) stay inside the functions:
engine tests load neither.
"""
from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from devtools.servers import children


class EmbeddedPostgres:
    """An embedded PostgreSQL of its own in a temporary directory, never the machine's, on a
    Unix socket in its data directory: :meth:`start`, :meth:`stop`, :meth:`pause`,
    :meth:`resume`, and :meth:`close` (stopped and deleted)."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="truco-pg-"))
        self.datadir = self.tmp / "pgdata"
        self.url = ""
        self._paused: list[int] = []

    def start(self) -> str:
        """Start (or restart) the server; returns its URL."""
        from devtools.embedded_pg import start_embedded

        self.url = start_embedded(self.datadir)
        return self.url

    def stop(self) -> None:
        """``pg_ctl stop`` (fast): connections are refused until :meth:`start`."""
        from devtools.embedded_pg import stop_embedded

        stop_embedded(self.datadir)

    def postmaster_pid(self) -> int:
        return int((self.datadir / "postmaster.pid").read_text().split()[0])

    def pause(self) -> None:
        """SIGSTOP the postmaster and every backend: connections hang, nothing is refused."""
        master = self.postmaster_pid()
        self._paused = [master, *children(master)]
        for pid in self._paused:
            os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT whatever :meth:`pause` stopped."""
        for pid in self._paused:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self._paused = []

    def close(self) -> None:
        """Resume, stop and delete the server."""
        self.resume()
        self.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)


@contextmanager
def server_url() -> Iterator[str]:
    """The URL of the run's PostgreSQL server, for the block (an embedded one is stopped and
    deleted at its end)."""
    from devtools.embedded_pg import normalise_database_url

    given = os.environ.get("TEST_DATABASE_URL")
    if given:
        yield normalise_database_url(given)
        return
    embedded = EmbeddedPostgres()
    try:
        yield embedded.start()
    finally:
        embedded.close()


class Databases:
    """Fresh, empty databases on one server: :meth:`create`, and :meth:`drop_all` for every
    one it created."""

    def __init__(self, server_url: str) -> None:
        from sqlalchemy import create_engine
        from sqlalchemy.pool import NullPool

        self.server_url = server_url
        self.admin = create_engine(server_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        self.created: list[str] = []

    def create(self, name: str) -> str:
        """An empty database `name` (dropped first if it was there); returns its URL."""
        from sqlalchemy import text
        from sqlalchemy.engine import make_url

        with self.admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        self.created.append(name)
        return make_url(self.server_url).set(database=name).render_as_string(
            hide_password=False)

    def drop_all(self) -> None:
        from sqlalchemy import text

        with self.admin.connect() as conn:
            for name in self.created:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self.admin.dispose()


def migrate_to_head(database_url: str) -> None:
    """Apply every migration to ``database_url``."""
    from flask_migrate import upgrade

    from app import create_app
    from app.db.extensions import db

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        upgrade()
        db.engine.dispose()


def libpq_url(database_url: str) -> str:
    """`database_url` as libpq (and psycopg2.connect) spell it: no ``+psycopg2``."""
    from sqlalchemy.engine import make_url

    return make_url(database_url).set(drivername="postgresql").render_as_string(
        hide_password=False)


class Pg:
    """An autocommit psycopg2 connection to a test database, for looks behind the API."""

    def __init__(self, database_url: str) -> None:
        import psycopg2

        self.conn = psycopg2.connect(libpq_url(database_url), application_name="truco-tests")
        self.conn.autocommit = True

    def one(self, sql: str, *args: Any) -> Any:
        with self.conn.cursor() as cur:
            cur.execute(sql, args)
            return cur.fetchone()

    def all(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with self.conn.cursor() as cur:
            cur.execute(sql, args)
            return cur.fetchall()

    def action_count(self, match_id: str) -> int:
        return self.one("SELECT count(*) FROM actions WHERE match_id = %s", match_id)[0]

    def listener_pids(self) -> list[int]:
        """Backends of the app listeners on this database (`LISTEN truco`)."""
        return [row[0] for row in self.all(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND query = 'LISTEN truco' AND pid <> pg_backend_pid()")]

    def wait_for_listeners(self, count: int, exclude: frozenset[int] | set[int] = frozenset(),
                           timeout: float = 10) -> list[int]:
        """Await `count` listener backends that are not in `exclude`."""
        deadline = time.monotonic() + timeout
        while True:
            pids = [p for p in self.listener_pids() if p not in exclude]
            if len(pids) >= count:
                return pids
            assert time.monotonic() < deadline, f"listeners: {pids}, wanted {count}"
            time.sleep(0.05)

    def close(self) -> None:
        self.conn.close()
