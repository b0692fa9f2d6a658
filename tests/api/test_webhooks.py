"""Registering, listing, showing and deleting webhooks, and their errors
(docs/api.md#webhooks)."""
from __future__ import annotations

from typing import Any

import pytest

from app.db.webhook_models import WEBHOOK_EVENTS
from tests.support.api import assert_problem, db_scalar, register

URL = "http://127.0.0.1:9/hook"


def add(client: Any, player: Any, **body: Any) -> Any:
    return client.post("/v1/me/webhooks", json={"url": URL, **body}, headers=player.headers)


def count(app: Any) -> int:
    return db_scalar(app, "SELECT count(*) FROM webhook_endpoints")


def test_register_list_show_delete(client: Any) -> None:
    ana = register(client, "ana")
    r = add(client, ana, events=["your_turn", "match_finished"])
    assert r.status_code == 201, r.get_data(as_text=True)
    made = r.json
    assert made["secret"].startswith("whsec_") and len(made["secret"]) > 40
    assert r.headers["Location"] == f"/v1/me/webhooks/{made['id']}"
    assert r.headers["Cache-Control"] == "no-store"
    assert (made["url"], made["events"], made["status"]) == (
        URL, ["your_turn", "match_finished"], "active")
    assert made["disabled_at"] is None and made["disabled_reason"] is None
    # a time as in every other answer (docs/api.md, conventions): it ended in +00:00
    assert made["created_at"].endswith("Z") and "+" not in made["created_at"]

    every = add(client, ana).json
    assert every["events"] == list(WEBHOOK_EVENTS)  # default: all
    assert every["secret"] != made["secret"]

    listed = client.get("/v1/me/webhooks", headers=ana.headers).json["items"]
    assert [w["id"] for w in listed] == [made["id"], every["id"]]
    assert all("secret" not in w for w in listed)

    shown = client.get(f"/v1/me/webhooks/{made['id']}", headers=ana.headers)
    assert shown.status_code == 200
    assert "secret" not in shown.json
    assert shown.json["deliveries"] == []
    assert {k: v for k, v in shown.json.items() if k != "deliveries"} == {
        k: v for k, v in made.items() if k != "secret"}

    r = client.delete(f"/v1/me/webhooks/{made['id']}", headers=ana.headers)
    assert r.status_code == 204 and r.get_data() == b""
    assert_problem(client.get(f"/v1/me/webhooks/{made['id']}", headers=ana.headers), 404,
                   "webhook_not_found")
    assert_problem(client.delete(f"/v1/me/webhooks/{made['id']}", headers=ana.headers), 404,
                   "webhook_not_found")
    assert [w["id"] for w in client.get("/v1/me/webhooks", headers=ana.headers).json[
        "items"]] == [every["id"]]


@pytest.mark.parametrize(("body", "field"), [
    ({"url": None}, "url"),
    ({"events": ["your_turn"]}, "url"),
    ({"url": ""}, "url"),
    ({"url": 7}, "url"),
    ({"url": "ftp://example.com/x"}, "url"),
    ({"url": "example.com/hook"}, "url"),
    ({"url": "http:///no-host"}, "url"),
    ({"url": "http://user:pw@127.0.0.1/hook"}, "url"),
    ({"url": "http://127.0.0.1:99999/hook"}, "url"),
    ({"url": "http://127.0.0.1/a b"}, "url"),
    ({"url": "https://x.example/" + "a" * 2048}, "url"),
    ({"url": URL, "events": ["your_move"]}, "events"),
    ({"url": URL, "events": []}, "events"),
    ({"url": URL, "events": "your_turn"}, "events"),
    ({"url": URL, "events": ["your_turn", "your_turn"]}, "events"),
    ({"url": URL, "secret": "whsec_mine"}, "secret"),
])
def test_bad_bodies_are_422_and_change_nothing(client: Any, app: Any, body: dict[str, Any],
                                               field: str) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/me/webhooks", json=body, headers=ana.headers)
    problem = assert_problem(r, 422, "validation_error")
    assert field in problem["errors"], problem
    assert count(app) == 0


