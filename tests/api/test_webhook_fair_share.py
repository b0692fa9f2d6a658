"""Webhooks under abuse: deliveries are sent concurrently, at most a few at once per
endpoint and per owner, so one owner's silent endpoints never delay another's; they start
when the change commits; an endpoint that keeps failing has its circuit opened
(app/webhooks/dispatch.py, app/webhooks/breaker.py)."""
from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from tests.support.api import create, db_execute, db_rows, register
from tests.support.webhook_receiver import Receiver, add_webhook, black_hole, receiver


def enqueue(app: Any, endpoint_id: str, count: int = 1) -> None:
    """`count` deliveries due now for the endpoint, as a change would have written them."""
    for _ in range(count):
        db_execute(app, "INSERT INTO webhook_deliveries (id, endpoint_id, event, payload, "
                       "next_attempt_at) VALUES (:id, :e, 'invited', '{\"type\": "
                       "\"invited\"}', now())", id="msg_" + secrets.token_hex(12),
                  e=endpoint_id)


@contextmanager
def dispatcher(app: Any) -> Iterator[None]:
    from app.webhooks.dispatch import start_thread

    stop = threading.Event()
    thread = start_thread(app, stop)
    try:
        yield
    finally:
        stop.set()
        thread.join(15)
        assert not thread.is_alive()


def wait_for(hook: Receiver, seconds: float) -> float | None:
    began = time.monotonic()
    while not hook.received and time.monotonic() - began < seconds:
        time.sleep(0.01)
    return time.monotonic() - began if hook.received else None


SILENT_FOR = 6.0
"""How long the black hole's attempts take to fail (the outbound read timeout): three times
the dispatcher's poll, so that a delivery found by a poll tells apart from one queued behind
them."""


def test_silent_endpoints_of_one_owner_do_not_delay_anothers_deliveries(
        client: Any, app: Any, monkeypatch: Any) -> None:
    from app.webhooks import outbound
    from app.webhooks import dispatch as webhook_dispatch

    monkeypatch.setattr(outbound, "READ_TIMEOUT", SILENT_FOR)
    attacker, victim = register(client, "many"), register(client, "one")
    with black_hole() as hole, receiver() as hook, dispatcher(app):
        for path in ("/a0", "/a1", "/a2"):
            enqueue(app, add_webhook(client, attacker, hole.url(path))["id"], 4)
        time.sleep(0.3)  # the attacker's attempts are under way
        enqueue(app, add_webhook(client, victim, hook.url())["id"])
        took = wait_for(hook, SILENT_FOR - 1.0)
        # Queued behind the attacker's attempts, the victim's would wait for their timeouts
        # (SILENT_FOR). Sent beside them, it waits only for the dispatcher to find it: this
        # raw insert sends no NOTIFY, so up to a poll (POLL_SECONDS), more on a loaded machine.
        assert took is not None and took < SILENT_FOR / 2, took
        # (on a loaded machine the owner's last attempts may reach the hole after the victim's)
        began = time.monotonic()
        while hole.peak_total < webhook_dispatch.PER_OWNER and time.monotonic() - began < 2.0:
            time.sleep(0.01)
        assert max(hole.peak.values()) <= webhook_dispatch.PER_ENDPOINT
        assert hole.peak_total == webhook_dispatch.PER_OWNER  # the owner's share, no more


def test_a_delivery_starts_when_its_change_commits(client: Any, app: Any,
                                                   monkeypatch: Any) -> None:
    from app.webhooks import dispatch as webhook_dispatch

    monkeypatch.setattr(webhook_dispatch, "POLL_SECONDS", 30.0)  # only a notification wakes it
    ana, bot = register(client, "ana"), register(client, "robo", bot=True)
    with receiver() as hook, dispatcher(app):
        add_webhook(client, bot, hook.url())
        time.sleep(0.5)  # the dispatcher found nothing and sleeps
        create(client, ana, invite=[{"seat": 1, "player_id": bot.id}])
        took = wait_for(hook, 10.0)
        # (a tenth of the poll it would otherwise wait for: room for a loaded machine)
        assert took is not None and took < 3.0, took
        assert hook.received[0].json["type"] == "invited"


