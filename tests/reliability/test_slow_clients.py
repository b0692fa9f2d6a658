"""Connection slots cannot be held without limit: slow bodies time out, abandoned long polls
end at once, and one client's concurrent long polls are capped (production gunicorn)."""
from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import requests

from tests.support.rawhttp import connect, exchange, read_all
from tests.support.remote import new_token
from tests.support.servers import Server, production_server

CAP = 3
BODY_TIMEOUT = 2
WORKER_CONNECTIONS = 40


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    """One worker of 40 connections, bodies within 2 s, 3 long polls per client."""
    started = production_server("slots", database_url, {
        "TRUCO_BODY_TIMEOUT": str(BODY_TIMEOUT),
        "TRUCO_MAX_POLLS_PER_CLIENT": str(CAP),
        "TRUCO_RATE_REGISTER": "",
        "GUNICORN_CMD_ARGS": f"--graceful-timeout 2 --worker-connections {WORKER_CONNECTIONS}",
    })
    try:
        started.wait_healthy()
        yield started
    finally:
        started.stop()


def _public_match(base: str) -> str:
    r = requests.post(f"{base}/v1/matches", json={"players": 2, "visibility": "public"},
                      headers={"Authorization": f"Bearer {new_token(base)}"}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def _poll_request(match_id: str, etag: str, token: str | None = None) -> bytes:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return (f"GET /v1/matches/{match_id}?wait=30 HTTP/1.1\r\nHost: t\r\n{auth}"
            f"If-None-Match: {etag}\r\nConnection: close\r\n\r\n").encode()


def _etag(base: str, match_id: str, token: str | None = None) -> str:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.get(f"{base}/v1/matches/{match_id}", headers=headers, timeout=10
                        ).headers["ETag"]


def test_half_sent_body_is_408_after_the_body_timeout(server: Server) -> None:
    with connect(server.port) as sock:
        started = time.monotonic()
        sock.sendall(b"POST /v1/players HTTP/1.1\r\nHost: t\r\nContent-Type: application/json"
                     b"\r\nContent-Length: 40\r\n\r\n{\"na")
        answer = read_all(sock, started)
    print(f"\nhalf-sent body answered 408 after {answer.elapsed:.2f} s")
    assert answer.status == 408, answer
    assert answer.json()["code"] == "request_timeout"
    assert BODY_TIMEOUT - 0.2 < answer.elapsed < BODY_TIMEOUT + 2


def test_body_trickled_a_byte_a_second_is_cut_at_the_deadline(server: Server) -> None:
    with connect(server.port) as sock:
        started = time.monotonic()
        sock.sendall(b"POST /v1/players HTTP/1.1\r\nHost: t\r\nContent-Type: application/json"
                     b"\r\nContent-Length: 40\r\n\r\n")
        for byte in b'{"name": "slow"':
            if time.monotonic() - started > BODY_TIMEOUT + 1:
                break
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                break
            time.sleep(0.5)
        answer = read_all(sock, started)
    assert answer.status == 408, answer
    assert answer.elapsed < BODY_TIMEOUT + 3


def test_half_sent_headers_are_dropped_after_the_keepalive_timeout(server: Server) -> None:
    with connect(server.port) as sock:
        started = time.monotonic()
        sock.sendall(b"POST /v1/players HTTP/1.1\r\nHost: t\r\nContent-Ty")
        answer = read_all(sock, started)
    print(f"\nhalf-sent headers dropped after {answer.elapsed:.2f} s")
    assert answer.status == 0  # closed without an answer (gunicorn's keepalive = 5 s)
    assert answer.elapsed < 8


def test_abandoned_long_polls_free_their_slots_at_once(server: Server) -> None:
    """45 long polls on a 40-connection worker, abandoned: /healthz answers at once after."""
    match_id = _public_match(server.url)
    clients = [(token, _etag(server.url, match_id, token))
               for token in (new_token(server.url) for _ in range(15))]
    socks = []
    for token, etag in clients:  # 15 clients x CAP polls each = 45 > 40 connections
        for _ in range(CAP):
            sock = connect(server.port)
            sock.sendall(_poll_request(match_id, etag, token))
            socks.append(sock)
    time.sleep(1)
    with pytest.raises(requests.RequestException):  # every slot is held by a poll
        requests.get(f"{server.url}/healthz", timeout=1)
    for sock in socks:
        sock.close()
    started = time.monotonic()
    r = requests.get(f"{server.url}/healthz", timeout=10)
    elapsed = time.monotonic() - started
    print(f"\n/healthz after 45 abandoned polls: {r.status_code} in {elapsed * 1000:.0f} ms")
    assert r.status_code == 200
    assert elapsed < 2


def test_long_polls_are_capped_per_token(server: Server) -> None:
    match_id = _public_match(server.url)
    token, other = new_token(server.url), new_token(server.url)
    etag = _etag(server.url, match_id, token)
    held = [connect(server.port) for _ in range(CAP)]
    try:
        for sock in held:
            sock.sendall(_poll_request(match_id, etag, token))
        time.sleep(0.5)
        over = exchange(server.port, _poll_request(match_id, etag, token))
        assert over.status == 429, over
        problem = over.json()
        assert problem["code"] == "rate_limited"
        assert over.headers["retry-after"] == str(problem["retry_after"])
        assert isinstance(problem["retry_after"], int) and problem["retry_after"] >= 1
        # another token is not affected, and a request that does not wait is never capped
        with connect(server.port, timeout=3) as sock:
            sock.sendall(_poll_request(match_id, _etag(server.url, match_id, other), other))
            with pytest.raises(TimeoutError):
                sock.recv(1)  # held: it waits
        assert requests.get(f"{server.url}/v1/matches/{match_id}", timeout=5,
                            headers={"Authorization": f"Bearer {token}"}).status_code == 200
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.5)  # the closed polls give their slots back
    with connect(server.port, timeout=2) as sock:
        sock.sendall(_poll_request(match_id, etag, token))
        with pytest.raises(TimeoutError):
            sock.recv(1)


def test_anonymous_long_polls_are_capped_per_address(server: Server) -> None:
    match_id = _public_match(server.url)
    etag = _etag(server.url, match_id)
    held = [connect(server.port) for _ in range(CAP)]
    try:
        for sock in held:
            sock.sendall(_poll_request(match_id, etag))
        time.sleep(0.5)
        over = exchange(server.port, _poll_request(match_id, etag))
        assert over.status == 429 and over.json()["code"] == "rate_limited", over
    finally:
        for sock in held:
            sock.close()
