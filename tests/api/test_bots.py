"""Built-in bots answer inside the request: a match against a `random` bot is played to the end
through the API, and every response is the caller's view after the bot moved."""
from __future__ import annotations

import random
from typing import Any

import pytest

from tests.api.helpers import act, create, db_rows, get_events, get_view, register


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_players_against_a_random_bot_to_the_end(client: Any, app: Any, seed: int) -> None:
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}], seed=seed)
    assert m["status"] == "active"
    assert m["seats"][1]["bot_level"] == "random" and m["seats"][1]["player"] is None
    # even if the bot leads the first hand, the 201 answer already waits for the creator
    assert m["hand"]["to_act"] == [0]
    rng = random.Random(seed)
    view = m
    steps = 0
    while view["status"] == "active":
        assert view["hand"]["to_act"] == [0], view["hand"]
        assert view["legal_actions"]
        action = rng.choice(view["legal_actions"])
        r = act(client, m["id"], ana, action)
        assert r.status_code == 200, r.get_data(as_text=True)
        view = r.json
        assert view["you"] == {"seat": 0, "team": 0}
        assert view == get_view(client, m["id"], ana)  # the answer is the current view
        steps += 1
        assert steps < 2000
    assert view["winner_team"] in (0, 1)
    assert max(view["score"]) >= 12
    assert view["legal_actions"] == []

    rows = db_rows(app, "SELECT seat, player_id FROM actions WHERE match_id = :m ORDER BY n",
                   m=m["id"])
    assert {r.player_id for r in rows if r.seat == 0} == {ana.id}
    assert {r.player_id for r in rows if r.seat == 1} == {None}  # the bot's moves are recorded
    assert sum(1 for r in rows if r.seat == 0) == steps
    assert any(r.seat == 1 for r in rows)
    types = {e["type"] for e in get_events(client, m["id"], ana)}
    assert {"match_started", "hand_dealt", "card_played", "hand_won", "match_won"} <= types
    stats = client.get("/v1/players/me", headers=ana.headers).json["stats"]
    assert stats["finished"] == 1 and stats["won"] + stats["lost"] == 1
    assert stats["won"] == (1 if view["winner_team"] == 0 else 0)


def test_bots_fill_a_four_player_match(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=4, bots=[{"seat": 1, "level": "random"},
                                             {"seat": 3, "level": "random"}], seed=5)
    assert m["status"] == "waiting"
    assert [s["bot_level"] for s in m["seats"]] == [None, "random", None, "random"]
    r = client.post(f"/v1/matches/{m['id']}/join", json={}, headers=bob.headers)
    assert r.status_code == 200 and r.json["you"]["seat"] == 2
    view = r.json
    assert view["status"] == "active"
    # bots never hold the turn when a request ends
    assert set(view["hand"]["to_act"]) <= {0, 2}
    rng = random.Random(9)
    by_seat = {0: ana, 2: bob}
    for _ in range(40):
        if view["status"] != "active":
            break
        seat = rng.choice(view["hand"]["to_act"])
        mine = get_view(client, m["id"], by_seat[seat])
        r = act(client, m["id"], by_seat[seat], rng.choice(mine["legal_actions"]))
        assert r.status_code == 200
        view = r.json
        if view["status"] == "active":
            assert view["hand"]["to_act"] and set(view["hand"]["to_act"]) <= {0, 2}


def test_a_bot_that_leads_moves_inside_the_create_request(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}], seed=11,
               options={"first_dealer": 0})
    assert m["hand"]["dealer"] == 0
    assert m["hand"]["to_act"] == [0]
    moved = db_rows(app, "SELECT seat, body FROM actions WHERE match_id = :m ORDER BY n",
                    m=m["id"])
    assert moved and all(r.seat == 1 for r in moved)
    first = moved[0].body
    if first["type"] == "play":
        assert m["hand"]["tricks"][0]["plays"][0]["seat"] == 1
    else:
        assert m["hand"]["pending"] == {"kind": "raise", "by_seat": 1, "to": 3}


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_plays_a_match_to_the_end(client: Any, app: Any, level: str) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=4, bots=[{"seat": 1, "level": level},
                                             {"seat": 2, "level": level},
                                             {"seat": 3, "level": level}], seed=7)
    assert [s["bot_level"] for s in m["seats"]] == [None, level, level, level]
    view = m
    steps = 0
    while view["status"] == "active":
        assert view["hand"]["to_act"] == [0], view["hand"]
        r = act(client, m["id"], ana, view["legal_actions"][0])
        assert r.status_code == 200, r.get_data(as_text=True)
        view = r.json
        steps += 1
        assert steps < 500
    assert view["winner_team"] in (0, 1)
    rows = db_rows(app, "SELECT seat, body FROM actions WHERE match_id = :m ORDER BY n",
                   m=m["id"])
    assert {r.seat for r in rows} == {0, 1, 2, 3}  # every bot moved
