"""The benchmarks' PostgreSQL: an embedded server (devtools.embedded_pg) or a given one,
fresh databases on it (dropped at the end on a given server), migrated to head."""
from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path
from typing import Any

from bench.lib import procfs
from bench.lib.report import log
from devtools.servers import children

APPLICATION_NAME = "bench-api"


def libpq_url(url: str) -> str:
    """`url` as libpq (psycopg2.connect) takes it: no SQLAlchemy driver name."""
    from sqlalchemy.engine import make_url
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def with_database(url: str, name: str) -> str:
    """`url` naming database `name` instead."""
    from sqlalchemy.engine import make_url
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def execute_autocommit(url: str, sql: str) -> None:
    """One statement outside a transaction (CREATE DATABASE, a schema), on a connection of
    its own."""
    import psycopg2
    conn = psycopg2.connect(libpq_url(url))
    try:
        conn.autocommit = True
        conn.cursor().execute(sql)
    finally:
        conn.close()


class Postgres:
    """An embedded PostgreSQL in `tmp`, or the server the first set variable of `url_env`
    names (its role needs CREATEDB), and the databases this run creates on it."""

    def __init__(self, tmp: Path, url_env: tuple[str, ...] = ("BENCH_DATABASE_URL",)) -> None:
        self.datadir: Path | None = None
        given = next((os.environ[name] for name in url_env if os.environ.get(name)), None)
        if given:
            from app.infra.config import normalise_database_url
            self.url = normalise_database_url(given)
            self.kind = next(name for name in url_env if os.environ.get(name))
        else:
            from devtools.embedded_pg import start_embedded
            self.datadir = tmp / "pgdata"
            self.url = start_embedded(self.datadir)
            self.kind = "embedded"
        self.made: list[str] = []
        self._admin: Any = None

    def admin(self) -> Any:
        """An autocommit psycopg2 connection to the server, kept for the run."""
        import psycopg2
        if self._admin is None or self._admin.closed:
            self._admin = psycopg2.connect(libpq_url(self.url),
                                           application_name=APPLICATION_NAME)
            self._admin.autocommit = True
        return self._admin

    def version(self) -> str:
        with self.admin().cursor() as cur:
            cur.execute("SHOW server_version")
            version: str = cur.fetchone()[0]
            return version

    def create_database(self, name: str) -> str:
        """A new empty database `name` (an old one of that name is dropped); its URL."""
        with self.admin().cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            cur.execute(f'CREATE DATABASE "{name}"')
        self.made.append(name)
        return with_database(self.url, name)

    def backends(self, database: str) -> list[tuple[str, str, str]]:
        """(state, application_name, query) of the client backends of `database`."""
        with self.admin().cursor() as cur:
            cur.execute("SELECT coalesce(state, ''), coalesce(application_name, ''), query "
                        "FROM pg_stat_activity WHERE datname = %s "
                        "AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
                        (database,))
            rows: list[tuple[str, str, str]] = cur.fetchall()
            return rows

    def postmaster_pid(self) -> int | None:
        """The embedded server's postmaster; None for a given server."""
        if self.datadir is None:
            return None
        try:
            return int((self.datadir / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def pids(self) -> list[int]:
        """The embedded server's processes right now; none for a given server."""
        pid = self.postmaster_pid()
        return [] if pid is None else [pid, *children(pid)]

    def cpu_seconds(self) -> float | None:
        """CPU time of the embedded server's processes so far: the postmaster's own, its
        children's that ended (cutime + cstime: a backend that exits takes its time with it)
        and those of its living children; None for a given server."""
        pid = self.postmaster_pid()
        if pid is None:
            return None
        return procfs.cpu_seconds(pid, reaped=True) + sum(procfs.cpu_seconds(c)
                                                          for c in children(pid))

    def stop(self) -> None:
        """Drop this run's databases on a given server; stop an embedded one."""
        try:
            if self.made and self.datadir is None:  # a given server: leave it clean
                with self.admin().cursor() as cur:
                    for name in self.made:
                        cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        except Exception as exc:  # noqa: BLE001 - teardown goes on
            log(f"warning: could not drop the bench databases: {exc}")
        if self._admin is not None:
            self._admin.close()
        if self.datadir is not None:
            from devtools.embedded_pg import stop_embedded
            stop_embedded(self.datadir)


def migrate_to_head(database_url: str) -> None:
    """Apply every migration (as tests/conftest.py does); alembic's chatter is shown only
    when the upgrade fails."""
    from flask_migrate import upgrade

    from app import create_app
    from app.db.extensions import db

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    chatter = io.StringIO()
    try:
        with app.app_context(), contextlib.redirect_stderr(chatter):
            upgrade()
            db.engine.dispose()
    except BaseException:
        log(chatter.getvalue())
        raise


def make_counters(database_url: str, rows: int) -> None:
    """The baseline's table (bench/_baseline_app.py): `rows` counters, ids from 0."""
    import psycopg2
    with psycopg2.connect(libpq_url(database_url)) as conn, conn.cursor() as cur:
        cur.execute("CREATE TABLE counters (id integer PRIMARY KEY, n bigint NOT NULL)")
        cur.execute("INSERT INTO counters SELECT g, 0 FROM generate_series(0, %s) g",
                    (rows - 1,))
    conn.close()
