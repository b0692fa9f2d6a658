"""Webhook deliveries: written by the request, sent by the worker, signed as documented,
retried with backoff, and made safely (docs/correspondence.md)."""
from __future__ import annotations

import json
import re
import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from tests.support.api import (D2, act_ok, card_strings, create, db_rows, deal, deliver,
                               full_match, get_view, join, register, run_worker)
from tests.support.webhook_receiver import Receiver, add_webhook, receiver, recipe


def deliveries(app: Any) -> list[Any]:
    return db_rows(app, "SELECT * FROM webhook_deliveries ORDER BY created_at, id")


def two_players_with_hooks(client: Any, url: str, **body: Any) -> tuple[Any, Any, dict, dict]:
    ana, bia = register(client, "ana"), register(client, "bia")
    return ana, bia, add_webhook(client, ana, url, **body), add_webhook(client, bia, url, **body)


def test_delivered_by_the_worker_signed_as_documented(client: Any, app: Any,
                                                      hook: Receiver) -> None:
    ana, bia, ana_hook, _ = two_players_with_hooks(client, hook.url())
    m = create(client, ana, players=2, seat=0, deals=[deal(D2)], options={"first_dealer": 1})
    assert join(client, m["id"], bia).status_code == 200  # starts: seat 0 (ana) leads
    assert hook.received == []  # the request only wrote the outbox
    rows = deliveries(app)
    assert sorted((r.event, r.payload["data"]["player_id"]) for r in rows) == sorted([
        ("match_started", ana.id), ("your_turn", ana.id), ("match_started", bia.id)])
    assert all(r.status == "pending" and r.attempts == 0 for r in rows)

    assert deliver(app) == 3
    assert len(hook.received) == 3
    verify = recipe()
    mine = [h for h in hook.received if h.json["data"]["player_id"] == ana.id]
    for got in hook.received:
        secret = ana_hook["secret"] if got in mine else None
        assert got.path == "/hook"
        assert got.headers["content-type"] == "application/json"
        assert re.fullmatch(r"msg_[0-9a-f]{24}", got.headers["webhook-id"])
        assert abs(int(got.headers["webhook-timestamp"]) - time.time()) < 60
        if secret:
            assert verify(secret, got.headers, got.body)
            assert not verify(secret, got.headers, got.body + b" ")
    turn = next(h.json for h in mine if h.json["type"] == "your_turn")
    assert turn["data"] == {"match_id": m["id"], "version": turn["data"]["version"],
                            "status": "active", "player_id": ana.id, "seat": 0, "team": 0,
                            "your_turn": True}
    assert turn["data"]["version"] == client.get(f"/v1/matches/{m['id']}").json["version"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+Z", turn["timestamp"])
    assert {r.status for r in deliveries(app)} == {"delivered"}
    assert deliver(app) == 0  # delivered once

    shown = client.get(f"/v1/me/webhooks/{ana_hook['id']}", headers=ana.headers).json
    assert {d["id"] for d in shown["deliveries"]} == {h.headers["webhook-id"] for h in mine}
    item = shown["deliveries"][0]
    assert (item["status"], item["attempts"], item["response_status"], item["match_id"]) == (
        "delivered", 1, 204, m["id"])
    assert item["delivered_at"] and item["last_attempt_at"] and item["next_attempt_at"] is None


def test_the_signature_fails_with_another_secret_or_an_old_timestamp(client: Any, app: Any,
                                                                     hook: Receiver) -> None:
    ana = register(client, "ana")
    made = add_webhook(client, ana, hook.url())
    other = add_webhook(client, ana, hook.url(), events=["invited"])
    create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
    deliver(app)
    got = hook.received[0]
    verify = recipe()
    assert verify(made["secret"], got.headers, got.body)
    assert not verify(other["secret"], got.headers, got.body)
    forged = {**got.headers, "webhook-timestamp": str(int(time.time()) - 3600)}
    assert not verify(made["secret"], forged, got.body)
    # malformed or missing headers are a False, never an exception (a receiver's 500)
    signature = got.headers["webhook-signature"]
    for bad in ({"webhook-signature": "v1,\u00e9t\u00e9"}, {"webhook-timestamp": "abc"},
                {"webhook-timestamp": "\u00b2"}, {"webhook-signature": "v1,%%%"},
                {"webhook-signature": "v2," + signature.partition(",")[2]},
                {"webhook-id": ""}):
        assert not verify(made["secret"], {**got.headers, **bad}, got.body), bad
    for name in ("webhook-id", "webhook-timestamp", "webhook-signature"):
        assert not verify(made["secret"], {k: v for k, v in got.headers.items() if k != name},
                          got.body)
    assert verify(made["secret"], {**got.headers, "webhook-signature": f"v1,AAAA {signature}"},
                  got.body)


def test_your_turn_follows_the_seats_to_act_and_no_payload_has_cards(
        client: Any, app: Any, hook: Receiver) -> None:
    m, (ana, bia) = full_match(client, 2, deals=[deal(D2)], options={"first_dealer": 1})
    add_webhook(client, ana, hook.url()), add_webhook(client, bia, hook.url())
    act_ok(client, m, ana, {"type": "play", "card": "5c"})   # bia's turn
    act_ok(client, m, bia, {"type": "raise"})                 # ana must answer
    act_ok(client, m, ana, {"type": "accept"})                # bia plays
    act_ok(client, m, bia, {"type": "play", "card": "2c"})    # ana's manilha won: she leads
    r = client.post(f"/v1/matches/{m}/resign", headers=ana.headers)
    assert r.status_code == 200
    deliver(app)
    seen = [(h.json["type"], h.json["data"]["player_id"] == ana.id) for h in hook.received]
    # (the two match_finished are due at the same instant, to two endpoints: either first)
    assert seen[:4] + sorted(seen[4:]) == [
        ("your_turn", False), ("your_turn", True), ("your_turn", False), ("your_turn", True),
        ("match_finished", False), ("match_finished", True)]
    finished = [h.json["data"] for h in hook.received if h.json["type"] == "match_finished"]
    assert {d["winner_team"] for d in finished} == {1}
    for got in hook.received:
        assert list(card_strings(got.json)) == [], got.json
        assert not re.search(rb'"[A2-7QJK][cdhs]"', got.body)


def test_bots_moves_cause_deliveries_in_the_worker(client: Any, app: Any,
                                                   hook: Receiver) -> None:
    ana = register(client, "ana")
    add_webhook(client, ana, hook.url(), events=["your_turn"])
    m = create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}],
               deals=[deal(D2)], options={"first_dealer": 0})  # the bot leads
    assert [r.event for r in deliveries(app)] == []  # not ana's turn yet
    run_worker(app)  # the bot moves: ana's turn
    assert [r.event for r in deliveries(app)] == ["your_turn"]
    assert deliver(app) == 1 and hook.received[0].json["data"]["match_id"] == m["id"]