def test_the_dispatcher_stops_promptly_however_long_its_poll(app: Any,
                                                             monkeypatch: Any) -> None:
    from app.db.channels import STOP_CHECK_SECONDS
    from app.webhooks import dispatch as webhook_dispatch

    monkeypatch.setattr(webhook_dispatch, "POLL_SECONDS", 30.0)
    stop = threading.Event()
    thread = webhook_dispatch.start_thread(app, stop)
    time.sleep(0.5)  # it found nothing and sleeps
    began = time.monotonic()
    stop.set()
    thread.join(5)
    assert not thread.is_alive()
    assert time.monotonic() - began < 2 * STOP_CHECK_SECONDS + 0.5


def test_the_dispatchers_attempts_are_counted_and_logged(client: Any, app: Any, caplog: Any,
                                                        monkeypatch: Any) -> None:
    """docs/operations.md: one line per delivery attempt and `truco_webhook_deliveries_total`,
    also for the worker's dispatcher (it sent them uncounted and unlogged)."""
    import logging

    from app.infra.metrics import DELIVERIES

    monkeypatch.setitem(app.config, "ACCESS_LOG", True)
    ana = register(client, "ana")
    before = DELIVERIES.labels("delivered")._value.get()
    with caplog.at_level(logging.INFO, logger="app.webhooks.delivery"), receiver() as hook, \
            dispatcher(app):
        enqueue(app, add_webhook(client, ana, hook.url())["id"], 2)
        began = time.monotonic()
        while DELIVERIES.labels("delivered")._value.get() < before + 2 \
                and time.monotonic() - began < 5:
            time.sleep(0.01)
    assert len(hook.received) == 2
    assert DELIVERIES.labels("delivered")._value.get() == before + 2
    lines = [r.getMessage() for r in caplog.records if "webhook delivery msg_" in r.getMessage()]
    assert len(lines) == 2 and all(": delivered (204)" in line for line in lines), lines


def deliver(app: Any, now: datetime) -> int:
    from app.db.extensions import db
    from app.webhooks.delivery import deliver_due

    with app.app_context():
        try:
            return deliver_due(now=now)
        finally:
            db.session.remove()


def test_one_owners_backlog_is_not_read_through_at_every_claim(client: Any, app: Any) -> None:
    """100,000 deliveries of one owner wait (its circuit is open, or the owner is at its
    share): a claim finds another owner's delivery without reading them one by one (it did:
    0.1 to 0.4 s a claim, and seconds of delay for everyone's deliveries)."""
    from app.db.extensions import db
    from app.webhooks.delivery import claim

    attacker, victim = register(client, "many"), register(client, "one")
    theirs = add_webhook(client, attacker, "http://127.0.0.1:9/a")["id"]
    db_execute(app, "INSERT INTO webhook_deliveries (id, endpoint_id, event, payload, "
                   "next_attempt_at, created_at) SELECT 'msg_backlog' || g, :e, 'your_turn', "
                   "'{}', now() - interval '1 hour', now() - interval '1 hour' "
                   "FROM generate_series(1, 100000) g", e=theirs)
    db_execute(app, "UPDATE webhook_endpoints SET failures_in_row = 5, "
                   "open_until = now() + interval '1 minute' WHERE id = :e", e=theirs)
    db_execute(app, "ANALYZE webhook_deliveries")

    def timed(**busy: Any) -> tuple[float, list[Any]]:
        """The fastest of three claims, and what each found (a claim commits its lease: each
        takes another delivery); a single timing is at the mercy of a busy machine."""
        with app.app_context():
            try:
                best, found = float("inf"), []
                for _ in range(3):
                    began = time.perf_counter()
                    found.append(claim(datetime.now(timezone.utc), **busy))
                    best = min(best, time.perf_counter() - began)
                return best, found
            finally:
                db.session.remove()

    took, found = timed()
    assert found == [None] * 3 and took < 0.03, took  # the circuit is open: nothing to send
    db_execute(app, "UPDATE webhook_endpoints SET open_until = NULL WHERE id = :e", e=theirs)
    mine = add_webhook(client, victim, "http://127.0.0.1:9/b")["id"]
    enqueue(app, mine, 3)
    took, found = timed(busy_owners=[attacker.id])
    assert [f.owner for f in found] == [victim.id] * 3 and took < 0.03, took


