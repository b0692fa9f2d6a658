"""``GET /metrics``: the Prometheus text format, for an operator's scraper (not in the spec).

Besides the counters of app/infra/metrics.py, read at each scrape from the database: the work
due to the workers (matches with a bot move, a warning or a deadline due), the webhook outbox
and the match reviews waiting, each as a depth and the lag of its most overdue item. With
``TRUCO_METRICS_TOKEN`` set, a scrape must send ``Authorization: Bearer <it>``; in production
without it, ``/metrics`` is off (404), so that it is never public by accident.
"""
from __future__ import annotations

import hmac
import os
from collections.abc import Iterator
from datetime import datetime, timezone

from flask import Blueprint, Response, current_app, request
from prometheus_client import (CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry,
                               generate_latest, multiprocess)
from prometheus_client.core import GaugeMetricFamily
from sqlalchemy.exc import SQLAlchemyError

from app.infra.problems import ApiError
from app.infra.logthrottle import warn_throttled
from app.play.backlog import backlogs

bp = Blueprint("metrics", __name__)


class QueueCollector:
    """The work due to the workers and the webhook outbox, read at scrape time."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now = datetime.now(timezone.utc)
        try:
            matches, outbox, reviews = backlogs(now)
        except SQLAlchemyError as exc:  # the counters are still worth a scrape
            warn_throttled(current_app.logger, "metrics: queues not read",
                           type(getattr(exc, "orig", None) or exc).__name__)
            return
        for name, what, due in (
                ("truco_worker_queue", "matches with background work due", matches),
                ("truco_webhook_outbox", "webhook deliveries due", outbox),
                ("truco_review_queue", "match reviews waiting", reviews)):
            yield GaugeMetricFamily(f"{name}_depth", f"How many {what}", value=due.depth)
            lag = (now - due.oldest).total_seconds() if due.oldest is not None else 0.0
            yield GaugeMetricFamily(f"{name}_lag_seconds",
                                    f"How long the most overdue of the {what} has waited",
                                    value=lag)


def exposition() -> bytes:
    """Every metric of every process, then the queues, in the text format."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry = REGISTRY
    queues = CollectorRegistry()
    queues.register(QueueCollector())
    return generate_latest(registry) + generate_latest(queues)


@bp.get("/metrics")
def metrics() -> Response:
    """Every metric, for a scraper allowed to read them."""
    token = current_app.config.get("METRICS_TOKEN")
    if token:
        sent = request.headers.get("Authorization", "")
        if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
            raise ApiError(401, "unauthorized", "/metrics needs the metrics token.")
    elif current_app.config["TRUCO_ENV"] == "production":
        raise ApiError(404, "not_found", "The requested URL was not found on the server.")
    return Response(exposition(), mimetype=CONTENT_TYPE_LATEST.split(";")[0],
                    headers={"Cache-Control": "no-store"})
