"""The counters behind ``GET /metrics`` (app/http/routes/metrics.py), with prometheus_client.

Counted as things happen: requests by method, route and status, and their latency per route
(app/http/request_log.py, for both fronts); long polls held open now (app/live/pollcap.py);
the worker's steps and webhook deliveries by outcome.

Under gunicorn each process writes its values to ``PROMETHEUS_MULTIPROC_DIR`` (set by
gunicorn.conf.py, or by ``scripts/dev.py serve`` for the web and worker processes together),
and a scrape adds them up; without that variable the values are the process's own.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

REQUESTS = Counter("truco_http_requests_total", "Requests answered",
                   ["method", "route", "status"])
LATENCY = Histogram("truco_http_request_seconds", "Time to answer a request (long polls "
                    "included: they wait)", ["route"],
                    buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10,
                             30, 60))
HELD = Gauge("truco_held_requests", "Long polls held open now", multiprocess_mode="livesum")
WORKER_STEPS = Counter("truco_worker_steps_total", "Background steps done",
                       ["step"])
REVIEWED = Counter("truco_reviewed_decisions_total", "Decisions judged by match reviews")
DELIVERIES = Counter("truco_webhook_deliveries_total", "Webhook delivery attempts",
                     ["outcome"])
ID_SEGMENT = re.compile(r"/[a-z]{1,4}_[0-9a-f]{24}(?=/|$)")
_children: dict[tuple[str, str, int], tuple[Any, Any]] = {}


def route_of(path: str, routes: frozenset[str]) -> str:
    """The route template of ``path`` (ids as ``{id}``), one of ``routes``, or ``other``:
    a bounded set of labels whatever clients send."""
    if path.startswith("/docs/"):
        return "/docs/{page}"
    route = ID_SEGMENT.sub("/{id}", path)
    return route if route in routes else "other"


def routes(rules: Iterable[str]) -> frozenset[str]:
    """The route templates of the app's URL rules."""
    return frozenset(re.sub(r"<[^>]+>", "{id}", rule) for rule in rules)


METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def count_request(method: str, route: str, status: int, seconds: float) -> None:
    """One answered request (its children cached: no label lookup per request)."""
    key = (method if method in METHODS else "other", route, status)
    pair = _children.get(key)
    if pair is None:
        pair = _children[key] = (REQUESTS.labels(key[0], route, str(status)),
                                 LATENCY.labels(route))
    pair[0].inc()
    pair[1].observe(seconds)