def test_an_endpoint_that_answers_410_gone_is_disabled_at_once(
        client: Any, app: Any, hook: Receiver) -> None:
    """Its receiver says it is gone for good: no retries for a day, and its other waiting
    deliveries fail with it."""
    hook.status = 410
    ana = register(client, "ana")
    made = add_webhook(client, ana, hook.url(), events=["match_started"])
    for _ in range(2):
        create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
    assert deliver(app) == 1  # (the other is not sent: it failed with the endpoint)
    assert sorted((r.status, r.attempts) for r in deliveries(app)) == [("failed", 0),
                                                                        ("failed", 1)]
    shown = client.get(f"/v1/me/webhooks/{made['id']}", headers=ana.headers).json
    assert shown["status"] == "disabled" and "HTTP 410" in shown["disabled_reason"]
    assert deliver(app, datetime.now(timezone.utc) + timedelta(hours=1)) == 0
    assert len(hook.received) == 1


def test_subscriptions_and_deleted_endpoints(client: Any, app: Any, hook: Receiver) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    turns = add_webhook(client, ana, hook.url("/turns"), events=["your_turn"])
    gone = add_webhook(client, ana, hook.url("/gone"))
    m = create(client, ana, players=2, seat=0, deals=[deal(D2)], options={"first_dealer": 1})
    join(client, m["id"], bia)
    client.delete(f"/v1/me/webhooks/{gone['id']}", headers=ana.headers)
    deliver(app)
    assert [(h.path, h.json["type"]) for h in hook.received] == [("/turns", "your_turn")]
    assert turns["id"]


