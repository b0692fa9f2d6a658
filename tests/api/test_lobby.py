"""GET /v1/matches: public matches waiting for players, newest first, paginated."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import assert_problem, create, db_execute, full_match, join, register


def _ids(page: dict[str, Any]) -> list[str]:
    return [item["id"] for item in page["items"]]


def test_lists_public_waiting_matches_only(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    public = create(client, ana, players=4)
    create(client, ana, visibility="private")
    started, _ = full_match(client, players=2)
    finished, seated = full_match(client, players=2)
    client.post(f"/v1/matches/{finished}/resign", headers=seated[0].headers)
    cancelled = create(client, bob)
    assert client.post(f"/v1/matches/{cancelled['id']}/leave",
                       headers=bob.headers).status_code == 200
    bots_full = create(client, ana, bots=[{"seat": 1, "level": "random"}])
    assert bots_full["status"] != "waiting"

    r = client.get("/v1/matches")
    assert r.status_code == 200
    assert _ids(r.json) == [public["id"]]
    item = r.json["items"][0]
    assert item["status"] == "waiting" and item["visibility"] == "public"
    assert item["players"] == 4 and item["ruleset"] == "paulista"
    assert item["seats_free"] == 3
    assert [s["player"] and s["player"]["name"] for s in item["seats"]] == ["ana", None, None, None]
    assert item["to_act"] == []
    assert "invite_code" not in item
    assert r.json["next_offset"] is None
    assert started not in _ids(r.json)


def test_the_lobby_says_which_matches_have_fixed_deals(client: Any) -> None:
    # a seed, deals or a start score fixes what a joiner will be dealt: the lobby says so
    # before anyone joins (the match view says it only to those who look at the match)
    ana = register(client, "ana")
    fair = create(client, ana)
    seeded = create(client, ana, seed=7)
    scored = create(client, ana, start_score=[11, 0])
    flags = {item["id"]: item["fixed_deals"]
             for item in client.get("/v1/matches").json["items"]}
    assert flags == {fair["id"]: False, seeded["id"]: True, scored["id"]: True}
    mine = {item["id"]: item["fixed_deals"]
            for item in client.get("/v1/me/matches", headers=ana.headers).json["items"]}
    assert mine == flags


def test_a_match_leaves_the_lobby_when_it_starts(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana)
    assert _ids(client.get("/v1/matches").json) == [m["id"]]
    join(client, m["id"], bob)
    assert client.get("/v1/matches").json["items"] == []


def test_newest_first_and_paging(client: Any) -> None:
    ana = register(client, "ana")
    made = [create(client, ana)["id"] for _ in range(5)]
    newest_first = list(reversed(made))

    page1 = client.get("/v1/matches?limit=2").json
    assert _ids(page1) == newest_first[:2] and page1["next_offset"] == 2
    page2 = client.get(f"/v1/matches?limit=2&offset={page1['next_offset']}").json
    assert _ids(page2) == newest_first[2:4] and page2["next_offset"] == 4
    page3 = client.get(f"/v1/matches?limit=2&offset={page2['next_offset']}").json
    assert _ids(page3) == newest_first[4:] and page3["next_offset"] is None
    assert client.get("/v1/matches?limit=5").json["next_offset"] is None
    assert _ids(client.get("/v1/matches?offset=10").json) == []
    assert _ids(client.get("/v1/matches").json) == newest_first


def test_filters(client: Any) -> None:
    ana = register(client, "ana")
    two = create(client, ana)["id"]
    four = create(client, ana, players=4)["id"]
    mineiro = create(client, ana, ruleset="mineiro")["id"]
    assert _ids(client.get("/v1/matches?players=4").json) == [four]
    assert _ids(client.get("/v1/matches?ruleset=mineiro").json) == [mineiro]
    assert set(_ids(client.get("/v1/matches?ruleset=paulista").json)) == {two, four}


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "limit=x", "offset=-1",
                                   "players=3", "ruleset=gaucho"])
def test_bad_query_is_422(client: Any, query: str) -> None:
    body = assert_problem(client.get(f"/v1/matches?{query}"), 422, "validation_error")
    assert query.split("=")[0] in body["errors"]


def test_lobby_needs_no_token_but_checks_a_sent_one(client: Any) -> None:
    ana = register(client, "ana")
    assert_problem(client.get("/v1/matches", headers={"Authorization": "Bearer nope"}),
                   401, "unauthorized")  # also when the lobby is empty
    create(client, ana)
    assert len(client.get("/v1/matches", headers=ana.headers).json["items"]) == 1
    assert_problem(client.get("/v1/matches", headers={"Authorization": "Bearer nope"}),
                   401, "unauthorized")


def test_status_active_lists_the_public_matches_being_played_to_watch(client: Any,
                                                                     app: Any) -> None:
    """`?status=active`: public matches being played, the one that moved last first; never a
    private one, a waiting or a finished one; a spectator's summary (no cards)."""
    ana = register(client, "ana")
    older = create(client, ana, players=2, bots=[{"seat": 1, "level": "random"}])
    newer = create(client, ana, players=4, bots=[{"seat": s, "level": "random"}
                                                  for s in (1, 2, 3)])
    private = create(client, ana, players=2, visibility="private",
                     bots=[{"seat": 1, "level": "random"}])
    waiting = create(client, ana, players=2)
    finished, seated = full_match(client, players=2)
    assert client.post(f"/v1/matches/{finished}/resign",
                       headers=seated[0].headers).status_code == 200
    r = client.get("/v1/matches?status=active")
    assert r.status_code == 200, r.get_data(as_text=True)
    listed = _ids(r.json)
    assert set(listed) == {older["id"], newer["id"]}
    assert private["id"] not in listed and waiting["id"] not in listed
    assert all(item["status"] == "active" and item["visibility"] == "public"
               for item in r.json["items"])
    assert listed == [newer["id"], older["id"]]  # (created, so moved, last)
    # the one that moved last first (a move sets updated_at)
    db_execute(app, "UPDATE matches SET updated_at = now() + interval '1 minute' WHERE id = :m",
               m=older["id"])
    assert _ids(client.get("/v1/matches?status=active").json) == [older["id"], newer["id"]]
    # the filters still apply, and anything but waiting / active is 422
    assert _ids(client.get("/v1/matches?status=active&players=4").json) == [newer["id"]]
    assert _ids(client.get("/v1/matches?status=waiting").json) == [waiting["id"]]
    assert_problem(client.get("/v1/matches?status=finished"), 422, "validation_error")
