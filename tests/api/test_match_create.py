"""POST /v1/matches: defaults, the creator's view, and every way a create body is refused."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.api import (D2, F1, F2, PROBLEM, act_ok, assert_problem, create, db_scalar,
                               deal, full_match, get_view, join, register)


def _count(app: Any) -> int:
    return db_scalar(app, "SELECT count(*) FROM matches")


def test_defaults_and_location(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/matches", json={}, headers=ana.headers)
    assert r.status_code == 201
    assert r.headers["Content-Type"].startswith("application/json")
    m = r.json
    assert r.headers["Location"].endswith(f"/v1/matches/{m['id']}")
    assert r.headers["ETag"]
    assert m["players"] == 2 and m["ruleset"] == "paulista" and m["target_score"] == 12
    assert m["status"] == "waiting" and m["visibility"] == "public"
    assert m["fixed_deals"] is False
    assert m["turn_timeout"] is None and m["deadline"] is None
    assert m["score"] == [0, 0] and m["winner_team"] is None
    assert isinstance(m["version"], int)
    assert m["rules"]["ruleset"] == "paulista"
    assert m["rules"]["first_dealer"] == "random" and m["rules"]["tie_leader"] == "trick_leader"
    assert m["rules"]["response_mode"] == "any_accept_all_refuse"
    # the creator's view: seated at 0, the other seat free
    assert m["you"] == {"seat": 0, "team": 0}
    assert [s["seat"] for s in m["seats"]] == [0, 1]
    assert [s["team"] for s in m["seats"]] == [0, 1]
    assert m["seats"][0]["player"]["id"] == ana.id and m["seats"][0]["player"]["name"] == "ana"
    assert m["seats"][1]["player"] is None and m["seats"][1]["bot_level"] is None
    assert m["legal_actions"] == []
    # Location points at the same match
    assert client.get(r.headers["Location"], headers=ana.headers).json["id"] == m["id"]
    assert _count(app) == 1


def test_created_view_equals_the_get_view(client: Any) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/matches", json={"players": 4, "seat": 2}, headers=ana.headers)
    got = client.get(f"/v1/matches/{r.json['id']}", headers=ana.headers)
    assert got.json == r.json
    assert got.headers["ETag"] == r.headers["ETag"]
    assert r.json["you"] == {"seat": 2, "team": 0}
    assert r.json["seats"][2]["player"]["id"] == ana.id


def test_mineiro_six_players_and_options_echoed(client: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, ruleset="mineiro", players=6,
               options={"tie_leader": "hand_mao", "first_dealer": 5, "games_to_win": 2,
                        "max_face_down_per_team_per_trick": 1})
    assert m["ruleset"] == "mineiro" and m["players"] == 6 and len(m["seats"]) == 6
    rules = m["rules"]
    assert rules["ruleset"] == "mineiro"
    assert rules["tie_leader"] == "hand_mao" and rules["first_dealer"] == 5
    assert rules["games_to_win"] == 2 and rules["max_face_down_per_team_per_trick"] == 1
    assert rules["iron_hand_value"] == 2  # Mineiro's base value by default
    assert rules["all_ties"] == "void" and rules["raise_cap"] == "ladder"


def test_seed_makes_the_deal_reproducible(client: Any) -> None:
    def dealt(seed: int) -> list[Any]:
        a, b = register(client, "ana"), register(client, "bob")
        m = create(client, a, seed=seed, options={"first_dealer": 1})
        r = join(client, m["id"], b)
        return [get_view(client, m["id"], a)["hand"]["cards"], r.json["hand"]["cards"],
                r.json["hand"]["vira"]]

    assert dealt(424242) == dealt(424242)


@pytest.mark.parametrize(("body", "field"), [
    ({"players": 3}, "players"),
    ({"players": 8}, "players"),
    ({"players": "4"}, "players"),
    ({"target_score": 15}, "target_score"),
    ({"target_score": 24}, "target_score"),
    ({"ruleset": "gaucho"}, "ruleset"),
    ({"visibility": "secret"}, "visibility"),
    ({"on_timeout": "cry"}, "on_timeout"),
    ({"turn_timeout": 5}, "turn_timeout"),
    ({"seed": -1}, "seed"),
    ({"seed": "abc"}, "seed"),
    ({"seat": "0"}, "seat"),
    ({"colour": "red"}, "colour"),
    ({"bots": [{"seat": 1, "level": "genius"}]}, "bots"),
    ({"bots": [{"seat": 1}]}, "bots"),
    ({"bots": "many"}, "bots"),
    ({"options": ["face_down"]}, "options"),
])
def test_bad_fields_are_422_with_errors(client: Any, app: Any, body: dict[str, Any],
                                        field: str) -> None:
    ana = register(client, "ana")
    problem = assert_problem(client.post("/v1/matches", json=body, headers=ana.headers),
                             422, "validation_error")
    assert field in problem["errors"], problem
    assert _count(app) == 0


@pytest.mark.parametrize("options", [
    {"no_such_rule": True},
    {"tie_leader": "dealer"},
    {"response_mode": "shout"},
    {"face_down": "yes"},
    {"face_down": 1},
    {"games_to_win": 3},
    {"first_dealer": 2},          # only seats 0 and 1 exist in 2 players
    {"first_dealer": "first"},
    {"iron_hand_value": 0},
    {"max_face_down_per_team_per_trick": 2},
])
def test_unknown_options_and_values_are_422(client: Any, app: Any,
                                            options: dict[str, Any]) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/matches", json={"options": options}, headers=ana.headers)
    problem = assert_problem(r, 422, "validation_error")
    (name,) = options
    assert any(name in key or key == "options" for key in problem["errors"]), problem
    for messages in problem["errors"].values():
        assert isinstance(messages, list) and all(isinstance(m, str) for m in messages)
    assert _count(app) == 0


def test_a_mao_de_ferro_worth_the_largest_iron_hand_value_is_played_and_kept(
        client: Any, app: Any) -> None:
    # RULES.md §12: iron_hand_value is any integer >= 1; its bound is what a score can hold.
    match_id, seated = full_match(client, players=4, options={"first_dealer": 3,
                                  "iron_hand_value": 32756}, start_score=[11, 11],
                                  deals=[deal(F2)])
    assert get_view(client, match_id)["hand"]["stake"] == 32756
    for _ in range(2):
        for seat in range(4):
            act_ok(client, match_id, seated[seat], {"type": "play", "slot": 0})
    view = get_view(client, match_id)
    assert view["status"] == "finished" and view["winner_team"] == 0
    assert view["score"] == [32767, 11]
    assert db_scalar(app, "SELECT score FROM matches WHERE id = :id", id=match_id) == [32767, 11]


def _bad_deals() -> list[Any]:
    short = deal(F1)
    short["hands"][2] = ["Qd", "Js"]
    twice = deal(F1)
    twice["hands"][3][0] = "5c"
    vira_dealt = deal(F1)
    vira_dealt["vira"] = "5c"
    unknown = deal(F1)
    unknown["hands"][0][0] = "8c"
    three_hands = deal(F1)
    three_hands["hands"] = three_hands["hands"][:3]
    no_vira = deal(F1)
    no_vira["vira"] = None
    return [short, twice, vira_dealt, unknown, three_hands, no_vira, {"vira": "4d"}, "F1"]


@pytest.mark.parametrize("bad", _bad_deals())
def test_bad_deals_are_422(client: Any, app: Any, bad: Any) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/matches", json={"players": 4, "deals": [bad]}, headers=ana.headers)
    problem = assert_problem(r, 422, "validation_error")
    assert any(key.startswith("deals") for key in problem["errors"]), problem
    assert _count(app) == 0


def test_mineiro_deal_needs_a_null_vira(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/matches", json={"ruleset": "mineiro", "deals": [deal(D2)]},
                    headers=ana.headers)
    problem = assert_problem(r, 422, "validation_error")
    assert any(key.startswith("deals") for key in problem["errors"])
    ok = {"vira": None, "hands": deal(D2)["hands"]}
    assert client.post("/v1/matches", json={"ruleset": "mineiro", "deals": [ok]},
                       headers=ana.headers).status_code == 201


@pytest.mark.parametrize("start_score", [[12, 0], [0, -1], [1], [1, 2, 3], ["a", 0]])
def test_bad_start_score_is_422(client: Any, app: Any, start_score: Any) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/matches", json={"start_score": start_score}, headers=ana.headers)
    problem = assert_problem(r, 422, "validation_error")
    assert "start_score" in problem["errors"], problem
    assert _count(app) == 0


@pytest.mark.parametrize(("body", "field"), [
    ({"bots": [{"seat": 0, "level": "random"}]}, "seat"),            # the creator's seat
    ({"seat": 1, "bots": [{"seat": 1, "level": "random"}]}, "seat"),
    ({"bots": [{"seat": 2, "level": "random"}]}, "bots"),            # no seat 2 in 2 players
    ({"bots": [{"seat": -1, "level": "random"}]}, "bots"),
    ({"players": 4, "bots": [{"seat": 1, "level": "random"}, {"seat": 1, "level": "random"}]},
     "bots"),
    ({"seat": 2}, "seat"),
    ({"seat": -1}, "seat"),
])
def test_bad_seats_are_422(client: Any, app: Any, body: dict[str, Any], field: str) -> None:
    ana = register(client, "ana")
    if field == "seat" and "bots" in body and "seat" not in body:
        body = {**body, "seat": 0}
    problem = assert_problem(client.post("/v1/matches", json=body, headers=ana.headers),
                             422, "validation_error")
    assert field in problem["errors"], problem
    assert _count(app) == 0


def test_turn_timeout_and_on_timeout_are_kept(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    for timeout in (10, 86400, 1_209_600):
        m = create(client, ana, turn_timeout=timeout, on_timeout="forfeit")
        assert m["turn_timeout"] == timeout and m["on_timeout"] == "forfeit"
        assert m["deadline"] is None  # waiting: nobody is to act yet
    m = create(client, ana, turn_timeout=None)
    assert m["turn_timeout"] is None and m["on_timeout"] == "auto_play"


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_bot_level_is_available(client: Any, app: Any, level: str) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/matches", json={"bots": [{"seat": 1, "level": level}]},
                    headers=ana.headers)
    assert r.status_code == 201, r.get_data(as_text=True)
    assert r.json["seats"][1]["bot_level"] == level and r.json["status"] == "active"
    assert _count(app) == 1


def test_an_unknown_bot_level_is_refused(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/matches", json={"bots": [{"seat": 1, "level": "expert"}]},
                    headers=ana.headers)
    assert_problem(r, 422, "validation_error")
    assert _count(app) == 0


def test_fixed_deals_are_shown_to_everyone(client: Any) -> None:
    ana, bob, eve = register(client, "ana"), register(client, "bob"), register(client, "eve")
    m = create(client, ana, deals=[deal(D2)], options={"first_dealer": 1})
    assert m["fixed_deals"] is True
    join(client, m["id"], bob)
    for viewer in (ana, bob, eve, None):
        v = get_view(client, m["id"], viewer)
        assert v["fixed_deals"] is True, viewer
    assert get_view(client, m["id"], ana)["hand"]["cards"] == ["5c", "3h", "6c"]
    assert get_view(client, m["id"], bob)["hand"]["cards"] == ["2c", "Kd", "6d"]


def test_start_score_is_shown_to_everyone(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, start_score=[3, 7])
    assert m["fixed_deals"] is True and m["score"] == [3, 7]
    join(client, m["id"], bob)
    for viewer in (ana, bob, None):
        v = get_view(client, m["id"], viewer)
        assert v["score"] == [3, 7] and v["fixed_deals"] is True


def test_a_chosen_seed_is_a_fixed_deal(client: Any) -> None:
    """Anyone who knows the seed can compute every deal: everyone is told."""
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, seed=7)
    join(client, m["id"], bob)
    for viewer in (ana, bob, None):
        assert get_view(client, m["id"], viewer)["fixed_deals"] is True


def test_without_seed_or_deals_fixed_deals_is_false(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana)
    join(client, m["id"], bob)
    assert get_view(client, m["id"])["fixed_deals"] is False


def test_server_seeds_are_secret_and_unpredictable(client: Any, app: Any) -> None:
    """Seeds come from the CSPRNG: distinct, spread over the whole range, and in no answer
    a player or a spectator receives."""
    from sqlalchemy import select

    from app.db.extensions import db
    from app.db.models import Match

    ana, bob = register(client, "ana"), register(client, "bob")
    ids = [create(client, ana, bots=[{"seat": 1, "level": "random"}])["id"] for _ in range(40)]
    with app.app_context():
        seeds = db.session.execute(select(Match.seed).where(Match.id.in_(ids))).scalars().all()
    assert len(set(seeds)) == 40
    assert max(seeds) >= 2**56  # a counter, a time or a small range would not reach this
    m = create(client, ana)
    join(client, m["id"], bob)
    answers = [client.get(f"/v1/matches/{m['id']}", headers=h).get_data(as_text=True)
               for h in (ana.headers, bob.headers, {})]
    answers.append(client.get(f"/v1/matches/{m['id']}/events", headers=ana.headers)
                   .get_data(as_text=True))
    with app.app_context():
        seed = db.session.execute(select(Match.seed).where(Match.id == m["id"])).scalar_one()
    assert all(str(seed) not in text for text in answers)


@pytest.fixture()
def production_client(database_url: str) -> Iterator[Any]:
    """An app that does not allow fixed deals (production's default)."""
    from app import create_app
    from app.db.extensions import db

    application = create_app({"TESTING": True, "TRUCO_ENV": "testing",
                              "SQLALCHEMY_DATABASE_URI": database_url,
                              "FIXED_DEALS_ALLOWED": False})
    yield application.test_client()
    with application.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("body", [{"deals": [deal(D2)]}, {"start_score": [11, 5]},
                                  {"deals": [deal(D2)], "start_score": [0, 0]},
                                  {"seed": 532}, {"players": 2, "seed": 0}])
def test_fixed_deals_disabled(production_client: Any, app: Any, body: dict[str, Any]) -> None:
    ana = register(production_client, "ana")
    r = production_client.post("/v1/matches", json=body, headers=ana.headers)
    assert_problem(r, 403, "fixed_deals_disabled")
    assert _count(app) == 0
    # everything else still works there
    r = production_client.post("/v1/matches", json={"seed": None}, headers=ana.headers)
    assert r.status_code == 201 and r.json["fixed_deals"] is False


def test_create_body_must_be_json(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    for headers in ({"Content-Type": "text/plain"}, {}):
        r = client.post("/v1/matches", data='{"players": 4}', headers={**ana.headers, **headers})
        assert 400 <= r.status_code < 500
        assert r.headers["Content-Type"].startswith(PROBLEM)
        assert r.json["code"] == "unsupported_media_type"
    assert _count(app) == 0