def test_a_failing_endpoint_is_retried_with_backoff_then_disabled(
        client: Any, app: Any, hook: Receiver) -> None:
    hook.status = 500
    ana = register(client, "ana")
    made = add_webhook(client, ana, hook.url(), events=["match_started"])
    create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
    created = deliveries(app)[0].created_at
    start = datetime.now(timezone.utc)

    assert deliver(app, start) == 1
    row = deliveries(app)[0]
    assert (row.status, row.attempts, row.response_status) == ("pending", 1, 500)
    assert row.last_error.startswith("HTTP 500")
    assert timedelta(seconds=5) <= row.next_attempt_at - start <= timedelta(seconds=10)
    assert deliver(app, start + timedelta(seconds=4)) == 0  # not due yet

    second = start + timedelta(seconds=11)
    assert deliver(app, second) == 1
    row = deliveries(app)[0]
    assert row.attempts == 2
    assert timedelta(seconds=10) <= row.next_attempt_at - second <= timedelta(seconds=20)
    waits = []
    clock = second
    while clock < created + timedelta(hours=20):  # every retry of the day, on a fake clock
        clock = deliveries(app)[0].next_attempt_at
        assert deliver(app, clock) == 1
        waits.append(deliveries(app)[0].next_attempt_at - clock)
    assert max(waits) <= timedelta(hours=2)
    assert waits[-1] >= timedelta(hours=1)
    assert deliveries(app)[0].status == "pending"
    assert len(hook.received) == deliveries(app)[0].attempts < 40

    hook.status = 503
    assert deliver(app, created + timedelta(days=1, seconds=1)) == 1
    row = deliveries(app)[0]
    assert (row.status, row.next_attempt_at, row.response_status) == ("failed", None, 503)
    shown = client.get(f"/v1/me/webhooks/{made['id']}", headers=ana.headers).json
    assert shown["status"] == "disabled" and shown["disabled_at"]
    assert "HTTP 503" in shown["disabled_reason"]
    assert shown["deliveries"][0]["status"] == "failed"
    listed = client.get("/v1/me/webhooks", headers=ana.headers).json["items"]
    assert listed[0]["status"] == "disabled"

    create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
    assert len(deliveries(app)) == 1  # a disabled endpoint gets nothing new
    assert deliver(app, created + timedelta(days=3)) == 0


def test_a_redirect_is_not_followed(client: Any, app: Any, hook: Receiver) -> None:
    with receiver() as elsewhere:
        hook.status, hook.location = 307, elsewhere.url("/stolen")
        ana = register(client, "ana")
        add_webhook(client, ana, hook.url(), events=["match_started"])
        create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
        assert deliver(app) == 1
        assert len(hook.received) == 1 and elsewhere.received == []
    row = deliveries(app)[0]
    assert (row.status, row.response_status) == ("pending", 307)
    assert "redirects are not followed" in row.last_error


def test_a_huge_answer_is_read_only_up_to_the_limit(client: Any, app: Any,
                                                    hook: Receiver) -> None:
    from app.webhooks.outbound import MAX_ANSWER_BYTES, TOTAL_TIMEOUT

    hook.status, hook.endless = 200, True
    ana = register(client, "ana")
    add_webhook(client, ana, hook.url(), events=["match_started"])
    create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
    began = time.monotonic()
    assert deliver(app) == 1
    assert time.monotonic() - began < TOTAL_TIMEOUT / 2  # it did not read on to the end
    assert deliveries(app)[0].status == "delivered"
    from app.webhooks.outbound import post

    reply = post(hook.url(), b"{}", {}, allow_http=True, allow_private=True)
    assert reply.status == 200 and len(reply.body) == MAX_ANSWER_BYTES


