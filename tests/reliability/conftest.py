"""Fixtures of the reliability tests: a production gunicorn on the session database, and
(for the outage tests) a private PostgreSQL with its own server."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.database import EmbeddedPostgres, migrate_to_head
from tests.support.servers import Server, running


@pytest.fixture(scope="module")
def prod_server(database_url: str) -> Iterator[Server]:
    """One production-mode gunicorn (1 gevent worker) on the session database."""
    with running("prod", database_url, {"TRUCO_BODY_TIMEOUT": "2"}) as server:
        yield server


@pytest.fixture()
def own_pg() -> Iterator[EmbeddedPostgres]:
    """A private PostgreSQL, migrated, that the test may stop, pause and restart."""
    pg = EmbeddedPostgres()
    try:
        migrate_to_head(pg.start())
        yield pg
    finally:
        pg.close()
