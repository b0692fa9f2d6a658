"""Waiting requests hold no database connection: many long polls on one process leave the
database idle and the process answering fresh requests at once."""
from __future__ import annotations

import time

import requests

from tests.support.database import Pg
from tests.support.player import TIMEOUT
from tests.support.remote import Table, long_poll, settle
from tests.support.servers import Server

POLLS = 30
MAX_IN_USE = 3


def _backends(pg: Pg) -> list[tuple[int, str, str]]:
    """(pid, state, query) of the test database's backends, without the listeners' and
    this connection's."""
    return pg.all(
        "SELECT pid, coalesce(state, ''), query FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND query <> 'LISTEN truco' AND backend_type = 'client backend'")


def test_waiting_requests_hold_no_database_connection(server_a: Server, pg: Pg) -> None:
    table = Table(server_a.url)
    watcher = table.players[0]
    tag = table.view(0).headers["ETag"]
    url = f"{server_a.url}/v1/matches/{table.id}"
    polls = [long_poll(url, 20, watcher.headers_with(**{"If-None-Match": tag}))
             for _ in range(POLLS)]
    settle(polls[-1], 1.0)
    assert not any(p.done.is_set() for p in polls)

    in_use_max, total_max = 0, 0
    for _ in range(5):
        rows = _backends(pg)
        in_use = [r for r in rows if r[1] != "idle"]  # active, idle in transaction, ...
        in_use_max = max(in_use_max, len(in_use))
        total_max = max(total_max, len(rows))
        assert len(in_use) <= MAX_IN_USE, in_use
        time.sleep(0.1)

    start = time.monotonic()
    assert requests.get(f"{server_a.url}/healthz", timeout=TIMEOUT).status_code == 200
    health = time.monotonic() - start
    start = time.monotonic()
    r = requests.get(url, headers=watcher.headers, timeout=TIMEOUT)
    fetch = time.monotonic() - start
    assert r.status_code == 200
    print(f"\n{POLLS} long polls waiting: backends in use at most {in_use_max}, "
          f"open at most {total_max} (idle pool connections of both servers included); "
          f"/healthz {health * 1000:.0f} ms, GET match {fetch * 1000:.0f} ms")
    assert health < 1 and fetch < 1
    assert not any(p.done.is_set() for p in polls)

    # one action wakes every one of them, with the new version
    seat = table.to_act()
    posted_at = time.monotonic()
    acted = table.act(seat, table.view(seat).json()["legal_actions"][0])
    assert acted.status_code == 200
    answers = [p.result(TIMEOUT) for p in polls]
    assert {a.status_code for a in answers} == {200}
    assert {a.json()["version"] for a in answers} == {acted.json()["version"]}
    slowest = max(p.finished_at for p in polls) - posted_at
    print(f"all {POLLS} woken within {slowest * 1000:.0f} ms of the POST")
    assert slowest < 3
