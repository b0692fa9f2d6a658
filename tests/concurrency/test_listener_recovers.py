"""The LISTEN connection is re-established after it is killed, and a change committed while
no listener was connected still wakes the waiters once it is back."""
from __future__ import annotations

import time

from tests.support.database import Pg
from tests.support.player import TIMEOUT
from tests.support.remote import Table, long_poll, settle
from tests.support.servers import Server


def test_long_polls_are_woken_after_the_listener_reconnects(
        server_a: Server, server_b: Server, pg: Pg) -> None:
    table = Table(server_a.url)
    seat = table.to_act()
    watcher = table.players[1 - seat]
    tag = table.view(1 - seat).headers["ETag"]
    # one poll on each process (a process's first long poll starts its listener)
    polls = {s.name: long_poll(f"{s.url}/v1/matches/{table.id}", 15,
                               watcher.headers_with(**{"If-None-Match": tag}))
             for s in (server_a, server_b)}
    for poll in polls.values():
        settle(poll)
    old = set(pg.wait_for_listeners(2))  # (and any of an earlier test's server still stopping)

    killed_at = time.monotonic()
    for pid in old:
        assert pg.one("SELECT pg_terminate_backend(%s, 5000)", pid)[0]
    assert not set(pg.listener_pids()) & old
    # committed while no listener is connected: its NOTIFY reaches nobody
    acted = table.act(seat, table.view(seat).json()["legal_actions"][0])
    assert acted.status_code == 200

    new = pg.wait_for_listeners(2, exclude=old)
    reconnected = time.monotonic() - killed_at
    assert not set(new) & old
    for name, poll in polls.items():
        r = poll.result(TIMEOUT)
        woken = poll.finished_at - killed_at
        print(f"\n{name}: listener back within {reconnected * 1000:.0f} ms of the kill; "
              f"the poll held across the gap answered after {woken * 1000:.0f} ms")
        assert r.status_code == 200
        assert r.json()["version"] == acted.json()["version"]
        assert woken < 5  # not at the end of its 15 s wait

    # after the reconnect, NOTIFY wakes again (the action posted to the other process)
    seat = 1 - seat
    watcher = table.players[1 - seat]
    before = table.view(1 - seat)
    poll = long_poll(f"{server_a.url}/v1/matches/{table.id}", 15,
                     watcher.headers_with(**{"If-None-Match": before.headers["ETag"]}))
    settle(poll)
    posted_at = time.monotonic()
    acted = table.act(seat, table.view(seat).json()["legal_actions"][0], server_b.url)
    assert acted.status_code == 200
    r = poll.result(TIMEOUT)
    latency = poll.finished_at - posted_at
    print(f"after the reconnect: woken {latency * 1000:.0f} ms after the POST")
    assert r.status_code == 200 and r.json()["version"] == acted.json()["version"]
    assert latency < 1