def test_an_endpoint_that_keeps_failing_has_its_circuit_opened(client: Any, app: Any) -> None:
    from app.webhooks.breaker import FIRST_OPEN, THRESHOLD

    ana = register(client, "ana")
    with receiver() as hook:
        hook.status = 500
        endpoint = add_webhook(client, ana, hook.url())["id"]
        enqueue(app, endpoint, THRESHOLD + 1)
        now = datetime.now(timezone.utc) + timedelta(seconds=1)
        assert deliver(app, now) == THRESHOLD  # the last one is not tried: the circuit opened
        assert len(hook.received) == THRESHOLD
        (row,) = db_rows(app, "SELECT failures_in_row, open_until FROM webhook_endpoints")
        assert (row.failures_in_row, row.open_until) == (THRESHOLD, now + FIRST_OPEN)
        # every retry is due by then, but the circuit is still open
        assert deliver(app, now + FIRST_OPEN - timedelta(seconds=1)) == 0
        assert len(hook.received) == THRESHOLD
        hook.status = 204
        assert deliver(app, now + timedelta(hours=3)) == THRESHOLD + 1  # closed by a success
        (row,) = db_rows(app, "SELECT failures_in_row, open_until FROM webhook_endpoints")
        assert (row.failures_in_row, row.open_until) == (0, None)


def test_a_circuit_whose_time_is_up_lets_one_attempt_through(client: Any, app: Any) -> None:
    """Half-open: the first attempt after the circuit's time decides; no second is claimed
    for that endpoint while it is out (a second used to go at once, and a burst after a
    pause)."""
    from app.db.extensions import db
    from app.webhooks.breaker import THRESHOLD
    from app.webhooks.delivery import claim

    ana = register(client, "ana")
    endpoint = add_webhook(client, ana, "http://127.0.0.1:9/a")["id"]
    enqueue(app, endpoint, 3)
    db_execute(app, "UPDATE webhook_endpoints SET failures_in_row = :n, "
                   "open_until = now() - interval '1 second' WHERE id = :e",
               n=THRESHOLD, e=endpoint)
    with app.app_context():
        try:
            now = datetime.now(timezone.utc) + timedelta(seconds=1)
            probe = claim(now)
            assert probe is not None and probe.endpoint_id == endpoint
            assert claim(now) is None  # the probe is out: the circuit waits for it
            assert claim(probe.lease + timedelta(seconds=1)) is not None  # its lease ended
        finally:
            db.session.remove()


def test_the_circuit_opens_for_longer_after_each_further_failure() -> None:
    from app.webhooks.breaker import MAX_OPEN, THRESHOLD, open_for

    assert open_for(THRESHOLD - 1) is None
    assert open_for(THRESHOLD) == timedelta(minutes=1)
    assert open_for(THRESHOLD + 2) == timedelta(minutes=4)
    assert open_for(THRESHOLD + 30) == MAX_OPEN
    # an endpoint that keeps failing for days stays at the cap (a minute doubled 41 times
    # overflows timedelta, which would fail every later attempt of the endpoint)
    assert open_for(THRESHOLD + 41) == open_for(10**6) == MAX_OPEN


