"""Shared fixtures: a real PostgreSQL for the session, the app, a client, table cleanup
(tests/support/database.py provides the server and its databases).

The database fixtures are lazy: only tests that ask for them (directly or through ``app``,
``client``, ``clean_db``) start PostgreSQL, so ``pytest tests/engine`` needs none.

- ``TEST_DATABASE_URL`` set: that server is used (any database on it; the role needs
  CREATEDB). Unset: an embedded PostgreSQL starts in a temporary directory and is stopped
  and deleted at the end of the session.
- The session gets a fresh database ``truco_test_<pid>`` migrated to head, dropped at the end.
- ``clean_db`` truncates every table; API tests use it (autouse in their own conftest, or
  ``pytest.mark.usefixtures("clean_db")``). Engine tests never touch a database.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.support.database import Databases, migrate_to_head, server_url


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """URL of a PostgreSQL server the tests may create databases on."""
    with server_url() as url:
        yield url


@pytest.fixture(scope="session")
def make_database(pg_server_url: str) -> Iterator[Callable[[str], str]]:
    """Factory: ``make_database(name)`` creates an empty database and returns its URL.

    Every database made this way is dropped at the end of the session.
    """
    databases = Databases(pg_server_url)
    yield databases.create
    databases.drop_all()


@pytest.fixture(scope="session")
def database_url(make_database: Callable[[str], str]) -> str:
    """The session's database, migrated to head (also for tests that start servers)."""
    url = make_database(f"truco_test_{os.getpid()}")
    migrate_to_head(url)
    return url


@pytest.fixture()
def app(database_url: str) -> Iterator[Any]:
    """The Flask app on the session database, with fixed deals allowed."""
    from app import create_app
    from app.db.extensions import db

    application = create_app({
        "TESTING": True,
        "TRUCO_ENV": "testing",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "FIXED_DEALS_ALLOWED": True,
        "RATE_LIMIT_REGISTER": "",
        "RATE_LIMIT_ACTION": "",
        "RATE_LIMIT_CREATE": "",
        "RATE_LIMIT_SEAT": "",
        "MAX_BOT_MATCHES": 0,
        "MAX_HARD_BOTS": 0,
        "MAX_INVITATIONS_PER_INVITEE": 0,
        "MAX_INVITATIONS_PER_PAIR": 0,
    })
    yield application
    hub = application.extensions.get("truco_hub")
    if hub is not None:  # no listener of a finished test stays connected
        hub.close()
    with application.app_context():
        db.engine.dispose()


@pytest.fixture()
def client(app: Any) -> Any:
    """A Flask test client. Its requests name one X-Request-Id, so that two answers to the
    same request are the same, headers included (the fronts' parity tests compare them)."""
    test_client = app.test_client()
    test_client.environ_base["HTTP_X_REQUEST_ID"] = "test-request"
    return test_client


@pytest.fixture()
def clean_db(app: Any) -> None:
    """Empty every table (before the test), but for the rows the migrations put there (the
    built-in levels' players)."""
    from sqlalchemy import text

    from app.play import level_players
    from app.db.extensions import db

    with app.app_context():
        names = ", ".join(f'"{t.name}"' for t in db.metadata.sorted_tables)
        db.session.execute(text(f"TRUNCATE TABLE {names} RESTART IDENTITY CASCADE"))
        level_players.ensure(db.session())
        db.session.commit()
        db.session.remove()