def test_another_players_webhook_is_not_found(client: Any, app: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    made = add(client, ana).json
    for r in (client.get(f"/v1/me/webhooks/{made['id']}", headers=bia.headers),
              client.delete(f"/v1/me/webhooks/{made['id']}", headers=bia.headers)):
        assert_problem(r, 404, "webhook_not_found")
    assert client.get("/v1/me/webhooks", headers=bia.headers).json["items"] == []
    assert count(app) == 1
    for unknown in ("wh_0000", "x" * 40, "%00"):
        assert_problem(client.get(f"/v1/me/webhooks/{unknown}", headers=ana.headers), 404,
                       "webhook_not_found")


def test_a_token_is_required(client: Any) -> None:
    assert_problem(client.post("/v1/me/webhooks", json={"url": URL}), 401, "unauthorized")
    assert_problem(client.get("/v1/me/webhooks"), 401, "unauthorized")
    assert_problem(client.get("/v1/me/webhooks/wh_1"), 401, "unauthorized")
    assert_problem(client.delete("/v1/me/webhooks/wh_1"), 401, "unauthorized")


def test_at_most_ten_webhooks_per_player(client: Any, app: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    for _ in range(10):
        assert add(client, ana).status_code == 201
    assert_problem(add(client, ana), 409, "too_many_webhooks")
    assert count(app) == 10
    assert add(client, bia).status_code == 201  # per player
    first = client.get("/v1/me/webhooks", headers=ana.headers).json["items"][0]
    client.delete(f"/v1/me/webhooks/{first['id']}", headers=ana.headers)
    assert add(client, ana).status_code == 201


@pytest.mark.parametrize(("url", "says"), [
    ("http://push.example/hook", "https"),
    ("https://localhost:8443/hook", "not public"),
    ("https://127.0.0.1/hook", "not public"),
    ("https://10.1.2.3/hook", "not public"),
    ("https://169.254.169.254/latest/meta-data", "not public"),
    ("https://[::1]/hook", "not public"),
    ("https://[::ffff:127.0.0.1]/hook", "not public"),
    ("https://224.0.0.1/hook", "not public"),
    ("https://0.0.0.0/hook", "not public"),
    ("https://host.invalid/hook", "does not resolve"),
])
def test_production_refuses_http_and_private_addresses(client: Any, app: Any, url: str,
                                                       says: str) -> None:
    app.config.update(WEBHOOK_ALLOW_HTTP=False, WEBHOOK_ALLOW_PRIVATE=False)
    ana = register(client, "ana")
    problem = assert_problem(add(client, ana, url=url), 422, "validation_error")
    assert says in problem["errors"]["url"][0], problem
    assert count(app) == 0


def test_production_settings_come_from_the_environment() -> None:
    from app.infra.config import load_config

    production = load_config({"TRUCO_ENV": "production"})
    assert not production["WEBHOOK_ALLOW_PRIVATE"] and not production["WEBHOOK_ALLOW_HTTP"]
    development = load_config({})
    assert development["WEBHOOK_ALLOW_PRIVATE"] and development["WEBHOOK_ALLOW_HTTP"]
    allowed = load_config({"TRUCO_ENV": "production", "TRUCO_WEBHOOK_ALLOW_PRIVATE": "1"})
    assert allowed["WEBHOOK_ALLOW_PRIVATE"] and not allowed["WEBHOOK_ALLOW_HTTP"]


def test_the_spec_documents_the_webhook_endpoints() -> None:
    from pathlib import Path

    import yaml

    spec = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
    paths = spec["paths"]
    assert set(paths["/v1/me/webhooks"]) >= {"get", "post"}
    assert set(paths["/v1/me/webhooks/{webhook_id}"]) >= {"get", "patch", "delete"}
    assert set(paths["/v1/me/webhooks/{webhook_id}/secret"]) >= {"post"}
    schemas = spec["components"]["schemas"]
    assert "secret" in schemas["WebhookCreated"]["required"]
    assert "secret" not in schemas["Webhook"]["properties"]
    assert "secret" not in schemas["WebhookDetail"]["properties"]
    assert "secret_rotated_at" in schemas["Webhook"]["required"]
    assert set(schemas["WebhookUpdate"]["properties"]) == {"url", "events", "status"}
    assert schemas["WebhookUpdate"]["properties"]["status"]["enum"] == ["active"]
    assert schemas["WebhookCreate"]["required"] == ["url"]
    assert schemas["WebhookCreate"]["properties"]["events"]["items"]["enum"] == list(
        WEBHOOK_EVENTS)