def test_loopback_is_refused_at_delivery_in_production(client: Any, app: Any,
                                                       hook: Receiver) -> None:
    ana = register(client, "ana")
    add_webhook(client, ana, f"http://localhost:{hook.port}/hook", events=["match_started"])
    create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
    app.config.update(WEBHOOK_ALLOW_PRIVATE=False)  # the operator turned production rules on
    assert deliver(app) == 1
    assert hook.received == []
    row = deliveries(app)[0]
    assert row.status == "pending" and row.response_status is None
    assert "not public" in row.last_error and "127.0.0.1" in row.last_error


def test_a_slow_endpoint_times_out(client: Any, app: Any, monkeypatch: Any) -> None:
    import socket

    from app.webhooks import outbound

    monkeypatch.setattr(outbound, "TOTAL_TIMEOUT", 1.0)
    monkeypatch.setattr(outbound, "READ_TIMEOUT", 0.5)
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    try:
        began = time.monotonic()
        with pytest.raises(outbound.OutboundError):
            outbound.post(f"http://127.0.0.1:{silent.getsockname()[1]}/", b"{}", {},
                          allow_http=True, allow_private=True)
        assert time.monotonic() - began < 3
    finally:
        silent.close()


def test_the_connection_goes_to_the_address_that_was_checked(
        app: Any, hook: Receiver, monkeypatch: Any) -> None:
    import socket

    from app.webhooks import outbound
    from app.webhooks import urls as webhook_urls

    lookups: list[str] = []
    real = socket.getaddrinfo

    def resolver(host: str, *args: Any, **kwargs: Any) -> Any:
        lookups.append(host)
        return real("127.0.0.1" if host == "hooks.example" else host, *args, **kwargs)

    monkeypatch.setattr(webhook_urls.socket, "getaddrinfo", resolver)
    reply = outbound.post(f"http://hooks.example:{hook.port}/in", b"{}", {},
                          allow_http=True, allow_private=True)
    assert reply.status == 204
    # the name is resolved once; the connection is made to the checked address literal
    assert lookups == ["hooks.example", "127.0.0.1"]
    assert hook.received[0].headers["host"] == f"hooks.example:{hook.port}"


def test_enqueue_invited_and_deadline_soon(client: Any, app: Any, hook: Receiver) -> None:
    from app.db.extensions import db
    from app.play.store import lock_match
    from app.webhooks.outbox import enqueue_deadline_soon, enqueue_invited

    m, (ana, bia) = full_match(client, 2, deals=[deal(D2)], options={"first_dealer": 1})
    carl = register(client, "carl")
    add_webhook(client, ana, hook.url("/ana")), add_webhook(client, carl, hook.url("/carl"))
    deadline = datetime(2030, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    with app.app_context():
        match = lock_match(m)
        match.deadline = deadline
        assert enqueue_deadline_soon(match, ana.id) == 1
        assert enqueue_deadline_soon(match, bia.id) == 0  # no webhook
        assert enqueue_invited(match, carl.id, seat=1) == 1
        db.session.commit()
        db.session.remove()
    deliver(app)
    got = {h.path: h.json for h in hook.received}
    assert got["/ana"]["type"] == "deadline_soon"
    assert got["/ana"]["data"] == {
        "match_id": m, "version": got["/ana"]["data"]["version"], "status": "active",
        "player_id": ana.id, "seat": 0, "team": 0, "your_turn": True,
        "deadline": "2030-01-02T03:04:05Z"}
    assert got["/carl"]["type"] == "invited"
    assert (got["/carl"]["data"]["seat"], got["/carl"]["data"]["your_turn"]) == (1, True)


def test_the_worker_loop_delivers_on_its_own_thread(client: Any, app: Any,
                                                    hook: Receiver) -> None:
    from app.play.background import Worker

    ana = register(client, "ana")
    add_webhook(client, ana, hook.url(), events=["your_turn", "match_finished"])
    worker = Worker(app, poll_seconds=0.2)
    thread = threading.Thread(target=worker.run)
    thread.start()
    try:
        create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}],
               deals=[deal(D2)], options={"first_dealer": 0})  # the bot moves, then ana
        deadline = time.monotonic() + 10
        while not hook.received and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        worker.stop.set()
        thread.join(10)
    assert not thread.is_alive()
    assert [h.json["type"] for h in hook.received] == ["your_turn"]
    assert json.loads(hook.received[0].body)["data"]["player_id"] == ana.id


