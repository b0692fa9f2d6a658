"""How long a receiver must keep the `webhook-id`s it has handled (docs/correspondence.md,
"Payload": deliveries are at least once). A delivery is retried until a day after its event,
but the wait before a retry is up to 2 h, so the last repeat of an id can come more than a
day after the receiver first saw it: the documented window must cover that, or a receiver
that follows it handles the same event twice (a second push notification)."""
from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any


from tests.support.api import create, db_execute, db_rows, deliver, register
from tests.support.webhook_receiver import Receiver

ROOT = Path(__file__).resolve().parents[2]
WORDS = {"a": 1, "one": 1, "two": 2, "three": 3}


def documented_window() -> timedelta:
    """What docs/correspondence.md tells a receiver: keep the ids handled for N days."""
    text = " ".join((ROOT / "docs/correspondence.md").read_text().split())
    found = re.search(r"keep the ids you have handled for (\w+) days?", text)
    assert found, "the advice on keeping delivery ids is missing"
    return timedelta(days=WORDS[found.group(1)])


def test_the_documented_dedupe_window_covers_the_last_retry(client: Any, app: Any,
                                                           hook: Receiver) -> None:
    from app.webhooks.breaker import MAX_OPEN
    from app.webhooks.delivery import MAX_RETRY, RETRY_WINDOW

    hook.status = 500  # the receiver handles the event, but its answer is a failure
    ana = register(client, "ana")
    r = client.post("/v1/me/webhooks", json={"url": hook.url(), "events": ["match_started"]},
                    headers=ana.headers)
    assert r.status_code == 201
    create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
    (row,) = db_rows(app, "SELECT id, created_at FROM webhook_deliveries")
    created = row.created_at
    assert deliver(app) == 1  # the first attempt: the receiver has handled it

    # late in the day of retries, after many failures (the wait is at its 2 h cap)
    late = created + RETRY_WINDOW - timedelta(seconds=1)
    db_execute(app, "UPDATE webhook_deliveries SET attempts = 20, next_attempt_at = :t",
               t=late)
    assert deliver(app, late) == 1
    (row,) = db_rows(app, "SELECT status, next_attempt_at FROM webhook_deliveries")
    assert row.status == "pending"  # not a day yet: it is tried again
    last = row.next_attempt_at
    assert last - created > RETRY_WINDOW  # the last retry comes after the day
    assert deliver(app, last) == 1
    first_seen, last_seen = hook.received[0], hook.received[-1]
    assert first_seen.headers["webhook-id"] == last_seen.headers["webhook-id"]
    assert len(hook.received) == 3

    # the window a receiver is told covers every retry: a day, the longest wait before
    # one, and an open circuit that holds it back
    assert documented_window() >= RETRY_WINDOW + MAX_RETRY + MAX_OPEN
