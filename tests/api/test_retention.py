"""Tables that would only grow keep their rows for a stated time, pruned by the worker:
idempotency records 24 h, finished webhook deliveries 7 days, match watches until they end
(app/play/retention.py)."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from tests.support.api import act, db_execute, db_scalar, full_match, register

RAISE = {"type": "raise"}


def prune(app: Any) -> dict[str, int]:
    from app.db.extensions import db
    from app.play.retention import prune as run

    with app.app_context():
        try:
            return run(datetime.now(timezone.utc))
        finally:
            db.session.remove()


def test_old_rows_are_pruned_and_recent_ones_kept(client: Any, app: Any) -> None:
    m, (ana, bia) = full_match(client, 2, options={"first_dealer": 1})
    assert act(client, m, ana, RAISE, headers={"Idempotency-Key": "old"}).status_code == 200
    assert act(client, m, bia, {"type": "accept"},
               headers={"Idempotency-Key": "new"}).status_code == 200
    db_execute(app, "UPDATE idempotency_records SET created_at = now() - interval '25 hours' "
                   "WHERE key = 'old'")
    hook = client.post("/v1/me/webhooks", json={"url": "http://127.0.0.1:9/h"},
                       headers=register(client, "carl").headers).json["id"]
    for status, age in (("delivered", "8 days"), ("failed", "8 days"), ("delivered", "1 day"),
                        ("pending", "8 days")):
        db_execute(app, "INSERT INTO webhook_deliveries (id, endpoint_id, event, payload, "
                       "status, created_at) VALUES (md5(random()::text), :e, 'invited', '{}', "
                       ":s, now() - CAST(:age AS interval))", e=hook, s=status, age=age)
    db_execute(app, "INSERT INTO match_watches (match_id, until) VALUES (:m, now() - "
                   "interval '1 second') ON CONFLICT (match_id) DO UPDATE SET until = "
                   "EXCLUDED.until", m=m)
    assert prune(app) == {"idempotency_records": 1, "webhook_deliveries": 2,
                          "match_watches": 1}
    assert db_scalar(app, "SELECT array_agg(key) FROM idempotency_records") == ["new"]
    assert db_scalar(app, "SELECT count(*) FROM webhook_deliveries") == 2  # recent, pending
    assert prune(app) == {"idempotency_records": 0, "webhook_deliveries": 0,
                          "match_watches": 0}
