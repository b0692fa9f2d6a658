"""Two server processes on one database: a long poll held by one is woken by an action
posted to the other (PostgreSQL LISTEN/NOTIFY carries the wake-up)."""
from __future__ import annotations

import statistics
import time

from tests.support.player import TIMEOUT
from tests.support.remote import Table, long_poll, settle
from tests.support.servers import Server

LIMIT = 2.0


def test_long_poll_on_one_process_is_woken_by_an_action_on_the_other(
        server_a: Server, server_b: Server) -> None:
    table = Table(server_a.url)
    latencies = []
    for round_ in range(4):
        waiting_on, acting_on = (server_a, server_b) if round_ % 2 == 0 else (server_b, server_a)
        seat = table.to_act()
        watcher = table.players[1 - seat]
        before = table.view(1 - seat)
        poll = long_poll(f"{waiting_on.url}/v1/matches/{table.id}", 10,
                         watcher.headers_with(**{"If-None-Match": before.headers["ETag"]}))
        settle(poll)
        body = table.view(seat).json()["legal_actions"][0]
        posted_at = time.monotonic()
        acted = table.act(seat, body, acting_on.url)
        assert acted.status_code == 200, acted.text
        r = poll.result(TIMEOUT)
        latency = poll.finished_at - posted_at
        latencies.append(latency)
        print(f"\nwait on {waiting_on.name}, act on {acting_on.name}: woken "
              f"{latency * 1000:.0f} ms after the POST was sent")
        assert r.status_code == 200
        assert r.json()["version"] == acted.json()["version"]
        assert latency < LIMIT
    print(f"cross-process wake latency: median {statistics.median(latencies) * 1000:.0f} ms, "
          f"max {max(latencies) * 1000:.0f} ms")
