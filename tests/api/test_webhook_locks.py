"""The webhook paths that lock both an endpoint's row and its deliveries' rows lock the
endpoint first (app/webhooks/delivery.py), as deleting an endpoint does (its row, then its
deliveries' by the ON DELETE CASCADE), so none of them deadlocks another (40P01).

Each test makes the interleaving that deadlocked when recording an attempt (and a half-open
claim) locked the delivery first: a third connection holds the endpoint's row, the two paths
queue for it in a known order (PostgreSQL grants a row's lock to its waiters in turn), and
the row is let go.

A change that enqueues deliveries holds its endpoints' rows (FOR KEY SHARE) from its read of
them to its commit: one whose endpoint is being deleted (a third connection's DELETE, not yet
committed) waits for the deletion and then enqueues nothing for it, where its insert failed
the foreign key and the whole change with it."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from tests.support.api import (act, create, db_execute, db_rows, db_scalar, full_match,
                               register, run_worker)
from tests.support.database import libpq_url


def add_endpoint(client: Any, player: Any) -> str:
    r = client.post("/v1/me/webhooks", json={"url": "http://127.0.0.1:9/h"},
                    headers=player.headers)
    assert r.status_code == 201, r.get_data(as_text=True)
    return r.json["id"]


def add_delivery(app: Any, endpoint: str, delivery: str, age: str = "1 minute") -> None:
    db_execute(app, "INSERT INTO webhook_deliveries (id, endpoint_id, event, payload, "
                   "next_attempt_at, created_at) VALUES (:d, :e, 'invited', '{}', "
                   "now() - CAST(:age AS interval), now() - CAST(:age AS interval))",
               d=delivery, e=endpoint, age=age)


def claim_now(app: Any) -> Any:
    from app.db.extensions import db
    from app.webhooks.delivery import claim

    with app.app_context():
        try:
            return claim(datetime.now(timezone.utc))
        finally:
            db.session.remove()


class Step(threading.Thread):
    """`work()` on a thread of its own, its result or exception kept."""

    def __init__(self, work: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.work, self.result, self.error = work, None, None

    def run(self) -> None:
        try:
            self.result = self.work()
        except Exception as exc:  # noqa: BLE001 - the test reports it
            self.error = exc

    def outcome(self) -> Any:
        self.join(15)
        assert not self.is_alive(), "still waiting"
        assert self.error is None, f"{type(self.error).__name__}: {self.error}"
        return self.result


@pytest.fixture()
def holder(database_url: str) -> Iterator[Any]:
    """A connection of the test's own, in a transaction, to hold a row."""
    import psycopg2

    conn = psycopg2.connect(libpq_url(database_url), application_name="truco-lock-holder")
    yield conn
    conn.close()


def hold_endpoint(holder: Any, endpoint: str) -> None:
    with holder.cursor() as cur:
        cur.execute("SELECT 1 FROM webhook_endpoints WHERE id = %s FOR NO KEY UPDATE",
                    (endpoint,))


