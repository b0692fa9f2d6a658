"""Server-Sent Events on a real gunicorn + gevent server: a match's events and views as they
happen, resumed with Last-Event-ID, spectators, the heartbeat, the per-client cap, no
database connection while idle, the inbox, and the answer at once on shutdown."""
from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.support.database import Pg
from tests.support.player import TIMEOUT, Player
from tests.support.remote import Table
from tests.support.servers import Server, server_in_testing_mode
from tests.support.sse import Stream

CAP = 3


def _server(database_url: str, name: str, **env: str) -> Server:
    server = server_in_testing_mode(name, database_url, **env)
    server.wait_healthy()
    return server


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    """A server whose streams beat every second and whose clients hold at most CAP polls."""
    started = _server(database_url, "streams", TRUCO_STREAM_HEARTBEAT="1",
                      TRUCO_MAX_POLLS_PER_CLIENT=str(CAP))
    yield started
    started.stop()


def _stream(server: Server, table: Table, seat: int | None, **headers: str) -> Stream:
    auth = table.players[seat].headers if seat is not None else {}
    stream = Stream(f"{server.url}/v1/matches/{table.id}/stream", {**auth, **headers})
    assert stream.status == 200, stream.response.text
    assert stream.response.headers["Content-Type"].startswith("text/event-stream")
    return stream


