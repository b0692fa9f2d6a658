"""One address cannot hold every connection of a worker: past
TRUCO_MAX_CONNECTIONS_PER_CLIENT held at once, a new connection is answered 429
`too_many_connections` and closed at once; a freed one makes room (app/infra/gunicorn_worker.py)."""
from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from tests.support.rawhttp import connect, exchange
from tests.support.servers import Server, running

HEALTH = b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"


@pytest.fixture()
def capped(database_url: str) -> Iterator[Server]:
    with running("capped", database_url, {"TRUCO_MAX_CONNECTIONS_PER_CLIENT": "3"}) as server:
        yield server


def test_connections_past_the_cap_per_address_are_refused_at_once(capped: Server) -> None:
    held = [connect(capped.port) for _ in range(3)]
    try:
        for sock in held:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Half: ")  # never finished
        time.sleep(0.5)
        began = time.monotonic()
        answer = exchange(capped.port, HEALTH)
        assert answer.status == 429 and time.monotonic() - began < 1.0
        assert json.loads(answer.body)["code"] == "too_many_connections"
        held.pop().close()
        time.sleep(0.5)
        assert exchange(capped.port, HEALTH).status == 200  # room again
    finally:
        for sock in held:
            sock.close()