def waiting_for_a_lock(app: Any, count: int, *done: Step) -> None:
    """Until `count` backends of the test database wait for a lock (or one of `done` has
    ended: a path that never waits)."""
    deadline = time.monotonic() + 10
    while db_scalar(app, "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                         "current_database() AND wait_event_type = 'Lock'") < count:
        if any(not step.is_alive() for step in done):
            return
        assert time.monotonic() < deadline, "nothing waits"
        time.sleep(0.02)


def record_in_thread(app: Any, found: Any, outcome: Any) -> Step:
    from app.db.extensions import db
    from app.webhooks.delivery import record

    def work() -> Any:
        with app.app_context():
            try:
                return record(found, outcome, datetime.now(timezone.utc))
            finally:
                db.session.remove()
    return Step(work)


def test_deleting_an_endpoint_while_an_attempt_is_recorded(client: Any, app: Any,
                                                           holder: Any) -> None:
    """The deletion takes the endpoint's row and then, by the cascade, the delivery's; the
    record took the delivery's and then the endpoint's: one of them failed with 40P01."""
    from app.webhooks.outbound import Reply

    ana = register(client, "ana")
    endpoint = add_endpoint(client, ana)
    add_delivery(app, endpoint, "msg_sent")
    found = claim_now(app)
    assert found is not None and found.id == "msg_sent"

    hold_endpoint(holder, endpoint)
    deletion = Step(lambda: app.test_client().delete(f"/v1/me/webhooks/{endpoint}",
                                                     headers=ana.headers).status_code)
    deletion.start()
    waiting_for_a_lock(app, 1)
    recording = record_in_thread(app, found, Reply(204, b""))
    recording.start()
    waiting_for_a_lock(app, 2, recording)
    holder.rollback()

    assert deletion.outcome() == 204
    assert recording.outcome() is None  # the delivery went with its endpoint
    assert db_rows(app, "SELECT id FROM webhook_deliveries") == []


def test_deleting_an_endpoint_while_its_half_open_circuit_is_claimed(
        client: Any, app: Any, holder: Any) -> None:
    """A claim that holds the circuit (half-open) writes the endpoint's row after locking the
    delivery's: the same deadlock with a deletion."""
    from app.webhooks.breaker import THRESHOLD

    ana = register(client, "ana")
    endpoint = add_endpoint(client, ana)
    add_delivery(app, endpoint, "msg_probe")
    db_execute(app, "UPDATE webhook_endpoints SET failures_in_row = :n, "
                   "open_until = now() - interval '1 second' WHERE id = :e",
               n=THRESHOLD, e=endpoint)

    hold_endpoint(holder, endpoint)
    deletion = Step(lambda: app.test_client().delete(f"/v1/me/webhooks/{endpoint}",
                                                     headers=ana.headers).status_code)
    deletion.start()
    waiting_for_a_lock(app, 1)
    claiming = Step(lambda: claim_now(app))
    claiming.start()
    waiting_for_a_lock(app, 2, claiming)
    holder.rollback()

    assert deletion.outcome() == 204
    claiming.outcome()  # (None, or the probe, whose record then finds nothing)
    assert db_rows(app, "SELECT id FROM webhook_deliveries") == []


def test_two_attempts_recorded_at_once_when_one_disables_the_endpoint(
        client: Any, app: Any, holder: Any) -> None:
    """A record that fails a day-old delivery disables the endpoint and fails its other
    pending deliveries: it holds the endpoint's row and then takes theirs, one of which
    another record (of an attempt to the same endpoint) held while it waited for the
    endpoint's row."""
    ana = register(client, "ana")
    endpoint = add_endpoint(client, ana)
    add_delivery(app, endpoint, "msg_old", age="2 days")
    add_delivery(app, endpoint, "msg_new")
    old, new = claim_now(app), claim_now(app)
    assert (old.id, new.id) == ("msg_old", "msg_new")

    hold_endpoint(holder, endpoint)
    disabling = record_in_thread(app, old, "connection refused")
    disabling.start()
    waiting_for_a_lock(app, 1)
    other = record_in_thread(app, new, "connection refused")
    other.start()
    waiting_for_a_lock(app, 2, other)
    holder.rollback()

    assert disabling.outcome() == "failed"
    assert other.outcome() is None  # failed with its endpoint meanwhile
    assert db_scalar(app, "SELECT status FROM webhook_endpoints") == "disabled"
    assert {(r.id, r.status) for r in db_rows(
        app, "SELECT id, status FROM webhook_deliveries")} == {
        ("msg_old", "failed"), ("msg_new", "failed")}


def test_a_claim_does_not_wait_for_an_endpoint_being_deleted(client: Any, app: Any,
                                                            holder: Any) -> None:
    """The claim skips an endpoint whose row another transaction holds (a record, a
    deletion with its cascade): the dispatcher never stalls behind it."""
    ana = register(client, "ana")
    endpoint = add_endpoint(client, ana)
    add_delivery(app, endpoint, "msg_due")
    hold_endpoint(holder, endpoint)
    began = time.monotonic()
    assert claim_now(app) is None
    assert time.monotonic() - began < 2
    holder.rollback()
    found = claim_now(app)
    assert found is not None and found.id == "msg_due"
    assert found.lease - datetime.now(timezone.utc) > timedelta(seconds=30)


def delete_in_open_transaction(holder: Any, endpoint: str) -> None:
    """The endpoint's deletion (its row, then its deliveries' by the cascade), not yet
    committed."""
    with holder.cursor() as cur:
        cur.execute("DELETE FROM webhook_endpoints WHERE id = %s", (endpoint,))


@pytest.mark.parametrize("deletion", ["committed", "rolled back"])
def test_an_action_while_a_webhook_of_a_player_in_the_match_is_deleted(
        client: Any, app: Any, holder: Any, deletion: str) -> None:
    """A player's action (the lean write: app/db/hot_sql.py) enqueues `your_turn` for the
    other player's endpoint, read before its deletion commits: the action waits for the
    deletion and then enqueues nothing for the endpoint, or, the deletion rolled back, the
    delivery. (The insert used to fail its foreign key: the player who acted got a 500.)"""
    m, (ana, bia) = full_match(client, 2, options={"first_dealer": 1})
    endpoint = add_endpoint(client, bia)
    db_execute(app, "DELETE FROM webhook_deliveries")

    delete_in_open_transaction(holder, endpoint)
    acting = Step(lambda: act(app.test_client(), m, ana, {"type": "raise"}))
    acting.start()
    waiting_for_a_lock(app, 1, acting)
    holder.commit() if deletion == "committed" else holder.rollback()

    answer = acting.outcome()
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert db_scalar(app, "SELECT version FROM matches") == answer.json["version"]
    assert [r.event for r in db_rows(app, "SELECT event FROM webhook_deliveries")] == (
        [] if deletion == "committed" else ["your_turn"])


@pytest.mark.parametrize("deletion", ["committed", "rolled back"])
def test_a_bots_move_while_a_webhook_of_its_opponent_is_deleted(
        client: Any, app: Any, holder: Any, deletion: str) -> None:
    """The worker's step (the ORM's writes: app/db/writes.py `SessionWrites`) that moves a
    bot enqueues `your_turn` for its opponent's endpoint being deleted: the same as an
    action. (The bot's move used to fail, and was tried again 30 s later.)"""
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}], seed=1,
               options={"first_dealer": 0})
    endpoint = add_endpoint(client, ana)

    delete_in_open_transaction(holder, endpoint)
    moving = Step(lambda: run_worker(app))
    moving.start()
    waiting_for_a_lock(app, 1, moving)
    holder.commit() if deletion == "committed" else holder.rollback()

    assert moving.outcome() >= 1
    assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m AND seat = 1",
                     m=m["id"]) == 1
    assert [r.event for r in db_rows(app, "SELECT event FROM webhook_deliveries")] == (
        [] if deletion == "committed" else ["your_turn"])