def _log(server: Server, table: Table, seat: int | None, after: int = 0) -> list[dict[str, Any]]:
    headers = table.players[seat].headers if seat is not None else {}
    r = requests.get(f"{server.url}/v1/matches/{table.id}/events",
                     params={"after": after, "limit": 500}, headers=headers, timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    return r.json()["items"]


def _play(table: Table, base: str) -> requests.Response:
    seat = table.to_act()
    acted = table.act(seat, table.view(seat).json()["legal_actions"][0], base=base)
    assert acted.status_code == 200, acted.text
    return acted


def test_a_stream_sends_the_view_then_each_changes_events_and_the_view(server: Server) -> None:
    table = Table(server.url)
    stream = _stream(server, table, 0)
    try:
        events, first = stream.until_view()
        assert events == []  # a new stream starts from now
        assert first.json() == table.view(0).json()
        acted = _play(table, server.url)
        events, view = stream.until_view()
        assert view.json() == table.view(0).json()
        assert view.json()["version"] == acted.json()["version"]
        log = _log(server, table, 0)
        since = [e for e in log if e["version"] > first.json()["version"]]
        assert [m.json() for m in events] == since  # redacted as the log redacts them
        assert [int(m.id or 0) for m in events] == [e["seq"] for e in since]
    finally:
        stream.close()


def test_last_event_id_resumes_with_nothing_lost_or_repeated(server: Server) -> None:
    table = Table(server.url)
    stream = _stream(server, table, 1)
    _, _ = stream.until_view()
    _play(table, server.url)
    events, _ = stream.until_view()
    last = int(events[-1].id or 0)
    stream.close()
    for _ in range(3):  # while nobody listens
        _play(table, server.url)
    resumed = _stream(server, table, 1, **{"Last-Event-ID": str(last)})
    try:
        events, view = resumed.until_view()
        assert [m.json() for m in events] == _log(server, table, 1, after=last)
        assert view.json() == table.view(1).json()
        _play(table, server.url)
        more, _ = resumed.until_view()
        seqs = [int(m.id or 0) for m in events + more]
        assert seqs == sorted(set(seqs)) and seqs[0] == last + 1
        assert seqs == [e["seq"] for e in _log(server, table, 1, after=last)]
    finally:
        resumed.close()


def test_a_spectator_streams_a_public_match_without_hidden_cards(server: Server) -> None:
    ana, bia = Player.register_at(server.url, "ana"), Player.register_at(server.url, "bia")
    r = requests.post(f"{server.url}/v1/matches", headers=ana.headers, timeout=TIMEOUT,
                      json={"players": 2, "visibility": "public"})
    match_id = r.json()["id"]
    stream = Stream(f"{server.url}/v1/matches/{match_id}/stream", {"Last-Event-ID": "0"})
    try:
        assert stream.status == 200
        _, waiting = stream.until_view()
        assert waiting.json()["status"] == "waiting" and waiting.json()["you"] is None
        joined = requests.post(f"{server.url}/v1/matches/{match_id}/join",
                               headers=bia.headers, json={}, timeout=TIMEOUT)
        assert joined.status_code == 200
        events, view = stream.until_view()
        if view.json()["status"] != "active":
            events, view = stream.until_view()
        dealt = [m.json() for m in events if m.event == "event"
                 and m.json()["type"] == "hand_dealt"]
        assert dealt and all(d.get("cards") is None for d in dealt)
        assert view.json()["you"] is None and view.json()["hand"]["cards"] is None
        assert view.json()["legal_actions"] == []
    finally:
        stream.close()


def test_an_idle_stream_sends_a_comment_every_heartbeat(server: Server) -> None:
    table = Table(server.url)
    stream = _stream(server, table, 0)
    try:
        stream.until_view()
        beats = [stream.next(timeout=3, comments=True) for _ in range(2)]
        assert all(b.comment == "keepalive" for b in beats)
        assert beats[1].at - beats[0].at < 2
    finally:
        stream.close()


def test_streams_count_in_the_per_client_cap(server: Server) -> None:
    table = Table(server.url)
    held = [_stream(server, table, 0) for _ in range(CAP)]
    for stream in held:
        stream.until_view()
    over = requests.get(f"{server.url}/v1/matches/{table.id}/stream",
                        headers=table.players[0].headers, timeout=TIMEOUT)
    assert over.status_code == 429
    assert over.json()["code"] == "rate_limited" and over.headers["Retry-After"]
    other = _stream(server, table, 1)  # another client is not counted with the first
    held.pop().close()
    deadline = time.monotonic() + 5
    while True:  # the slot is given back once the server sees the client gone
        again = requests.get(f"{server.url}/v1/matches/{table.id}/stream", stream=True,
                             headers=table.players[0].headers, timeout=TIMEOUT)
        if again.status_code == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert again.status_code == 200
    for stream in [*held, other]:
        stream.close()
    again.close()


def test_idle_streams_hold_no_database_connection(server: Server, pg: Pg) -> None:
    table = Table(server.url)
    # (each its own client)
    watchers = [Player.register_at(server.url, f"fan{i}") for i in range(10)]
    streams = [_stream(server, table, i % 2) for i in range(2)] + [
        Stream(f"{server.url}/v1/matches/{table.id}/stream", w.headers) for w in watchers]
    try:
        for stream in streams:
            stream.until_view()
        time.sleep(1.5)  # past a heartbeat
        busy = pg.all(
            "SELECT pid, state, query FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND query <> 'LISTEN truco'"
            " AND backend_type = 'client backend' AND state <> 'idle'")
        assert len(busy) <= 2, busy
        _play(table, server.url)
        for stream in streams:
            _, view = stream.until_view()
            assert view.json()["version"] == table.view(0).json()["version"]
    finally:
        for stream in streams:
            stream.close()


def test_the_inbox_stream_tells_when_it_becomes_my_turn(server: Server) -> None:
    table = Table(server.url)
    waiting = table.to_act()
    stream = Stream(f"{server.url}/v1/me/stream", table.players[1 - waiting].headers)
    try:
        assert stream.status == 200
        first = stream.next()
        assert first.event == "inbox"
        assert [m["id"] for m in first.json()["items"]] == []
        _play(table, server.url)
        assert table.to_act() == 1 - waiting  # (a trick's first card: the other seat next)
        update = stream.next()
        assert update.event == "inbox"
        (item,) = update.json()["items"]
        assert item["id"] == table.id and item["your_turn"] is True
        mine = requests.get(f"{server.url}/v1/me/matches", params={"your_turn": "true"},
                            headers=table.players[1 - waiting].headers, timeout=TIMEOUT)
        assert update.json() == mine.json()
    finally:
        stream.close()


def test_a_stopping_server_ends_its_streams_at_once(database_url: str) -> None:
    stopping = _server(database_url, "stopping", GUNICORN_CMD_ARGS="--graceful-timeout 30")
    try:
        table = Table(stopping.url)
        stream = _stream(stopping, table, 0)
        stream.until_view()
        started = time.monotonic()
        stopping.process.send_signal(15)
        assert stream.ended.wait(5), stream.error
        assert time.monotonic() - started < 3
        assert stream.error is None  # ended by the server, not cut
    finally:
        stopping.stop()
