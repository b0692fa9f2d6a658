"""Changing a webhook (its URL, its events, enabling it again) and rotating its secret
(docs/api.md#webhooks, docs/correspondence.md)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from tests.support.api import assert_problem, create, db_execute, db_rows, deliver, register
from tests.support.webhook_receiver import Receiver, add_webhook, recipe


def patch(client: Any, player: Any, webhook_id: str, body: Any) -> Any:
    return client.patch(f"/v1/me/webhooks/{webhook_id}", json=body, headers=player.headers)


def rotate(client: Any, player: Any, webhook_id: str) -> Any:
    return client.post(f"/v1/me/webhooks/{webhook_id}/secret", headers=player.headers)


def shown(client: Any, player: Any, webhook_id: str) -> dict[str, Any]:
    r = client.get(f"/v1/me/webhooks/{webhook_id}", headers=player.headers)
    assert r.status_code == 200
    return {k: v for k, v in r.json.items() if k != "deliveries"}


def stored(app: Any) -> list[Any]:
    return db_rows(app, "SELECT * FROM webhook_endpoints ORDER BY id")


def start_a_match(client: Any, player: Any) -> None:
    """A match against a bot: `match_started` for `player`."""
    create(client, player, players=2, bots=[{"seat": 1, "level": "random"}])


def test_the_url_and_the_events_change_and_new_deliveries_follow(
        client: Any, app: Any, hook: Receiver) -> None:
    ana = register(client, "ana")
    made = add_webhook(client, ana, hook.url("/old"), events=["invited"])
    start_a_match(client, ana)
    assert deliver(app) == 0  # not subscribed

    r = patch(client, ana, made["id"], {"events": ["match_started", "your_turn"]})
    assert r.status_code == 200, r.get_data(as_text=True)
    assert "secret" not in r.json and "deliveries" not in r.json
    assert r.json == {**shown(client, ana, made["id"]),
                      "events": ["match_started", "your_turn"]}
    r = patch(client, ana, made["id"], {"url": hook.url("/new")})
    assert r.status_code == 200
    assert r.json == shown(client, ana, made["id"])
    assert (r.json["url"], r.json["events"]) == (hook.url("/new"),
                                                 ["match_started", "your_turn"])
    assert {k: v for k, v in r.json.items() if k not in ("url", "events")} == {
        k: v for k, v in made.items() if k not in ("url", "events", "secret")}

    start_a_match(client, ana)
    assert deliver(app) >= 1
    assert {(h.path, h.json["type"]) for h in hook.received} <= {("/new", "match_started"),
                                                                ("/new", "your_turn")}
    assert ("/new", "match_started") in {(h.path, h.json["type"]) for h in hook.received}
    assert recipe()(made["secret"], hook.received[0].headers, hook.received[0].body)


@pytest.mark.parametrize(("body", "field"), [
    ({}, "_body"),
    (None, "_body"),
    ({"secret": "whsec_mine"}, "secret"),
    ({"url": "http://127.0.0.1:9/x", "id": "wh_mine"}, "id"),
    ({"url": None}, "url"),
    ({"url": ""}, "url"),
    ({"url": "ftp://example.com/x"}, "url"),
    ({"url": "http://user:pw@127.0.0.1/hook"}, "url"),
    ({"url": "https://x.example/" + "a" * 2048}, "url"),
    ({"events": []}, "events"),
    ({"events": None}, "events"),
    ({"events": ["your_move"]}, "events"),
    ({"events": ["your_turn", "your_turn"]}, "events"),
    ({"events": ["your_turn"], "status": "disabled"}, "status"),
    ({"status": None}, "status"),
    ({"status": "ACTIVE"}, "status"),
])
def test_bad_changes_are_422_and_change_nothing(client: Any, app: Any, body: Any,
                                                field: str) -> None:
    ana = register(client, "ana")
    made = add_webhook(client, ana, "http://127.0.0.1:9/hook", events=["invited"])
    before = stored(app)
    r = client.patch(f"/v1/me/webhooks/{made['id']}", headers=ana.headers,
                     **({} if body is None else {"json": body}))
    problem = assert_problem(r, 422, "validation_error")
    assert field in problem["errors"], problem
    assert stored(app) == before


def test_a_url_refused_in_production_changes_nothing(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    made = add_webhook(client, ana, "https://push.example/hook")
    app.config.update(WEBHOOK_ALLOW_HTTP=False, WEBHOOK_ALLOW_PRIVATE=False)
    before = stored(app)
    for url, says in (("https://127.0.0.1/hook", "not public"),
                      ("http://push.example/hook", "https")):
        problem = assert_problem(patch(client, ana, made["id"], {"url": url}), 422,
                                 "validation_error")
        assert says in problem["errors"]["url"][0], problem
    assert stored(app) == before


def test_another_players_or_an_unknown_webhook_is_not_found(client: Any, app: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    made = add_webhook(client, ana, "http://127.0.0.1:9/hook")
    before = stored(app)
    for webhook_id in (made["id"], "wh_0000", "x" * 40):
        for body in ({"events": ["invited"]}, {}, {"url": "ftp://x"}):  # 404 before 422
            assert_problem(patch(client, bia, webhook_id, body), 404, "webhook_not_found")
        assert_problem(rotate(client, bia, webhook_id), 404, "webhook_not_found")
        assert_problem(client.post(f"/v1/me/webhooks/{webhook_id}/secret", json={"a": 1},
                                   headers=bia.headers), 404, "webhook_not_found")
    assert stored(app) == before
    assert_problem(client.post(f"/v1/me/webhooks/{made['id']}/secret", json={"a": 1},
                               headers=ana.headers), 422, "validation_error")
    assert stored(app) == before


def test_a_token_is_required(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    made = add_webhook(client, ana, "http://127.0.0.1:9/hook")
    before = stored(app)
    assert_problem(client.patch(f"/v1/me/webhooks/{made['id']}", json={"status": "active"}),
                   401, "unauthorized")
    assert_problem(client.post(f"/v1/me/webhooks/{made['id']}/secret"), 401, "unauthorized")
    assert stored(app) == before


def test_enabling_a_disabled_webhook_again_delivers_new_events(
        client: Any, app: Any, hook: Receiver) -> None:
    """Five failures open its circuit, then a 410 disables it: enabled again, it is as new
    (its circuit closed at once), and what it gave up stays given up."""
    ana = register(client, "ana")
    made = add_webhook(client, ana, hook.url(), events=["match_started"])
    hook.status = 500
    for _ in range(6):
        start_a_match(client, ana)
    start = datetime.now(timezone.utc)
    assert deliver(app, start) == 5  # the circuit opens
    hook.status = 410
    assert deliver(app, start + timedelta(minutes=2)) == 1  # its probe: Gone
    disabled = shown(client, ana, made["id"])
    assert disabled["status"] == "disabled" and disabled["disabled_at"]
    endpoint = stored(app)[0]
    assert endpoint.failures_in_row == 6 and endpoint.open_until > start
    assert patch(client, ana, made["id"], {"events": ["your_turn"]}).json["status"] == "disabled"

    hook.status = 204
    r = patch(client, ana, made["id"], {"status": "active", "events": ["match_started"]})
    assert r.status_code == 200, r.get_data(as_text=True)
    assert (r.json["status"], r.json["disabled_at"], r.json["disabled_reason"]) == (
        "active", None, None)
    assert r.json == shown(client, ana, made["id"])
    endpoint = stored(app)[0]
    assert (endpoint.failures_in_row, endpoint.open_until) == (0, None)
    given_up = db_rows(app, "SELECT id FROM webhook_deliveries WHERE status = 'failed'")
    assert len(given_up) == 6

    start_a_match(client, ana)
    assert deliver(app) == 1
    assert hook.received[-1].json["type"] == "match_started"
    assert recipe()(made["secret"], hook.received[-1].headers, hook.received[-1].body)
    assert db_rows(app, "SELECT id FROM webhook_deliveries WHERE status = 'failed'") == given_up
    assert patch(client, ana, made["id"], {"status": "active"}).json == shown(
        client, ana, made["id"])  # (active already: nothing changes)


def test_after_a_rotation_deliveries_verify_with_either_secret_for_a_day(
        client: Any, app: Any, hook: Receiver) -> None:
    verify = recipe()
    ana = register(client, "ana")
    made = add_webhook(client, ana, hook.url(), events=["match_started"])
    assert made["secret_rotated_at"] is None
    r = rotate(client, ana, made["id"])
    assert r.status_code == 200, r.get_data(as_text=True)
    assert r.headers["Cache-Control"] == "no-store"
    new, old = r.json["secret"], made["secret"]
    assert new.startswith("whsec_") and new != old
    assert r.json["secret_rotated_at"].endswith("Z")
    after = shown(client, ana, made["id"])
    assert "secret" not in after
    assert after == {k: v for k, v in r.json.items() if k != "secret"}
    assert {k: v for k, v in after.items() if k != "secret_rotated_at"} == {
        k: v for k, v in made.items() if k not in ("secret", "secret_rotated_at")}

    start_a_match(client, ana)
    assert deliver(app) == 1
    got = hook.received[-1]
    assert verify(new, got.headers, got.body) and verify(old, got.headers, got.body)
    first, second = got.headers["webhook-signature"].split(" ")  # the new one first
    assert verify(new, {**got.headers, "webhook-signature": first}, got.body)
    assert verify(old, {**got.headers, "webhook-signature": second}, got.body)
    assert not verify(old, {**got.headers, "webhook-signature": first}, got.body)

    db_execute(app, "UPDATE webhook_endpoints SET secret_rotated_at = secret_rotated_at "
                    "- interval '24 hours'")
    start_a_match(client, ana)
    assert deliver(app) == 1
    got = hook.received[-1]
    assert len(got.headers["webhook-signature"].split(" ")) == 1
    assert verify(new, got.headers, got.body) and not verify(old, got.headers, got.body)


def test_a_rotation_within_the_day_drops_the_oldest_secret(
        client: Any, app: Any, hook: Receiver) -> None:
    verify = recipe()
    ana = register(client, "ana")
    made = add_webhook(client, ana, hook.url(), events=["match_started"])
    secrets = [made["secret"]] + [rotate(client, ana, made["id"]).json["secret"]
                                  for _ in range(2)]
    assert len(set(secrets)) == 3
    start_a_match(client, ana)
    assert deliver(app) == 1
    got = hook.received[-1]
    assert len(got.headers["webhook-signature"].split(" ")) == 2
    assert [verify(s, got.headers, got.body) for s in secrets] == [False, True, True]
