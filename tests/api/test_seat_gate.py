"""Join, leave and resign by a caller with no business in the match are refused without
waiting for the match's row lock, and seat changes are rate limited per player
(app/play/seat_gate.py)."""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg2

from tests.support.api import assert_problem, create, full_match, join, register
from tests.support.database import libpq_url


@contextmanager
def locked(database_url: str, match_id: str) -> Iterator[None]:
    """The match row locked by another transaction, as a slow verb would hold it."""
    conn = psycopg2.connect(libpq_url(database_url))
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT 1 FROM matches WHERE id = %s FOR UPDATE", (match_id,))
            yield
    finally:
        conn.rollback()
        conn.close()


def timed(call: Any) -> tuple[Any, float]:
    began = time.monotonic()
    r = call()
    return r, time.monotonic() - began


def test_a_stranger_is_refused_without_queueing_on_the_lock(client: Any, app: Any,
                                                            database_url: str) -> None:
    match_id, _ = full_match(client, players=2)  # active
    stranger = register(client, "stranger")
    with locked(database_url, match_id):
        r, took = timed(lambda: join(client, match_id, stranger))
        assert_problem(r, 409, "match_not_waiting")
        assert took < 1.0, took
        for verb in ("leave", "resign"):
            r, took = timed(lambda: client.post(f"/v1/matches/{match_id}/{verb}",
                                                headers=stranger.headers))
            assert_problem(r, 403, "not_a_player")
            assert took < 1.0, (verb, took)


def test_the_gate_answers_as_the_locked_path_would(client: Any, app: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    waiting = create(client, ana, players=2)["id"]
    assert_problem(client.post(f"/v1/matches/{waiting}/resign", headers=ana.headers),
                   409, "match_not_active")  # seated, not started: the lock says so
    assert_problem(client.post("/v1/matches/m_nope/leave", headers=ana.headers),
                   404, "match_not_found")
    assert join(client, waiting, bia).status_code == 200  # starts it
    assert join(client, waiting, bia).status_code == 200  # seated already: your seat again
    assert_problem(client.post(f"/v1/matches/{waiting}/leave", headers=bia.headers),
                   409, "match_not_waiting")
    assert client.post(f"/v1/matches/{waiting}/resign", headers=bia.headers).status_code == 200
    assert_problem(client.post(f"/v1/matches/{waiting}/resign", headers=bia.headers),
                   409, "match_not_active")


def test_seat_changes_are_rate_limited_per_player(client: Any, app: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    app.config["RATE_LIMIT_SEAT"] = "2/60"
    try:
        match_id = create(client, ana, players=4)["id"]
        assert join(client, match_id, bia).status_code == 200
        assert client.post(f"/v1/matches/{match_id}/leave",
                           headers=bia.headers).status_code == 200
        r = join(client, match_id, bia)
        body = assert_problem(r, 429, "rate_limited")
        assert body["retry_after"] >= 1
        assert join(client, match_id, register(client, "carl")).status_code == 200
    finally:
        app.config["RATE_LIMIT_SEAT"] = ""
