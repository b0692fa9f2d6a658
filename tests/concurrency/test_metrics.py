"""/metrics on a running server (gunicorn, its workers' values added up in multiprocess mode):
requests by route and status, latency, held long polls, the worker's queue and the outbox;
a token guards it, and in production it is off without one."""
from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from app import create_app
from tests.support.servers import Server, start_testing_servers


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    (started,) = start_testing_servers(["metrics"], database_url)
    yield started
    started.stop()


def _samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def _value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_a_scrape_counts_requests_latency_held_polls_and_queues(server: Server) -> None:
    base = server.url
    before = _samples(requests.get(f"{base}/metrics", timeout=10).text)
    player = requests.post(f"{base}/v1/players", json={"name": "ana"}, timeout=10).json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    # a match waiting for its second player: nothing changes it while the poll is held
    match = requests.post(f"{base}/v1/matches", headers=auth, timeout=10, json={}).json()
    for _ in range(3):
        view = requests.get(f"{base}/v1/matches/{match['id']}", headers=auth, timeout=10)
    requests.get(f"{base}/v1/matches/m_{'0' * 24}", timeout=10)  # a 404 of the same route
    for path in ("/wp-admin/x", "/v1/matches/junk/junk"):
        requests.get(base + path, timeout=10)
    # a long poll held while the scrape happens
    done: list[Any] = []
    held = threading.Thread(target=lambda: done.append(requests.get(
        f"{base}/v1/matches/{match['id']}?wait=3", timeout=10,
        headers={**auth, "If-None-Match": view.headers["ETag"]})))
    held.start()
    for _ in range(50):
        scraped = requests.get(f"{base}/metrics", timeout=10)
        after = _samples(scraped.text)
        if _value(after, "truco_held_requests") >= 1:
            break
        held.join(0.05)
    held.join()
    assert scraped.status_code == 200 and scraped.headers["Content-Type"].startswith(
        "text/plain")
    assert _value(after, "truco_held_requests") >= 1

    def grew(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    assert grew("truco_http_requests_total", method="POST", route="/v1/players",
                status="201") == 1
    assert grew("truco_http_requests_total", method="GET", route="/v1/matches/{id}",
                status="200") == 3
    assert grew("truco_http_requests_total", method="GET", route="/v1/matches/{id}",
                status="404") == 1
    assert grew("truco_http_requests_total", method="GET", route="other", status="404") == 2
    assert grew("truco_http_request_seconds_count", route="/v1/matches/{id}") == 4
    routes = {dict(labels).get("route") for name, labels in after}
    assert not {r for r in routes if r and re.search(r"m_[0-9a-f]|junk|wp-admin", r)}
    for name in ("truco_worker_queue_depth", "truco_worker_queue_lag_seconds",
                 "truco_webhook_outbox_depth", "truco_webhook_outbox_lag_seconds",
                 "truco_review_queue_depth", "truco_review_queue_lag_seconds"):
        assert (name, frozenset()) in after, name
    assert done and done[0].status_code == 304


def test_a_token_guards_metrics_and_production_needs_one(database_url: str) -> None:
    guarded = create_app({"DATABASE_URL": database_url, "METRICS_TOKEN": "s3cret"}).test_client()
    assert guarded.get("/metrics").status_code == 401
    assert guarded.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    ok = guarded.get("/metrics", headers={"Authorization": "Bearer s3cret"})
    assert ok.status_code == 200 and b"truco_http_requests_total" in ok.data
    production = create_app({"DATABASE_URL": database_url, "TRUCO_ENV": "production",
                             "METRICS_TOKEN": None}).test_client()
    assert production.get("/metrics").status_code == 404
