"""kill -9 of every app process mid-load: no acknowledged action is lost, every stored state is
the replay of its actions, and every match plays on to its end after a restart."""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.support.crash_clients import SeatClient, run_all
from tests.support.database import Pg
from tests.support.player import Player
from tests.support.servers import Server, server_in_testing_mode

MATCHES = 8
"""Four human-vs-human matches and four human-vs-`random`-bot matches (the worker moves)."""
START_SCORE = [7, 7]
"""Short matches (a few hands each) keep the test bounded."""
CRASH_AFTER_ACTIONS = 40
DEADLINE_SECONDS = 45


@pytest.fixture()
def crash_servers(database_url: str) -> Iterator[list[Server]]:
    """Two gunicorn servers on the session database; the first runs the background worker."""
    servers = [server_in_testing_mode("crash-a", database_url),
               server_in_testing_mode("crash-b", database_url, worker=False)]
    try:
        for server in servers:
            server.wait_healthy()
        yield servers
    finally:
        for server in servers:
            text = server.log_text()
            server.stop()
            if "Unhandled error" in text:
                print(f"\n--- server {server.name} log ---\n{text}")


def _match(base: str, creator: Player, other: Player | None) -> str:
    """A started 2-player match: `other` joins seat 1, or a `random` bot has it."""
    body: dict[str, Any] = {"players": 2, "seat": 0, "start_score": START_SCORE,
                            "visibility": "private"}
    if other is None:
        body["bots"] = [{"seat": 1, "level": "random"}]
    r = requests.post(f"{base}/v1/matches", json=body, headers=creator.headers, timeout=10)
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    if other is not None:
        r = requests.post(f"{base}/v1/matches/{match_id}/join", headers=other.headers,
                          json={"seat": 1, "invite_code": r.json()["invite_code"]}, timeout=10)
        assert r.status_code == 200, r.text
    return match_id


def _clients(servers: list[Server]) -> list[SeatClient]:
    urls = [s.url for s in servers]
    clients = []
    for i in range(MATCHES):
        bot = i % 2 == 1
        players = [Player.register_at(urls[0], f"c{i}a")]
        if not bot:
            players.append(Player.register_at(urls[0], f"c{i}b"))
        match_id = _match(urls[i % 2], players[0], None if bot else players[1])
        clients += [SeatClient(urls, match_id, seat, p.token, seed=100 * i + seat)
                    for seat, p in enumerate(players)]
    return clients


def _acknowledged(clients: list[SeatClient]) -> int:
    return sum(len(c.acknowledged) for c in clients)


def _check_replay(app: Any, match_id: str) -> None:
    """The stored state equals the replay of the `actions` rows from the creation config."""
    from app.play import store as match_store
    from app.db.extensions import db

    with app.app_context():
        match = match_store.get_match(match_id)
        replayed = match_store.replay(match)
        assert replayed is not None
        assert json.loads(json.dumps(replayed.to_json())) == match.state, match_id
        db.session.remove()


def test_kill_9_mid_load_loses_no_acknowledged_action(
        crash_servers: list[Server], database_url: str, app: Any) -> None:
    clients = _clients(crash_servers)
    deadline = time.monotonic() + DEADLINE_SECONDS
    threads = run_all(clients, deadline)

    while _acknowledged(clients) < CRASH_AFTER_ACTIONS:
        assert time.monotonic() < deadline, "the load never got going"
        time.sleep(0.02)
    for server in crash_servers:
        server.kill()
    at_crash = _acknowledged(clients)
    time.sleep(0.5)  # clients meet refused connections meanwhile
    for server in crash_servers:
        server.restart()
    for server in crash_servers:
        server.wait_healthy()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()) + 1)

    assert [c.error for c in clients if c.error] == []
    assert all(c.finished for c in clients), "a match did not play on to its end"
    assert at_crash < _acknowledged(clients), "nothing was acknowledged after the restart"
    assert sum(c.lost_requests for c in clients) > 0, "the crash cut no request"

    pg = Pg(database_url)
    bot_moves = 0
    try:
        for client in clients:
            # every 200 is in the table, in order; and nothing the client was not told of
            stored = [body for (body,) in pg.all(
                "SELECT body FROM actions WHERE match_id = %s AND seat = %s "
                "AND player_id IS NOT NULL ORDER BY n", client.match_id, client.seat)]
            assert stored == client.acknowledged, (client.match_id, client.seat)
        for match_id in {c.match_id for c in clients}:
            status, bots = pg.one(
                "SELECT status, (SELECT count(*) FROM actions a WHERE a.match_id = m.id "
                "AND a.player_id IS NULL) FROM matches m WHERE id = %s", match_id)
            assert status == "finished", match_id
            bot_moves += bots
            _check_replay(app, match_id)
    finally:
        pg.close()
    assert bot_moves > 0, "the worker moved no bot"
    print(f"\ncrash: {at_crash} actions acknowledged before the kill, "
          f"{_acknowledged(clients)} in all, {bot_moves} bot moves, "
          f"{sum(c.lost_requests for c in clients)} requests cut, "
          f"{sum(c.retried_keys for c in clients)} idempotent retries "
          f"({sum(c.replayed for c in clients)} replayed a committed action), lost: 0")
