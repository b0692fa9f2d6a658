"""Handles: chosen at registration or with PATCH /v1/players/me, unique regardless of case
(the database's index decides races), found with GET /v1/players?handle=, and usable in
invitations instead of a player id."""
from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.support.api import (REGISTERED, assert_problem, create, db_scalar, get_view,
                               my_matches, register)

BAD = ["ab", "a" * 21, "ana maria", "ana!", "ação", "ana\n", "", "ana.b", 7, ["ana"]]


def _handle_of(app: Any, player_id: str) -> Any:
    return db_scalar(app, "SELECT handle FROM players WHERE id = :p", p=player_id)


def test_a_handle_chosen_at_registration_is_shown_and_found(client: Any) -> None:
    r = client.post("/v1/players", json={"name": "Ana Maria", "handle": "ana_m-1"})
    assert r.status_code == 201 and r.json["handle"] == "ana_m-1"
    found = client.get("/v1/players?handle=ANA_M-1")
    assert found.status_code == 200
    assert found.json["id"] == r.json["id"] and found.json["handle"] == "ana_m-1"
    assert "token" not in found.json and "ratings" in found.json
    assert register(client, "bia").id  # without a handle: null
    assert client.get("/v1/players/me", headers={
        "Authorization": f"Bearer {r.json['token']}"}).json["handle"] == "ana_m-1"


def test_a_handle_nobody_has_is_404(client: Any) -> None:
    register(client, "ana")
    assert_problem(client.get("/v1/players?handle=nobody"), 404, "player_not_found")
    assert_problem(client.get("/v1/players"), 422, "validation_error")
    for handle in ("%00", "a%00bcd"):  # no text in PostgreSQL holds a NUL: not a 500
        assert_problem(client.get(f"/v1/players?handle={handle}"), 422, "validation_error")


