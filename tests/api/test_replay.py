"""GET /v1/matches/{id}/replay: every step of a finished match's replay is the table a viewer
was served at that moment (players: with every card and no legal action), rebuilt from the
recorded actions; its errors."""
from __future__ import annotations

import random
from typing import Any

import pytest

from tests.support.api import (act_ok, assert_problem, auth, create, db_execute, full_match,
                               get_events, get_view, join, register, stored_secret)

Record = tuple[Any, int, dict[str, Any]]
"""(viewer, the last event's seq, the view it was served then)."""


def _record(client: Any, match_id: str, viewers: list[Any], into: list[Record]) -> None:
    seq = get_events(client, match_id)[-1]["seq"]
    for viewer in [*viewers, None]:
        into.append((viewer, seq, get_view(client, match_id, viewer)))


def _one_bot_move(app: Any) -> int:
    """One step of background work that is due: a bot's move or a passed deadline."""
    from app.db.extensions import db
    from app.play.background import run_due

    with app.app_context():
        try:
            return run_due(limit=1)
        finally:
            db.session.remove()


def _play(client: Any, app: Any, match_id: str, seated: list[Any], rng: random.Random,
          records: list[Record], timeouts: bool = False) -> None:
    """Random legal play (bots one move at a time; with `timeouts`, the first deadline and
    then some pass, never twice in a row for a seat), recording every viewer's view after
    every change."""
    people = [p for p in seated if p is not None]
    passed = 0
    while True:
        _record(client, match_id, people, records)
        view = get_view(client, match_id)
        if view["status"] != "active":
            return
        if _one_bot_move(app):
            continue
        late = view["seats"][view["hand"]["to_act"][0]]["timeouts_in_row"] == 0
        if timeouts and view["deadline"] and late and (not passed or rng.random() < 0.1):
            # the deadline is made to have passed (no view is served before the time-out)
            db_execute(app, "UPDATE matches SET deadline = now() - interval '1 second', "
                            "due_at = now() - interval '1 second', warn_at = NULL "
                            "WHERE id = :m", m=match_id)
            passed += _one_bot_move(app)
            continue
        seat = rng.choice(view["hand"]["to_act"])
        legal = get_view(client, match_id, seated[seat])["legal_actions"]
        act_ok(client, match_id, seated[seat], rng.choice(legal))