def test_the_retry_backoff_is_capped_however_many_attempts_failed() -> None:
    import random

    from app.webhooks.delivery import FIRST_RETRY, MAX_RETRY, backoff

    rng = random.Random(7)
    assert FIRST_RETRY / 2 <= backoff(1, rng) <= FIRST_RETRY
    assert FIRST_RETRY <= backoff(2, rng) <= 2 * FIRST_RETRY
    for attempts in (50, 10**6):
        assert MAX_RETRY / 2 <= backoff(attempts, rng) <= MAX_RETRY


def _hanging_listener(host: str, port: int = 0) -> tuple[Any, list[Any]]:
    """A socket listening on (host, port) whose accept queue is full, so that a further
    connect to it hangs; and the sockets that fill it (close them all when done)."""
    import socket

    full = socket.socket()
    full.bind((host, port))
    full.listen(0)
    queued = []
    for _ in range(3):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect((host, full.getsockname()[1]))
        except BlockingIOError:
            pass
        queued.append(s)
    return full, queued


def test_an_attempt_has_one_deadline_whatever_the_addresses(monkeypatch: Any) -> None:
    """Three addresses that never complete a connect: the attempt ends at TOTAL_TIMEOUT,
    not after a connect timeout per address."""
    import ipaddress

    from app.webhooks import outbound
    from app.webhooks import urls as webhook_urls

    monkeypatch.setattr(outbound, "TOTAL_TIMEOUT", 1.0)
    full, queued = _hanging_listener("127.0.0.1")
    port = full.getsockname()[1]
    time.sleep(0.2)
    monkeypatch.setattr(outbound, "check", lambda *a, **k: (
        webhook_urls.Target("http", "hooks.example", port, "/"),
        [ipaddress.ip_address("127.0.0.1")] * 3))
    try:
        began = time.monotonic()
        with pytest.raises(outbound.OutboundError):
            outbound.post("http://hooks.example/", b"{}", {}, allow_http=True,
                          allow_private=True)
        assert time.monotonic() - began < 1.5
    finally:
        for s in [full, *queued]:
            s.close()


def test_a_slow_tls_handshake_counts_in_the_attempts_deadline(monkeypatch: Any) -> None:
    """The first address never completes a connect, the second drips its TLS handshake a
    byte at a time: the attempt still ends at TOTAL_TIMEOUT (the handshake had a whole read
    timeout of its own, after the time the connect had taken)."""
    import ipaddress
    import socket

    from app.webhooks import outbound
    from app.webhooks import urls as webhook_urls

    monkeypatch.setattr(outbound, "TOTAL_TIMEOUT", 3.0)
    monkeypatch.setattr(outbound, "CONNECT_TIMEOUT", 2.0)
    monkeypatch.setattr(outbound, "READ_TIMEOUT", 2.5)
    dripping = socket.socket()
    dripping.bind(("127.0.0.1", 0))
    dripping.listen()
    port = dripping.getsockname()[1]
    full, queued = _hanging_listener("127.0.0.2", port)
    stop = threading.Event()

    def drip() -> None:
        conn, _ = dripping.accept()
        with conn:
            conn.recv(4096)  # the ClientHello
            conn.sendall(b"\x16\x03\x03\x3f\x00")  # a long handshake record...
            while not stop.wait(0.2):
                conn.sendall(b"\x00")  # ...a byte at a time

    threading.Thread(target=drip, daemon=True).start()
    time.sleep(0.2)
    monkeypatch.setattr(outbound, "check", lambda *a, **k: (
        webhook_urls.Target("https", "hooks.example", port, "/"),
        [ipaddress.ip_address("127.0.0.2"), ipaddress.ip_address("127.0.0.1")]))
    try:
        began = time.monotonic()
        with pytest.raises(outbound.OutboundError):
            outbound.post("https://hooks.example/", b"{}", {}, allow_http=False,
                          allow_private=True)
        assert time.monotonic() - began < 3.4
    finally:
        stop.set()
        for s in [dripping, full, *queued]:
            s.close()
