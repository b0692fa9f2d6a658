"""A database that is stopped or hung costs bounded waits and 503s, logs a line per failure
kind (no tracebacks), and the server recovers by itself (production gunicorn, own PostgreSQL)."""
from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.support.database import EmbeddedPostgres
from tests.support.remote import new_token
from tests.support.servers import Server, production_server

# The defaults: connect 3 s, statement 4 s (+1 s client margin), pool 3 s.
WORST_WAIT = 3 + 4 + 1 + 3


@pytest.fixture()
def server(own_pg: EmbeddedPostgres) -> Iterator[Server]:
    started = production_server("outage", own_pg.url, {"TRUCO_RATE_REGISTER": ""})
    try:
        started.wait_healthy()
        yield started
    finally:
        started.stop()


def _probes(base: str, token: str) -> dict[str, requests.Response]:
    """One request to each kind of database-backed endpoint, at once; with their times."""
    calls = {
        "readyz": lambda: requests.get(f"{base}/readyz", timeout=30),
        "register": lambda: requests.post(f"{base}/v1/players", json={"name": "x"}, timeout=30),
        "me": lambda: requests.get(f"{base}/v1/players/me", timeout=30,
                                   headers={"Authorization": f"Bearer {token}"}),
        "lobby": lambda: requests.get(f"{base}/v1/matches", timeout=30),
    }
    with ThreadPoolExecutor(len(calls)) as pool:
        futures = {name: pool.submit(call) for name, call in calls.items()}
        return {name: future.result() for name, future in futures.items()}


def _assert_unavailable(answers: dict[str, requests.Response]) -> None:
    for name, r in answers.items():
        assert r.status_code == 503, (name, r.status_code, r.text)
        assert r.headers["Content-Type"] == "application/problem+json"
        body = r.json()
        assert body["code"] == ("database_unavailable" if name == "readyz"
                                else "service_unavailable"), (name, body)
        assert r.headers["Retry-After"] == str(body["retry_after"]), (name, r.headers)


def _recovers(base: str, within: float) -> float:
    """Seconds until a registration succeeds again."""
    started = time.monotonic()
    while True:
        try:
            if requests.post(f"{base}/v1/players", json={"name": "back"},
                             timeout=15).status_code == 201:
                return time.monotonic() - started
        except requests.RequestException:
            pass
        assert time.monotonic() - started < within, "no recovery"
        time.sleep(0.2)


def test_stopped_database_is_503_without_tracebacks(
        server: Server, own_pg: EmbeddedPostgres) -> None:
    token = new_token(server.url)
    own_pg.stop()
    started = time.monotonic()
    rounds = 0
    while time.monotonic() - started < 3:
        _assert_unavailable(_probes(server.url, token))
        assert requests.get(f"{server.url}/healthz", timeout=5).status_code == 200
        rounds += 1
    log = server.log_text()
    assert "Traceback" not in log, log
    # (production: one JSON object per line, app/infra/logs.py)
    warnings = [line["message"].split(":")[0] for line in map(json.loads, re.findall(
        r"^\{.*\}$", log, flags=re.M)) if line["level"] == "warning"]
    kinds = set(warnings)
    print(f"\n{rounds * 4} failed requests in 3 s; {len(warnings)} log lines: {sorted(kinds)}")
    assert rounds >= 2
    assert kinds and len(warnings) == len(kinds)  # one line per kind in a 10 s interval
    own_pg.start()
    print(f"recovered {_recovers(server.url, 15):.2f} s after the restart")


def test_paused_database_waits_are_bounded_then_503(
        server: Server, own_pg: EmbeddedPostgres) -> None:
    token = new_token(server.url)
    assert requests.get(f"{server.url}/readyz", timeout=5).status_code == 200
    own_pg.pause()
    try:
        started = time.monotonic()
        answers = _probes(server.url, token)
        waited = time.monotonic() - started
        print(f"\nwith the database paused, 4 parallel requests answered 503 in {waited:.2f} s")
        _assert_unavailable(answers)
        assert waited < WORST_WAIT
        started = time.monotonic()
        _assert_unavailable(_probes(server.url, token))
        print(f"a second round, still paused: {time.monotonic() - started:.2f} s")
    finally:
        own_pg.resume()
    print(f"recovered {_recovers(server.url, 15):.2f} s after SIGCONT")
    assert "Traceback" not in server.log_text(), server.log_text()
