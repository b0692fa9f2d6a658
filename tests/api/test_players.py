"""Players: registration (token shown once, stored hashed), names, profiles and statistics."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import (PROBLEM, REGISTERED, assert_problem, create, db_scalar,
                               full_match, register)


def test_register_returns_the_token_once(client: Any, app: Any) -> None:
    r = client.post("/v1/players", json={"name": "ana"})
    assert r.status_code == 201
    assert r.headers["Content-Type"].startswith("application/json")
    body = r.json
    assert set(body) >= {"id", "name", "bot", "token", "created_at"}
    assert body["name"] == "ana" and body["bot"] is False
    assert isinstance(body["token"], str) and len(body["token"]) >= 20
    assert body["created_at"]
    headers = {"Authorization": f"Bearer {body['token']}"}

    me = client.get("/v1/players/me", headers=headers)
    assert me.status_code == 200 and me.json["id"] == body["id"]
    public = client.get(f"/v1/players/{body['id']}")
    assert public.status_code == 200
    for response in (me, public):
        assert "token" not in response.json
        assert body["token"] not in response.get_data(as_text=True)
        assert "token_hash" not in response.json


def test_token_is_stored_hashed(client: Any, app: Any) -> None:
    r = client.post("/v1/players", json={"name": "ana"})
    token = r.json["token"]
    stored = db_scalar(app, "SELECT token_hash FROM players WHERE id = :id", id=r.json["id"])
    assert stored and stored != token
    assert token not in stored
    row = db_scalar(app, "SELECT row_to_json(p)::text FROM players p WHERE id = :id",
                    id=r.json["id"])
    assert token not in row


def test_two_registrations_get_distinct_ids_and_tokens(client: Any) -> None:
    a, b = register(client, "ana"), register(client, "ana")
    assert a.id != b.id and a.token != b.token
    assert client.get("/v1/players/me", headers=b.headers).json["id"] == b.id


def test_bot_flag(client: Any) -> None:
    r = client.post("/v1/players", json={"name": "robo", "bot": True})
    assert r.status_code == 201 and r.json["bot"] is True
    assert client.get(f"/v1/players/{r.json['id']}").json["bot"] is True


FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
"""Man, woman, girl: one emoji of five characters, joined by zero-width joiners."""
PERSIAN = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
"""A Persian word written with a zero-width non-joiner, as Persian spelling requires."""


@pytest.mark.parametrize(("sent", "stored"), [
    ("  ana  ", "ana"),
    ("\tbob\n", "bob"),
    ("x", "x"),
    ("a" * 32, "a" * 32),
    ("  " + "b" * 32 + "  ", "b" * 32),
    ("José da Silva", "José da Silva"),
    # joiners in an emoji sequence and in Persian, no-break and ideographic spaces
    (FAMILY, FAMILY),
    (PERSIAN, PERSIAN),
    ("Ana\u00a0Maria", "Ana\u00a0Maria"),
    ("\u5c71\u7530\u3000\u592a\u90ce", "\u5c71\u7530\u3000\u592a\u90ce"),
])
def test_names_are_trimmed(client: Any, sent: str, stored: str) -> None:
    r = client.post("/v1/players", json={"name": sent})
    assert r.status_code == 201, r.json
    assert r.json["name"] == stored
    assert client.get(f"/v1/players/{r.json['id']}").json["name"] == stored


@pytest.mark.parametrize("name", ["", "   ", "a" * 33, "  " + "c" * 33, "ana\x00", "a\nb",
                                  "tab\there", "\x1b[31mred", "bell\x07",
                                  # print as nothing: blank Braille, Hangul fillers, a
                                  # zero-width space, a lone combining mark
                                  "\u2800", "\u3164\u3164", "\u115f", "\uffa0", "\u200b",
                                  "\u0301", "\u200d", "\u00a0\u200c",
                                  # a direction override (spoofs what follows), a soft hyphen
                                  "ana\u202egnp.exe", "a\u00adb"])
def test_bad_names_are_422(client: Any, app: Any, name: str) -> None:
    r = client.post("/v1/players", json={"name": name})
    body = assert_problem(r, 422, "validation_error")
    assert "name" in body["errors"]
    assert db_scalar(app, REGISTERED) == 0


@pytest.mark.parametrize(("payload", "field"), [
    ({}, "name"),
    ({"name": 5}, "name"),
    ({"name": None}, "name"),
    ({"name": "ana", "bot": "maybe"}, "bot"),
    ({"name": "ana", "bot": "yes"}, "bot"),
    ({"name": "ana", "bot": 1}, "bot"),
    ({"name": "ana", "colour": "blue"}, "colour"),
    ({"name": "ana", "token": "mine"}, "token"),
])
def test_bad_register_bodies_are_422(client: Any, app: Any, payload: dict[str, Any],
                                     field: str) -> None:
    body = assert_problem(client.post("/v1/players", json=payload), 422, "validation_error")
    assert field in body["errors"]
    assert db_scalar(app, REGISTERED) == 0


def test_me_has_statistics(client: Any) -> None:
    ana = register(client, "ana")
    r = client.get("/v1/players/me", headers=ana.headers)
    assert r.status_code == 200
    assert r.json["name"] == "ana"
    assert r.json["stats"] == {"matches": 0, "active": 0, "finished": 0, "won": 0, "lost": 0}


def test_stats_count_won_and_lost_after_a_finished_match(client: Any) -> None:
    match_id, (ana, bob) = full_match(client, players=2)
    lonely = register(client, "carla")
    create(client, lonely)  # a waiting match of another player changes nothing for ana, bob

    def stats(p: Any) -> dict[str, int]:
        return client.get("/v1/players/me", headers=p.headers).json["stats"]

    assert stats(ana) == {"matches": 1, "active": 1, "finished": 0, "won": 0, "lost": 0}
    r = client.post(f"/v1/matches/{match_id}/resign", headers=bob.headers)
    assert r.status_code == 200
    assert stats(ana) == {"matches": 1, "active": 0, "finished": 1, "won": 1, "lost": 0}
    assert stats(bob) == {"matches": 1, "active": 0, "finished": 1, "won": 0, "lost": 1}
    assert stats(lonely) == {"matches": 1, "active": 0, "finished": 0, "won": 0, "lost": 0}


def test_stats_of_a_four_player_team(client: Any) -> None:
    match_id, seated = full_match(client, players=4)
    r = client.post(f"/v1/matches/{match_id}/resign", headers=seated[2].headers)
    assert r.status_code == 200 and r.json["winner_team"] == 1
    for i, p in enumerate(seated):
        s = client.get("/v1/players/me", headers=p.headers).json["stats"]
        assert (s["won"], s["lost"]) == ((1, 0) if i % 2 == 1 else (0, 1)), (i, s)


def test_public_profile(client: Any) -> None:
    ana = register(client, "ana")
    r = client.get(f"/v1/players/{ana.id}")
    assert r.status_code == 200
    assert r.json["id"] == ana.id and r.json["name"] == "ana" and r.json["bot"] is False
    assert "created_at" in r.json
    # with any valid token it is the same public profile
    bob = register(client, "bob")
    r2 = client.get(f"/v1/players/{ana.id}", headers=bob.headers)
    assert r2.status_code == 200 and r2.json["id"] == ana.id and "token" not in r2.json


def test_public_profile_of_unknown_player_is_404(client: Any) -> None:
    assert_problem(client.get("/v1/players/p_doesnotexist"), 404, "player_not_found")
    assert_problem(client.get("/v1/players/" + "x" * 300), 404, "player_not_found")


def test_register_answers_json_not_problem(client: Any) -> None:
    r = client.post("/v1/players", json={"name": "ana"})
    assert r.headers["Content-Type"] != PROBLEM



@pytest.mark.parametrize("name", ["ana", "José", "李", "🂡", "x\u2800y", "R2-D2"])
def test_visible_names_are_accepted(client: Any, name: str) -> None:
    assert register(client, name).name == name


def test_rotating_the_token_retires_the_old_one(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/players/me/token", headers=ana.headers)
    assert r.status_code == 200
    assert r.headers["Cache-Control"] == "no-store"
    new = r.json["token"]
    assert new != ana.token and r.json["id"] == ana.id and r.json["name"] == "ana"
    old = client.get("/v1/players/me", headers=ana.headers)
    assert_problem(old, 401, "unauthorized")
    me = client.get("/v1/players/me", headers={"Authorization": f"Bearer {new}"})
    assert me.status_code == 200 and me.json["id"] == ana.id
    assert db_scalar(app, REGISTERED) == 1
    assert new not in client.get(f"/v1/players/{ana.id}").get_data(as_text=True)


def test_rotating_needs_a_token(client: Any) -> None:
    assert_problem(client.post("/v1/players/me/token"), 401, "unauthorized")
    bad = {"Authorization": "Bearer tk_nobody"}
    assert_problem(client.post("/v1/players/me/token", headers=bad), 401, "unauthorized")