def test_patch_sets_changes_and_removes_the_handle_and_the_name(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    r = client.patch("/v1/players/me", json={"handle": "Ana"}, headers=ana.headers)
    assert r.status_code == 200 and r.json["handle"] == "Ana" and r.json["name"] == "ana"
    assert r.json["ratings"]["duel"]["rating"] == 1500.0
    r = client.patch("/v1/players/me", json={"name": "  Ana Souza "}, headers=ana.headers)
    assert r.json["name"] == "Ana Souza" and r.json["handle"] == "Ana"
    r = client.patch("/v1/players/me", json={"handle": None}, headers=ana.headers)
    assert r.status_code == 200 and r.json["handle"] is None
    assert _handle_of(app, ana.id) is None
    assert_problem(client.get("/v1/players?handle=ana"), 404, "player_not_found")


def test_patch_needs_a_token_and_a_field(client: Any) -> None:
    ana = register(client, "ana")
    assert_problem(client.patch("/v1/players/me", json={"handle": "ana"}), 401, "unauthorized")
    assert_problem(client.patch("/v1/players/me", json={}, headers=ana.headers),
                   422, "validation_error")
    body = assert_problem(client.patch("/v1/players/me", json={"handle": "ana", "bot": True},
                                       headers=ana.headers), 422, "validation_error")
    assert "bot" in body["errors"]


@pytest.mark.parametrize("handle", BAD)
def test_bad_handles_are_422_and_change_nothing(client: Any, app: Any, handle: Any) -> None:
    ana = register(client, "ana")
    client.patch("/v1/players/me", json={"handle": "ana"}, headers=ana.headers)
    body = assert_problem(client.patch("/v1/players/me", json={"handle": handle},
                                       headers=ana.headers), 422, "validation_error")
    assert "handle" in body["errors"]
    assert _handle_of(app, ana.id) == "ana"
    body = assert_problem(client.post("/v1/players", json={"name": "x", "handle": handle}),
                          422, "validation_error")
    assert "handle" in body["errors"] and db_scalar(app, REGISTERED) == 1


def test_a_handle_is_taken_regardless_of_case(client: Any, app: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    assert client.patch("/v1/players/me", json={"handle": "ana"},
                        headers=ana.headers).status_code == 200
    for taken in ("ana", "ANA", "aNa"):
        assert_problem(client.patch("/v1/players/me", json={"handle": taken},
                                    headers=bia.headers), 409, "handle_taken")
        assert_problem(client.post("/v1/players", json={"name": "c", "handle": taken}),
                       409, "handle_taken")
    assert _handle_of(app, bia.id) is None and db_scalar(app, REGISTERED) == 2
    assert client.patch("/v1/players/me", json={"handle": "ANA"},  # one's own, recased
                        headers=ana.headers).json["handle"] == "ANA"


def test_players_racing_for_one_handle_get_it_once(client: Any, app: Any) -> None:
    players = [register(client, f"p{i}") for i in range(6)]
    barrier = threading.Barrier(len(players))
    codes: list[int] = []

    def claim(player: Any) -> None:
        barrier.wait()
        codes.append(client.patch("/v1/players/me", json={"handle": "Winner"},
                                  headers=player.headers).status_code)

    threads = [threading.Thread(target=claim, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(codes) == [200] + [409] * 5
    assert db_scalar(app, "SELECT count(*) FROM players WHERE lower(handle) = 'winner'") == 1


def test_invitations_by_handle(client: Any) -> None:
    ana = register(client, "ana")
    bob = client.post("/v1/players", json={"name": "bob", "handle": "robo", "bot": True}).json
    m = create(client, ana, players=2, seat=0, invite=[{"seat": 1, "handle": "ROBO"}])
    seat = get_view(client, m["id"])["seats"][1]
    assert seat["invited"] and seat["player"]["id"] == bob["id"]
    assert seat["player"]["handle"] == "robo"
    bob_headers = {"Authorization": f"Bearer {bob['token']}"}
    invited = client.get("/v1/me/matches", headers=bob_headers).json["items"]
    assert [i["id"] for i in invited] == [m["id"]] and invited[0]["invitation"]
    assert my_matches(client, ana)[0]["id"] == m["id"]


@pytest.mark.parametrize("invite, field", [
    ([{"seat": 1, "handle": "nobody"}], "invite"),
    ([{"seat": 1}], "invite"),
    ([{"seat": 1, "handle": "robo", "player_id": "p_x"}], "invite"),
])
def test_bad_invitations_by_handle_are_422(client: Any, app: Any, invite: Any,
                                           field: str) -> None:
    ana = register(client, "ana")
    client.post("/v1/players", json={"name": "bob", "handle": "robo"})
    body = assert_problem(client.post("/v1/matches", json={"players": 2, "invite": invite},
                                      headers=ana.headers), 422, "validation_error")
    assert field in body["errors"]
    assert db_scalar(app, "SELECT count(*) FROM matches") == 0


@pytest.mark.parametrize("invite", [{"seat": 1, "player_id": "p_level_easy"},
                                    {"seat": 1, "handle": "bot-hard"}])
def test_inviting_a_built_in_level_is_422(client: Any, app: Any, invite: Any) -> None:
    """Its player never joins (a level plays from `bots`): the seat would wait for days."""
    ana = register(client, "ana")
    r = client.post("/v1/matches", json={"players": 2, "invite": [invite]},
                    headers=ana.headers)
    errors = assert_problem(r, 422, "validation_error")["errors"]["invite"]
    assert any("built-in level" in e for e in errors)
    assert db_scalar(app, "SELECT count(*) FROM matches") == 0


def test_inviting_yourself_by_handle_is_422(client: Any) -> None:
    ana = client.post("/v1/players", json={"name": "ana", "handle": "ana"}).json
    r = client.post("/v1/matches", json={"players": 2, "invite": [{"seat": 1, "handle": "ana"}]},
                    headers={"Authorization": f"Bearer {ana['token']}"})
    assert "invite" in assert_problem(r, 422, "validation_error")["errors"]


def test_a_new_name_is_a_new_version_of_the_players_finished_matches(client: Any) -> None:
    """Their views name the players too: under the ETag a client holds, the old name; asked
    with it, a new version with the new name (never the new name under the old ETag, which
    another process, or this one's cache, would still answer 304 to). Each keeps when it was
    last played, and a match the player has no seat in keeps its version."""
    ana, bia, cid = register(client, "ana"), register(client, "bia"), register(client, "cid")
    done = []
    for opponent in (bia, bia, cid):
        match_id = create(client, ana, players=2, seat=0)["id"]
        client.post(f"/v1/matches/{match_id}/join", json={}, headers=opponent.headers)
        assert client.post(f"/v1/matches/{match_id}/resign",
                           headers=ana.headers).status_code == 200
        done.append(match_id)
    before = {m: client.get(f"/v1/matches/{m}", headers=ana.headers) for m in done}
    assert client.patch("/v1/players/me", json={"name": "Bia B"},
                        headers=bia.headers).status_code == 200
    for m in done[:2]:
        tag = before[m].headers["ETag"]
        after = client.get(f"/v1/matches/{m}", headers={**ana.headers, "If-None-Match": tag})
        assert after.status_code == 200 and after.headers["ETag"] != tag
        assert after.json["version"] == before[m].json["version"] + 1
        assert after.json["seats"][1]["player"]["name"] == "Bia B"
        assert after.json["updated_at"] == before[m].json["updated_at"]
    tag = before[done[2]].headers["ETag"]
    assert client.get(f"/v1/matches/{done[2]}",
                      headers={**ana.headers, "If-None-Match": tag}).status_code == 304


def test_views_of_the_players_open_matches_show_a_new_handle_and_name(client: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    m = create(client, ana, players=2, seat=0)
    r = client.post(f"/v1/matches/{m['id']}/join", json={}, headers=bia.headers)
    before = client.get(f"/v1/matches/{m['id']}", headers=ana.headers)
    tag = before.headers["ETag"]
    assert client.patch("/v1/players/me", json={"handle": "bia_b", "name": "Bia"},
                        headers=bia.headers).status_code == 200
    after = client.get(f"/v1/matches/{m['id']}", headers={**ana.headers, "If-None-Match": tag})
    assert after.status_code == 200 and after.json["version"] == r.json["version"] + 1
    assert after.json["seats"][1]["player"] | {"created_at": None} == {
        "id": bia.id, "name": "Bia", "handle": "bia_b", "bot": False, "created_at": None}
    assert after.json["legal_actions"] == before.json["legal_actions"]
