"""POST /v1/matches/{id}/actions: who may act, and malformed requests (401, 403, 404, 409, 413,
415, 422 validation_error). Every rejected request leaves the match exactly as it was."""
from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.api import (F1, PROBLEM, act, assert_problem, create, deal, full_match,
                               get_events, register, snapshot)

SETUP = {"options": {"first_dealer": 3}, "deals": [deal(F1)]}  # seat 0 leads with 5c 3h 6c


@pytest.fixture()
def table(client: Any) -> tuple[str, list[Any]]:
    return full_match(client, players=4, **SETUP)


def _unchanged(client: Any, app: Any, match_id: str, viewers: list[Any], before: Any) -> None:
    assert snapshot(client, app, match_id, viewers) == before


def test_a_valid_action_is_applied(client: Any, app: Any, table: Any) -> None:
    match_id, seated = table
    before = snapshot(client, app, match_id, [None])
    r = act(client, match_id, seated[0], {"type": "play", "card": "5c"})
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("application/json")
    assert r.json["version"] > before["state"]["version"]
    assert r.json["hand"]["tricks"][0]["plays"] == [{"seat": 0, "card": "5c",
                                                     "face_down": False}]
    assert r.json["hand"]["cards"] == ["3h", "6c"]
    assert r.json["hand"]["to_act"] == [1]


def test_unauthenticated(client: Any, app: Any, table: Any) -> None:
    match_id, seated = table
    before = snapshot(client, app, match_id, [None, *seated])
    r = client.post(f"/v1/matches/{match_id}/actions", json={"type": "play", "card": "5c"})
    assert_problem(r, 401, "unauthorized")
    _unchanged(client, app, match_id, [None, *seated], before)


def test_not_a_player(client: Any, app: Any, table: Any) -> None:
    match_id, seated = table
    eve = register(client, "eve")
    before = snapshot(client, app, match_id, [None, *seated])
    assert_problem(act(client, match_id, eve, {"type": "play", "card": "5c"}), 403,
                   "not_a_player")
    _unchanged(client, app, match_id, [None, *seated], before)


def test_match_not_found(client: Any) -> None:
    eve = register(client, "eve")
    assert_problem(act(client, "m_000000000000000000000000", eve, {"type": "raise"}), 404,
                   "match_not_found")


def test_waiting_match_is_not_active(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=4)
    before = snapshot(client, app, m["id"], [None, ana])
    assert_problem(act(client, m["id"], ana, {"type": "raise"}), 409, "match_not_active")
    _unchanged(client, app, m["id"], [None, ana], before)


def test_finished_match_is_not_active(client: Any, app: Any, table: Any) -> None:
    match_id, seated = table
    assert client.post(f"/v1/matches/{match_id}/resign",
                       headers=seated[1].headers).status_code == 200
    before = snapshot(client, app, match_id, [None, *seated])
    for p in seated:
        assert_problem(act(client, match_id, p, {"type": "play", "slot": 0}), 409,
                       "match_not_active")
    _unchanged(client, app, match_id, [None, *seated], before)


@pytest.mark.parametrize(("action", "field"), [
    ({"type": "play", "slot": "1"}, "slot"),
    ({"type": "play", "slot": 1.0}, "slot"),
    ({"type": "play", "card": "5c", "face_down": "yes"}, "face_down"),
    ({"type": "play", "card": "5c", "face_down": 1}, "face_down"),
    ({"type": "play", "card": 5}, "card"),
    ({"type": "play", "card": "8c"}, "card"),
    ({"type": "play", "card": "5x"}, "card"),
    ({"type": "play", "card": "5c5c"}, "card"),
    ({"type": "play", "card": "5c "}, "card"),  # (a code is compared as sent: no trimming)
    ({"type": "play", "card": " 5C"}, "card"),
    ({"type": "play", "card": ""}, "card"),
    ({"type": "raise", "to": "3"}, "to"),
    ({"type": "play", "card": "5c", "colour": "red"}, "colour"),
    ({"type": "accept", "please": True}, "please"),
    ({"type": "fold"}, "type"),
    ({"type": 1}, "type"),
    ({"card": "5c"}, "type"),
    ({}, "type"),
])
def test_malformed_actions_are_validation_errors(client: Any, app: Any, table: Any,
                                                 action: dict[str, Any], field: str) -> None:
    match_id, seated = table
    before = snapshot(client, app, match_id, [None, *seated])
    body = assert_problem(act(client, match_id, seated[0], action), 422, "validation_error")
    assert field in body["errors"], body
    assert "reason" not in body
    _unchanged(client, app, match_id, [None, *seated], before)


@pytest.mark.parametrize("raw", ['{"type": "play", "card": ', "not json", '{"type": "raise"',
                                 "[1, 2]", "null", '"raise"', "42"])
