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


def prune_while_held(app: Any, database_url: str, held: str) -> dict[str, int]:
    """The prune's counts while another connection holds the row `held` (a SELECT ... FOR
    UPDATE of it); fails if the prune waits for that row."""
    import threading

    import psycopg2

    from tests.support.database import libpq_url

    holder = psycopg2.connect(libpq_url(database_url))
    try:
        with holder.cursor() as cur:
            cur.execute(held)
        result: list[Any] = []

        def run() -> None:
            try:
                result.append(prune(app))
            except Exception as exc:  # noqa: BLE001 - the test reports it
                result.append(exc)
        pruning = threading.Thread(target=run, daemon=True)
        pruning.start()
        pruning.join(2)  # (less than the connections' lock_timeout, 3 s)
        assert not pruning.is_alive(), "the prune waits for a row another transaction holds"
        assert isinstance(result[0], dict), result
        return result[0]
    finally:
        holder.rollback()
        holder.close()


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


def _finished_deliveries(app: Any, endpoint: str, count: int, oldest: str, newest: str) -> None:
    """`count` delivered deliveries made evenly from `oldest` to `newest` ago."""
    db_execute(app, "INSERT INTO webhook_deliveries (id, endpoint_id, event, payload, status, "
                   "created_at) SELECT 'msg_old' || g, :e, 'invited', '{}', 'delivered', "
                   "now() - CAST(:oldest AS interval) + (CAST(:oldest AS interval) - "
                   "CAST(:newest AS interval)) * g / :n FROM generate_series(1, :n) g",
               e=endpoint, n=count, oldest=oldest, newest=newest)


def _endpoint(client: Any) -> str:
    return client.post("/v1/me/webhooks", json={"url": "http://127.0.0.1:9/h"},
                       headers=register(client, "carl").headers).json["id"]


def _prune_plans(app: Any, table: str) -> list[str]:
    """Run a prune; the plans (EXPLAIN, not run) of its statements that delete from `table`,
    captured as they were executed."""
    from sqlalchemy import event

    from app.db.extensions import db

    statements: list[tuple[str, Any]] = []
    with app.app_context():
        def seen(conn: Any, cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
            if statement.startswith(f"DELETE FROM {table}"):
                statements.append((statement, parameters))
        event.listen(db.engine, "before_cursor_execute", seen)
        try:
            prune(app)
        finally:
            event.remove(db.engine, "before_cursor_execute", seen)
        plans = []
        for statement, parameters in statements:
            raw = db.session.connection().connection.dbapi_connection
            with raw.cursor() as cur:
                cur.execute("EXPLAIN " + statement, parameters)
                plans.append("\n".join(row[0] for row in cur.fetchall()))
            db.session.rollback()
        db.session.remove()
    return plans


def test_old_deliveries_are_found_by_the_index_not_by_reading_the_table(
        client: Any, app: Any) -> None:
    """The prune's statements read ix_webhook_deliveries_finished (migration 0017), the
    deletes the primary key: at 2 million deliveries reading the table took 0.39-0.49 s every
    minute to delete a minute's 174 (docs/reliability.md)."""
    _finished_deliveries(app, _endpoint(client), 50_000, "8 days", "0 days")
    db_execute(app, "ANALYZE webhook_deliveries")
    assert db_scalar(app, "SELECT count(*) FROM webhook_deliveries") == 50_000
    plans = _prune_plans(app, "webhook_deliveries")
    assert db_scalar(app, "SELECT count(*) FROM webhook_deliveries") == 50_000 - 50_000 // 8
    assert plans
    for plan in plans:
        assert "ix_webhook_deliveries_finished" in plan, plan
        assert "Seq Scan" not in plan, plan


def test_old_deliveries_are_deleted_a_batch_at_a_time_and_a_held_one_is_left(
        client: Any, app: Any, monkeypatch: Any, database_url: str) -> None:
    """Each batch is a transaction of its own (no lock held long); a row another
    transaction holds (an endpoint being deleted, cascading) is left for the next prune
    rather than waited for (the prune used to wait, and could deadlock with the cascade)."""
    from app.play import retention

    monkeypatch.setattr(retention, "BATCH", 5, raising=False)
    endpoint = _endpoint(client)
    _finished_deliveries(app, endpoint, 12, "9 days", "8 days")
    db_execute(app, "INSERT INTO webhook_deliveries (id, endpoint_id, event, payload, status, "
                   "created_at) VALUES ('msg_pending', :e, 'invited', '{}', 'pending', "
                   "now() - interval '9 days')", e=endpoint)
    counts = prune_while_held(
        app, database_url, "SELECT 1 FROM webhook_deliveries WHERE id = 'msg_old3' FOR UPDATE")
    assert counts["webhook_deliveries"] == 11, counts
    assert prune(app)["webhook_deliveries"] == 1
    assert db_scalar(app, "SELECT array_agg(id) FROM webhook_deliveries") == ["msg_pending"]


def _idempotency_records(app: Any, client: Any, *spans: tuple[str, int, str, str]) -> None:
    """Records of one player's in one match: per (prefix, count, oldest, newest), `count`
    made evenly from `oldest` to `newest` ago, keyed prefix + 1, prefix + 2, ..."""
    m, (ana, _) = full_match(client, 2)
    for prefix, count, oldest, newest in spans:
        db_execute(app, "INSERT INTO idempotency_records (player_id, match_id, key, "
                       "request_hash, status_code, answer, created_at) SELECT :p, :m, "
                       ":prefix || g, md5(g::text), 200, '{}', now() - CAST(:oldest AS interval) "
                       "+ (CAST(:oldest AS interval) - CAST(:newest AS interval)) * g / :n "
                       "FROM generate_series(1, :n) g",
                   p=ana.id, m=m, prefix=prefix, n=count, oldest=oldest, newest=newest)


def test_old_idempotency_records_are_found_by_the_index_not_by_reading_the_table(
        client: Any, app: Any) -> None:
    """The prune's statements read ix_idempotency_records_created_at (migration 0018), the
    deletes their rows by ctid: at 1 million records reading the table took 0.49-0.53 s every
    minute to delete a minute's 667 (docs/reliability.md)."""
    _idempotency_records(app, client, ("old", 2_000, "25 hours", "24 hours 1 minute"),
                         ("new", 48_000, "23 hours 59 minutes", "0 hours"))
    db_execute(app, "ANALYZE idempotency_records")
    plans = _prune_plans(app, "idempotency_records")
    assert db_scalar(app, "SELECT count(*) FROM idempotency_records") == 48_000
    assert plans
    for plan in plans:
        assert "ix_idempotency_records_created_at" in plan, plan
        assert "Seq Scan" not in plan, plan


def test_old_idempotency_records_are_deleted_a_batch_at_a_time_and_a_held_one_is_left(
        client: Any, app: Any, monkeypatch: Any, database_url: str) -> None:
    """As the deliveries: each batch its own transaction, a row another transaction holds
    left for the next prune, not waited for (the prune waited, and failed after
    lock_timeout with everything else it deleted in that transaction)."""
    from app.play import retention

    monkeypatch.setattr(retention, "BATCH", 5, raising=False)
    _idempotency_records(app, client, ("old", 12, "26 hours", "25 hours"),
                         ("new", 1, "1 hour", "1 hour"))
    counts = prune_while_held(
        app, database_url, "SELECT 1 FROM idempotency_records WHERE key = 'old3' FOR UPDATE")
    assert counts["idempotency_records"] == 11, counts
    assert prune(app)["idempotency_records"] == 1
    assert db_scalar(app, "SELECT array_agg(key) FROM idempotency_records") == ["new1"]
