"""Fixtures of the concurrency tests: two gunicorn servers (gevent worker) on the session's
database, and a direct connection to that database."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.database import Pg
from tests.support.servers import Server, start_testing_servers


@pytest.fixture(scope="package")
def servers(database_url: str) -> Iterator[list[Server]]:
    """Servers A and B: two processes, one database (the waits cross processes through
    LISTEN/NOTIFY). Stopped, process group and all, after this directory's tests."""
    started = start_testing_servers(["A", "B"], database_url)
    try:
        yield started
    finally:
        for server in started:
            text = server.log_text()
            server.stop()
            if "Unhandled error" in text:  # a 500: show the tracebacks
                print(f"\n--- server {server.name} log ---\n{text}")


@pytest.fixture()
def server_a(servers: list[Server]) -> Server:
    return servers[0]


@pytest.fixture()
def server_b(servers: list[Server]) -> Server:
    return servers[1]


@pytest.fixture()
def pg(database_url: str) -> Iterator[Pg]:
    conn = Pg(database_url)
    yield conn
    conn.close()