def test_bodies_that_are_not_a_json_object(client: Any, app: Any, table: Any, raw: str) -> None:
    match_id, seated = table
    before = snapshot(client, app, match_id, [None, *seated])
    r = client.post(f"/v1/matches/{match_id}/actions", data=raw,
                    headers={**seated[0].headers, "Content-Type": "application/json"})
    body = assert_problem(r, 422, "validation_error")
    assert body["errors"]
    _unchanged(client, app, match_id, [None, *seated], before)


def test_invalid_utf8_is_a_validation_error(client: Any, table: Any) -> None:
    match_id, seated = table
    r = client.post(f"/v1/matches/{match_id}/actions", data=b'{"type": "\xff\xfe"}',
                    headers={**seated[0].headers, "Content-Type": "application/json"})
    assert_problem(r, 422, "validation_error")


def test_oversized_body_is_413(client: Any, app: Any, table: Any) -> None:
    match_id, seated = table
    before = snapshot(client, app, match_id, [None, *seated])
    big = json.dumps({"type": "play", "card": "5c", "padding": "x" * (64 * 1024)})
    assert len(big) > 64 * 1024
    r = client.post(f"/v1/matches/{match_id}/actions", data=big,
                    headers={**seated[0].headers, "Content-Type": "application/json"})
    assert_problem(r, 413, "payload_too_large")
    _unchanged(client, app, match_id, [None, *seated], before)


def test_a_body_just_under_the_limit_is_read(client: Any, table: Any) -> None:
    """Large but allowed: it is parsed (and refused for its unknown field, not for its size)."""
    match_id, seated = table
    body = json.dumps({"type": "play", "card": "5c", "padding": "x" * 60_000})
    r = client.post(f"/v1/matches/{match_id}/actions", data=body,
                    headers={**seated[0].headers, "Content-Type": "application/json"})
    assert "padding" in assert_problem(r, 422, "validation_error")["errors"]


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x"])
def test_a_body_that_is_not_declared_json(client: Any, app: Any, table: Any,
                                          content_type: str | None) -> None:
    match_id, seated = table
    before = snapshot(client, app, match_id, [None, *seated])
    headers = dict(seated[0].headers)
    if content_type:
        headers["Content-Type"] = content_type
    r = client.post(f"/v1/matches/{match_id}/actions", data='{"type": "play", "card": "5c"}',
                    headers=headers)
    assert 400 <= r.status_code < 500
    assert r.headers["Content-Type"].startswith(PROBLEM)
    body = r.json
    assert (r.status_code, body["code"]) == (415, "unsupported_media_type")
    assert "json" in body["detail"].lower()
    _unchanged(client, app, match_id, [None, *seated], before)


def test_json_with_charset_is_accepted(client: Any, table: Any) -> None:
    match_id, seated = table
    r = client.post(f"/v1/matches/{match_id}/actions", data='{"type": "play", "card": "5c"}',
                    headers={**seated[0].headers,
                             "Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 200


@pytest.mark.parametrize("card", ["5C", "5c"])
def test_cards_are_case_insensitive_and_answered_canonically(client: Any, app: Any,
                                                            table: Any, card: str) -> None:
    match_id, seated = table
    r = act(client, match_id, seated[0], {"type": "play", "card": card})
    assert r.status_code == 200
    assert r.json["hand"]["tricks"][0]["plays"][0]["card"] == "5c"
    r = act(client, match_id, seated[1], {"type": "play", "card": "KD"})
    assert r.status_code == 200
    assert r.json["hand"]["tricks"][0]["plays"][1]["card"] == "Kd"
    assert r.json["hand"]["cards"] == ["2c", "6d"]
    r = act(client, match_id, seated[2], {"type": "play", "card": "js"})
    assert r.json["hand"]["tricks"][0]["plays"][2]["card"] == "Js"
    played = [e["card"] for e in get_events(client, match_id) if e["type"] == "card_played"]
    assert played == ["5c", "Kd", "Js"]


def test_slot_is_an_alias_of_the_card_in_a_visible_hand(client: Any, table: Any) -> None:
    match_id, seated = table
    r = act(client, match_id, seated[0], {"type": "play", "slot": 1})
    assert r.status_code == 200
    assert r.json["hand"]["tricks"][0]["plays"][0]["card"] == "3h"
    assert r.json["hand"]["cards"] == ["5c", "6c"]


def test_explicit_null_and_false_fields(client: Any, table: Any) -> None:
    match_id, seated = table
    assert act(client, match_id, seated[0], {"type": "raise", "to": None}).status_code == 200
    r = act(client, match_id, seated[1], {"type": "accept"})
    assert r.status_code == 200 and r.json["hand"]["stake"] == 3
    r = act(client, match_id, seated[0], {"type": "play", "card": "5c", "face_down": False})
    assert r.status_code == 200


def test_wrong_method_is_a_405_problem(client: Any, table: Any) -> None:
    match_id, seated = table
    for method in ("GET", "PUT", "DELETE"):
        r = client.open(f"/v1/matches/{match_id}/actions", method=method,
                        headers=seated[0].headers)
        assert_problem(r, 405, "method_not_allowed")