def test_an_invitation_sends_invited(client: Any, app: Any, hook: Receiver) -> None:
    ana, bot = register(client, "ana"), register(client, "robo", bot=True)
    add_webhook(client, bot, hook.url("/bot"))
    m = create(client, ana, invite=[{"seat": 1, "player_id": bot.id}])
    assert hook.received == []  # never inside the request
    deliver(app)
    (got,) = [h.json for h in hook.received]
    assert got["type"] == "invited"
    assert (got["data"]["match_id"], got["data"]["seat"]) == (m["id"], 1)
    (listed,) = client.get("/v1/me/matches", headers=bot.headers).json["items"]
    assert listed["invitation"] is True
    assert got["data"]["your_turn"] is listed["your_turn"] is True  # the inbox agrees


def test_the_worker_warns_before_the_deadline(client: Any, app: Any, hook: Receiver) -> None:
    """The players to act are warned once, a quarter of the turn (at most an hour) before
    their deadline; the deadline itself comes later."""
    m, (ana, bia) = full_match(client, 2, options={"first_dealer": 1}, turn_timeout=400)
    add_webhook(client, ana, hook.url("/ana"), events=["deadline_soon"])
    view = get_view(client, m, ana)
    deadline = datetime.fromisoformat(view["deadline"].replace("Z", "+00:00"))
    assert run_worker(app, now=deadline - timedelta(seconds=101)) == 0  # not yet
    assert run_worker(app, now=deadline - timedelta(seconds=99)) == 1   # warned
    assert run_worker(app, now=deadline - timedelta(seconds=50)) == 0   # once
    deliver(app)
    (got,) = [h.json for h in hook.received]
    assert got["type"] == "deadline_soon" and got["data"]["deadline"] == view["deadline"]
    assert get_view(client, m, ana)["version"] == view["version"]  # a warning changes nothing


def test_deadline_soon_arrives_a_quarter_of_the_turn_before_the_deadline(
        client: Any, app: Any, hook: Receiver) -> None:
    """With a 10 s turn, the warning is sent 2.5 s before the deadline, by the worker loop
    and its delivery thread as `serve` runs them: the worker wakes for it, not at its next
    poll (30 s here, so that a late one is plain whatever the machine's load)."""
    from app.play.background import Worker

    m, (ana, _) = full_match(client, 2, options={"first_dealer": 1}, turn_timeout=10)
    add_webhook(client, ana, hook.url("/ana"), events=["deadline_soon"])
    deadline = datetime.fromisoformat(get_view(client, m, ana)["deadline"])
    worker = Worker(app, poll_seconds=30)
    thread = threading.Thread(target=worker.run)
    thread.start()
    try:
        while not hook.received and datetime.now(timezone.utc) < deadline:
            time.sleep(0.01)
        arrived = datetime.now(timezone.utc)
    finally:
        worker.stop.set()
        thread.join(10)
    (got,) = [h.json for h in hook.received]
    assert got["type"] == "deadline_soon"
    sent = datetime.fromisoformat(got["timestamp"])
    # Margins for a busy 2-core CI machine (a run sent it 0.78 s late); a worker that waited
    # for its poll would send nothing before the deadline, 2.5 s away.
    assert abs((deadline - sent).total_seconds() - 2.5) < 1.25, (deadline, sent)
    assert abs((deadline - arrived).total_seconds() - 2.5) < 1.5, (deadline, arrived)
