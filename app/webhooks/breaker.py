"""A circuit breaker per webhook endpoint: after THRESHOLD failed attempts in a row its
circuit opens and none of its deliveries is tried until `open_until` (a minute, doubled at
each further failure, at most an hour); the first attempt after that, alone (its claim
holds the circuit for the attempt's lease: app/webhooks/delivery.py), decides: a success
closes it, a failure opens it again for longer. Its deliveries keep their place meanwhile
(they are retried, not dropped), and other endpoints never wait for it."""
from __future__ import annotations

from datetime import datetime, timedelta

from app.db.webhook_models import WebhookEndpoint

THRESHOLD = 5
FIRST_OPEN = timedelta(minutes=1)
MAX_OPEN = timedelta(hours=1)


def open_for(failures_in_row: int) -> timedelta | None:
    """How long the circuit stays open after this many failures in a row (None: closed)."""
    if failures_in_row < THRESHOLD:
        return None
    return doubled(FIRST_OPEN, failures_in_row - THRESHOLD, MAX_OPEN)


def doubled(first: timedelta, times: int, most: timedelta) -> timedelta:
    """`first` doubled `times` times, at most `most`. The doublings stop at 32, where any wait
    here is past its cap: a long run of failures must not overflow `timedelta` (a minute
    doubled 41 times does), which would fail every later attempt of the endpoint."""
    return min(first * (1 << max(0, min(times, 32))), most)


def close(endpoint: WebhookEndpoint) -> None:
    """Close the (locked) endpoint's circuit and forget its failures in a row."""
    endpoint.failures_in_row, endpoint.open_until = 0, None


def after_attempt(endpoint: WebhookEndpoint, succeeded: bool, now: datetime) -> None:
    """Count the attempt on the (locked) endpoint: close or open its circuit."""
    if succeeded:
        close(endpoint)
        return
    endpoint.failures_in_row += 1
    wait = open_for(endpoint.failures_in_row)
    endpoint.open_until = None if wait is None else now + wait