def _as_served(replayed: dict[str, Any], served: dict[str, Any], seat: int) -> dict[str, Any]:
    """A player's replay view hidden as the view served then was: the other seats' hands,
    the face-down cards of others, a blind hand's cards; its legal actions are none."""
    out = {**replayed, "legal_actions": served["legal_actions"]}
    if replayed["hand"] is None:
        return out
    hand = {k: v for k, v in replayed["hand"].items() if k != "hands"}
    assert replayed["hand"]["hands"][seat] == hand["cards"]
    if served["hand"]["cards"] and None in served["hand"]["cards"]:
        hand["cards"] = served["hand"]["cards"]

    def tricks(mine: list[dict[str, Any]], seen: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for t, s in zip(mine, seen):
            plays = [{**p, "card": None} if q["card"] is None and p["seat"] != seat else p
                     for p, q in zip(t["plays"], s["plays"])]
            out.append({**t, "plays": plays})
        return out + mine[len(seen):]
    hand["tricks"] = tricks(hand["tricks"], served["hand"]["tricks"])
    out["hand"] = hand
    if replayed["last_hand"] is not None and served["last_hand"] is not None:
        out["last_hand"] = {**replayed["last_hand"], "tricks": tricks(
            replayed["last_hand"]["tricks"], served["last_hand"]["tricks"])}
    return out


def _check_every_step(client: Any, match_id: str, records: list[Record]) -> int:
    """Every recorded view is the replay at its step, as its viewer sees the replay."""
    checked = 0
    for viewer, seq, served in records:
        r = client.get(f"/v1/matches/{match_id}/replay?step={seq}", headers=auth(viewer))
        assert r.status_code == 200, r.get_data(as_text=True)
        assert r.json["step"] == seq and r.json["steps"] >= seq
        replayed = {**r.json["view"], "updated_at": served["updated_at"]}
        if viewer is None:
            assert replayed == served, seq
        else:
            seat = served["you"]["seat"]
            assert replayed["legal_actions"] == []
            assert _as_served(replayed, served, seat) == served, (seq, seat)
        checked += 1
    return checked


def test_every_step_of_two_people_is_the_table_each_was_served(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    records: list[Record] = []
    m = create(client, ana, players=2, client_seed="ana-1")
    _record(client, m["id"], [ana], records)
    assert join(client, m["id"], bob, client_seed="bob-2").status_code == 200
    _play(client, app, m["id"], [ana, bob], random.Random(2), records)
    assert _check_every_step(client, m["id"], records) == len(records) > 12
    steps = client.get(f"/v1/matches/{m['id']}/replay").json["steps"]
    secret = stored_secret(app, m["id"])
    log = get_events(client, m["id"])
    ended = min(e["seq"] for e in log if e["version"] == log[-1]["version"])  # (its change)
    for step in range(steps + 1):  # no step before the end shows the secret, to anyone
        for viewer in (ana, None):
            text = client.get(f"/v1/matches/{m['id']}/replay?step={step}",
                              headers=auth(viewer)).get_data(as_text=True)
            assert (secret in text) == (step >= ended), step


def test_every_step_of_people_with_bots_and_deadlines(client: Any, app: Any) -> None:
    people = [register(client, f"p{s}") for s in range(2)]
    records: list[Record] = []
    m = create(client, people[0], players=4, seat=0, turn_timeout=600,
               bots=[{"seat": 1, "level": "easy"}, {"seat": 3, "level": "random"}])
    _record(client, m["id"], [people[0]], records)
    assert join(client, m["id"], people[1], seat=2).status_code == 200
    seated = [people[0], None, people[1], None]
    _play(client, app, m["id"], seated, random.Random(4), records, timeouts=True)
    assert any(s["timeouts"] for _, _, v in records for s in v["seats"])
    assert any(v["deadline"] for _, _, v in records)
    assert records[-1][2]["status"] == "finished"
    assert _check_every_step(client, m["id"], records) == len(records) > 12


def test_four_people_with_face_down_cards(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4)
    records: list[Record] = []
    _play(client, app, match_id, seated, random.Random(9), records)
    assert any(p["face_down"] for _, _, v in records if v["hand"]
               for t in v["hand"]["tricks"] for p in t["plays"])
    assert _check_every_step(client, match_id, records) == len(records) > 12
    last = client.get(f"/v1/matches/{match_id}/replay", headers=seated[1].headers).json
    final = client.get(f"/v1/matches/{match_id}/replay?step={last['steps']}",
                       headers=seated[1].headers).json["view"]
    assert final["status"] == "finished" and len(final["hand"]["hands"]) == 4


def test_replay_errors(client: Any) -> None:
    ana = register(client, "ana")
    match_id, seated = full_match(client, players=2)
    assert_problem(client.get(f"/v1/matches/{match_id}/replay"), 409, "match_not_finished")
    assert_problem(client.get("/v1/matches/m_nope/replay"), 404, "match_not_found")
    waiting = create(client, ana)
    assert_problem(client.get(f"/v1/matches/{waiting['id']}/replay"), 409,
                   "match_not_finished")
    client.post(f"/v1/matches/{match_id}/resign", headers=seated[0].headers)
    steps = client.get(f"/v1/matches/{match_id}/replay").json["steps"]
    assert_problem(client.get(f"/v1/matches/{match_id}/replay?step={steps + 1}"), 404,
                   "step_not_found")
    for bad in ("-1", "x", "1.5"):
        r = client.get(f"/v1/matches/{match_id}/replay?step={bad}")
        assert "step" in assert_problem(r, 422, "validation_error")["errors"]
    r = client.get(f"/v1/matches/{match_id}/replay", headers={"Authorization": "Bearer nope"})
    assert_problem(r, 401, "unauthorized")
    zero = client.get(f"/v1/matches/{match_id}/replay?step=0").json["view"]
    assert zero["status"] == "waiting" and zero["hand"] is None
    assert [s["player"] for s in zero["seats"]] == [None, None]


@pytest.mark.parametrize("viewer", ["player", "stranger"])
def test_a_player_sees_every_card_and_a_stranger_what_a_spectator_saw(
        client: Any, viewer: str) -> None:
    match_id, seated = full_match(client, players=2)
    client.post(f"/v1/matches/{match_id}/resign", headers=seated[0].headers)
    who = seated[1] if viewer == "player" else register(client, "eve")
    steps = client.get(f"/v1/matches/{match_id}/replay").json["steps"]
    view = client.get(f"/v1/matches/{match_id}/replay?step={steps}",
                      headers=who.headers).json["view"]
    if viewer == "player":
        assert view["you"] == {"seat": 1, "team": 1}
        assert [len(h) for h in view["hand"]["hands"]] == [3, 3]
    else:
        assert view["you"] is None and view["hand"]["cards"] is None
        assert "hands" not in view["hand"]


@pytest.mark.parametrize("setup,partners_shown", [
    ({"players": 2, "start_score": [11, 11]}, False),
    ({"players": 4, "start_score": [11, 4], "ruleset": "mineiro"}, True),
    ({"players": 4, "start_score": [11, 11], "options": {"iron_hand_blind": False}}, False),
    ({"players": 2, "options": {"games_to_win": 2}, "start_score": [11, 10]}, False),
    ({"players": 6, "start_score": [4, 11]}, True),
])
def test_special_hands_replay_as_they_were_served(client: Any, app: Any, setup: dict[str, Any],
                                                  partners_shown: bool) -> None:
    """Mão de onze (partners' cards for the team on 11 only), blind and open mão de ferro,
    Mineiro, best of three games: every step is the table each viewer was served."""
    match_id, seated = full_match(client, **setup)
    records: list[Record] = []
    _play(client, app, match_id, seated, random.Random(5), records)
    assert any(v["hand"] and v["hand"]["special"] for _, _, v in records)
    assert any(v["hand"] and v["hand"]["partner_cards"] for _, _, v in records) == partners_shown
    assert _check_every_step(client, match_id, records) == len(records) > 2


def test_seats_taken_left_and_declined_replay_as_they_were_served(client: Any,
                                                                  app: Any) -> None:
    """Invitations declined, seats left and taken again: strangers (who left, who declined,
    who never sat) see exactly what a spectator was served at every step, the players what
    they were served (every card aside) at every step where they held their final seat."""
    ana, bob, carl, dan, eve, fay = (register(client, n) for n in
                                     ("ana", "bob", "carl", "dan", "eve", "fay"))
    records: list[Record] = []
    m = create(client, ana, players=4, seat=0, client_seed="a0",
               invite=[{"seat": 1, "player_id": bob.id}])
    viewers = [ana, bob, carl, dan, eve, fay]
    _record(client, m["id"], viewers, records)
    assert join(client, m["id"], carl, seat=2, client_seed="c2").status_code == 200
    _record(client, m["id"], viewers, records)
    assert client.post(f"/v1/matches/{m['id']}/leave", headers=carl.headers).status_code == 200
    _record(client, m["id"], viewers, records)
    assert join(client, m["id"], dan, seat=2, client_seed="d2").status_code == 200
    _record(client, m["id"], viewers, records)
    assert client.post(f"/v1/matches/{m['id']}/leave", headers=bob.headers).status_code == 200
    _record(client, m["id"], viewers, records)
    assert join(client, m["id"], carl, seat=1, client_seed="c1").status_code == 200
    _record(client, m["id"], viewers, records)
    assert join(client, m["id"], eve, seat=3).status_code == 200
    seated = [ana, carl, dan, eve]
    _play(client, app, m["id"], seated, random.Random(1), records)
    for viewer, seq, served in records:
        r = client.get(f"/v1/matches/{m['id']}/replay?step={seq}", headers=auth(viewer))
        replayed = {**r.json["view"], "updated_at": served["updated_at"]}
        if viewer in seated:
            seat = seated.index(viewer)
            if served["you"] != {"seat": seat, "team": seat % 2}:
                continue  # (a replay shows its players from the seat they finished in)
            assert _as_served(replayed, served, seat) == served, (seq, seat)
        else:
            assert replayed == served, (seq, viewer)


def test_a_replay_has_a_strong_etag_per_body_and_answers_304(client: Any) -> None:
    """A step of a replay carries a strong ETag naming its body: the same request with
    If-None-Match gets 304; another viewer's body (the players', from their seats, with
    `you`; a spectator's) has another tag, and one viewer's tag never gives 304 to another
    whose body differs, nor after a player's new name changed the body."""
    match_id, seated = full_match(client, players=2)
    client.post(f"/v1/matches/{match_id}/resign", headers=seated[0].headers)
    eve = register(client, "eve")
    url = f"/v1/matches/{match_id}/replay"
    steps = client.get(url).json["steps"]
    viewers = {"ana": seated[0], "bob": seated[1], "eve": eve, "anon": None}
    answers = {}
    for name, viewer in viewers.items():
        for step in (0, steps):
            r = client.get(f"{url}?step={step}", headers=auth(viewer))
            tag = r.headers["ETag"]
            assert r.status_code == 200 and tag.startswith('"') and tag.endswith('"')
            assert r.headers["Cache-Control"] == "private, no-cache"
            again = client.get(f"{url}?step={step}",
                               headers={**auth(viewer), "If-None-Match": f'"x", {tag}'})
            assert again.status_code == 304 and again.get_data() == b""
            assert again.headers["ETag"] == tag
            assert again.headers["Cache-Control"] == "private, no-cache"
            answers[name, step] = (tag, r.get_data())
    for step in (0, steps):
        tags = {name: answers[name, step][0] for name in ("ana", "bob", "eve", "anon")}
        assert len({tags["ana"], tags["bob"], tags["anon"]}) == 3, step
        assert tags["eve"] == tags["anon"]  # (a stranger and nobody: one spectator's body)
        assert answers["eve", step][1] == answers["anon", step][1]
        for asker, other in (("bob", "ana"), ("ana", "bob"), ("anon", "ana"), ("ana", "anon")):
            r = client.get(f"{url}?step={step}",
                           headers={**auth(viewers[asker]), "If-None-Match": tags[other]})
            assert r.status_code == 200 and r.get_data() == answers[asker, step][1]
    assert answers["ana", 0][0] != answers["ana", steps][0]
    # a new name shows in every step where its player sits: the old tag is not current
    renamed = client.patch("/v1/players/me", json={"name": "ana b"}, headers=seated[0].headers)
    assert renamed.status_code == 200
    r = client.get(f"{url}?step={steps}", headers={**auth(seated[1]),
                                                    "If-None-Match": answers["bob", steps][0]})
    assert r.status_code == 200 and r.headers["ETag"] != answers["bob", steps][0]
    assert "ana b" in [s["player"]["name"] for s in r.json["view"]["seats"] if s["player"]]
