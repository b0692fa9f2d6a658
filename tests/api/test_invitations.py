"""Invitations: `invite` in the create body reserves seats for named players; each finds the
invitation in GET /v1/me/matches, accepts by joining and declines by leaving."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import (assert_problem, create, db_scalar, get_events, get_view, join,
                               register)
from tests.support.api import my_matches as _mine


def test_an_invitation_reserves_the_seat_and_shows_in_the_inbox(client: Any) -> None:
    ana, bot = register(client, "ana"), register(client, "robo", bot=True)
    m = create(client, ana, visibility="private", invite=[{"seat": 1, "player_id": bot.id}])
    assert m["status"] == "waiting"
    assert m["seats"][1]["player"]["id"] == bot.id and m["seats"][1]["invited"] is True
    assert m["seats"][0]["invited"] is False
    (item,) = _mine(client, bot)
    assert item["id"] == m["id"] and item["invitation"] is True and item["your_turn"] is True
    assert item["you"] == {"seat": 1, "team": 1}
    assert [i["id"] for i in _mine(client, bot, "?your_turn=true")] == [m["id"]]
    (own,) = _mine(client, ana)
    assert own["invitation"] is False and own["your_turn"] is False
    events = get_events(client, m["id"], ana)
    assert {"type": "player_invited", "seat": 1, "player_id": bot.id}.items() <= \
        events[-1].items()
    # not a player yet: the invited player sees what a spectator sees
    assert get_view(client, m["id"], bot)["you"] is None
    assert client.get("/v1/players/me", headers=bot.headers).json["stats"]["matches"] == 0


def test_accepting_by_joining_starts_the_match(client: Any) -> None:
    ana, bot = register(client, "ana"), register(client, "robo", bot=True)
    m = create(client, ana, visibility="private", invite=[{"seat": 1, "player_id": bot.id}])
    r = join(client, m["id"], bot)  # no invite code needed, and the reserved seat is taken
    assert r.status_code == 200, r.get_data(as_text=True)
    assert r.json["you"] == {"seat": 1, "team": 1} and r.json["status"] == "active"
    assert r.json["seats"][1]["invited"] is False
    (item,) = _mine(client, bot)
    assert item["invitation"] is False
    again = join(client, m["id"], bot)
    assert again.status_code == 200 and again.json["you"]["seat"] == 1  # already seated


def test_a_reserved_seat_is_not_free_for_others(client: Any) -> None:
    ana, bob, eve = register(client, "ana"), register(client, "bob"), register(client, "eve")
    m = create(client, ana, players=4, invite=[{"seat": 1, "player_id": bob.id}])
    assert_problem(join(client, m["id"], eve, seat=1), 409, "seat_taken")
    r = join(client, m["id"], eve)
    assert r.status_code == 200 and r.json["you"]["seat"] == 2
    lobby = client.get("/v1/matches").json["items"]
    assert next(i for i in lobby if i["id"] == m["id"])["seats_free"] == 1


def test_a_match_whose_free_seats_are_all_reserved_is_full_to_others(client: Any) -> None:
    ana, bob, eve = register(client, "ana"), register(client, "bob"), register(client, "eve")
    m = create(client, ana, invite=[{"seat": 1, "player_id": bob.id}])
    assert m["id"] not in [i["id"] for i in client.get("/v1/matches").json["items"]]
    assert_problem(join(client, m["id"], eve), 409, "seat_taken")
    assert get_view(client, m["id"], ana)["seats"][1]["player"]["id"] == bob.id
    assert join(client, m["id"], bob).status_code == 200


def test_declining_by_leaving_frees_the_seat(client: Any) -> None:
    ana, bob, eve = register(client, "ana"), register(client, "bob"), register(client, "eve")
    m = create(client, ana, invite=[{"seat": 1, "player_id": bob.id}])
    r = client.post(f"/v1/matches/{m['id']}/leave", headers=bob.headers)
    assert r.status_code == 200
    assert r.json["status"] == "waiting" and r.json["seats"][1]["player"] is None
    assert _mine(client, bob) == []
    assert get_events(client, m["id"], ana)[-1]["type"] == "invitation_declined"
    r = join(client, m["id"], eve, seat=1)
    assert r.status_code == 200 and r.json["status"] == "active"


def test_the_creator_leaving_withdraws_the_invitations(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=4, invite=[{"seat": 1, "player_id": bob.id}])
    r = client.post(f"/v1/matches/{m['id']}/leave", headers=ana.headers)
    assert r.status_code == 200 and r.json["status"] == "cancelled"
    assert _mine(client, bob) == []
    assert_problem(join(client, m["id"], bob), 409, "match_not_waiting")


def test_a_person_challenges_a_bot_in_a_four_player_match(client: Any) -> None:
    ana = register(client, "ana")
    bots = [register(client, f"bot{i}", bot=True) for i in range(3)]
    m = create(client, ana, players=4,
               invite=[{"seat": i + 1, "player_id": b.id} for i, b in enumerate(bots)])
    for b in bots[:2]:
        assert join(client, m["id"], b).json["status"] == "waiting"
    assert join(client, m["id"], bots[2]).json["status"] == "active"
    assert get_view(client, m["id"], ana)["hand"]["cards"]


@pytest.mark.parametrize(("invite", "problem"), [
    ([{"seat": 1, "player_id": "SELF"}], "invite"),          # yourself
    ([{"seat": 2, "player_id": "BOB"}], "invite"),           # no seat 2 in 2 players
    ([{"seat": 1, "player_id": "p_000000000000000000000000"}], "invite"),  # nobody
    ([{"seat": 1, "player_id": "BOB"}, {"seat": 1, "player_id": "EVE"}], "invite"),
    ([{"seat": 1}], "invite"),
    ([{"seat": 1, "player_id": "p_\x00"}], "invite"),          # PostgreSQL text holds no NUL
    ([{"seat": 1, "handle": "bo\x00b"}], "invite"),
])
def test_bad_invitations_are_422_and_create_nothing(client: Any, app: Any,
                                                    invite: list[dict[str, Any]],
                                                    problem: str) -> None:
    ana, bob, eve = register(client, "ana"), register(client, "bob"), register(client, "eve")
    names = {"SELF": ana.id, "BOB": bob.id, "EVE": eve.id}
    body = [{**i, "player_id": names.get(i.get("player_id", ""), i.get("player_id"))}
            if "player_id" in i else i for i in invite]
    r = client.post("/v1/matches", json={"players": 2, "invite": body}, headers=ana.headers)
    assert problem in assert_problem(r, 422, "validation_error")["errors"]
    assert db_scalar(app, "SELECT count(*) FROM matches") == 0


def test_an_invitation_cannot_take_the_creators_seat(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    r = client.post("/v1/matches", headers=ana.headers, json={
        "players": 2, "seat": 0, "invite": [{"seat": 0, "player_id": bob.id}]})
    assert "seat" in assert_problem(r, 422, "validation_error")["errors"]
    assert db_scalar(app, "SELECT count(*) FROM matches") == 0


def test_an_invitation_and_a_bot_cannot_share_a_seat(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    r = client.post("/v1/matches", headers=ana.headers, json={
        "players": 4, "bots": [{"seat": 1, "level": "random"}],
        "invite": [{"seat": 1, "player_id": bob.id}]})
    assert "invite" in assert_problem(r, 422, "validation_error")["errors"]
    assert db_scalar(app, "SELECT count(*) FROM matches") == 0
