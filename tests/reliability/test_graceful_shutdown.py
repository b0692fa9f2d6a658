"""SIGTERM to gunicorn answers every held long poll (view, events, inbox) before it exits."""
from __future__ import annotations

import signal
import time

import requests

from tests.support.player import Player
from tests.support.remote import Background, long_poll
from tests.support.servers import production_server

POLLS_PER_KIND = 5
GRACEFUL_TIMEOUT = 10
"""Long enough that an answer within 2 s cannot be gunicorn's forced stop."""


def test_sigterm_answers_every_held_long_poll(database_url: str) -> None:
    server = production_server("graceful", database_url, {
        "GUNICORN_CMD_ARGS": f"--graceful-timeout {GRACEFUL_TIMEOUT}",
        "TRUCO_RATE_REGISTER": ""})
    try:
        server.wait_healthy()
        base = server.url
        player = Player.register_at(base, "grace")
        r = requests.post(f"{base}/v1/matches", json={}, headers=player.headers, timeout=10)
        assert r.status_code == 201, r.text
        match_id, etag = r.json()["id"], r.headers["ETag"]
        after = requests.get(f"{base}/v1/matches/{match_id}/events", headers=player.headers,
                             timeout=10).json()["next_after"]

        views = [long_poll(f"{base}/v1/matches/{match_id}", 30,
                           player.headers_with(**{"If-None-Match": etag}))
                 for _ in range(POLLS_PER_KIND)]
        events = [long_poll(f"{base}/v1/matches/{match_id}/events", 30, player.headers,
                            {"after": after}) for _ in range(POLLS_PER_KIND)]
        inbox = [long_poll(f"{base}/v1/me/matches", 30, player.headers,
                           {"your_turn": "true"}) for _ in range(POLLS_PER_KIND)]
        polls: list[Background] = views + events + inbox
        time.sleep(1.0)
        assert not any(p.done.is_set() for p in polls), "a long poll answered before SIGTERM"

        sent = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        for poll in views:
            r = poll.result(3)
            assert r.status_code == 304 and r.headers["ETag"] == etag
        for poll in events:
            r = poll.result(3)
            assert r.status_code == 304 and r.content == b""
        for poll in inbox:
            r = poll.result(3)
            assert r.status_code == 200 and r.json()["items"] == []
            assert r.headers["Content-Type"] == "application/json"
        slowest = max(p.finished_at for p in polls) - sent
        assert slowest < 2.0
        assert server.process.wait(timeout=GRACEFUL_TIMEOUT - 2) == 0
        exited = time.monotonic() - sent
        assert "Worker graceful timeout" not in server.log_text()
        print(f"\nshutdown: {len(polls)} long polls answered, the slowest "
              f"{slowest * 1000:.0f} ms after SIGTERM; gunicorn exited after {exited:.2f} s")
    finally:
        server.stop()
