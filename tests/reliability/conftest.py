"""Fixtures of the reliability tests: a production gunicorn on the session database, and
(for the outage tests) a private PostgreSQL with its own server."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import migrate_to_head
from tests.reliability.own_pg import OwnPostgres
from tests.reliability.prod_server import ProdServer, running


@pytest.fixture(scope="module")
def prod_server(database_url: str) -> Iterator[ProdServer]:
    """One production-mode gunicorn (1 gevent worker) on the session database."""
    with running("prod", database_url, {"TRUCO_BODY_TIMEOUT": "2"}) as server:
        yield server


@pytest.fixture()
def own_pg() -> Iterator[OwnPostgres]:
    """A private PostgreSQL, migrated, that the test may stop, pause and restart."""
    pg = OwnPostgres()
    try:
        migrate_to_head(pg.start())
        yield pg
    finally:
        pg.close()
