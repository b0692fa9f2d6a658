"""Join and leave: seats, private matches and invite codes, and the start when every seat is
taken."""
from __future__ import annotations

from typing import Any

from tests.support.api import (assert_problem, create, db_rows, db_scalar, get_events,
                               get_view, join, register)


def _seats(app: Any, match_id: str) -> list[tuple[int, str | None]]:
    return [tuple(r) for r in db_rows(
        app, "SELECT seat, player_id FROM seats WHERE match_id = :m ORDER BY seat", m=match_id)]


def test_join_a_named_seat(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=4)
    r = join(client, m["id"], bob, seat=3)
    assert r.status_code == 200
    assert r.json["you"] == {"seat": 3, "team": 1}
    assert r.json["seats"][3]["player"]["id"] == bob.id
    assert r.json["status"] == "waiting"
    assert r.json["version"] > m["version"]
    assert r.headers["ETag"]
    assert _seats(app, m["id"]) == [(0, ana.id), (3, bob.id)]


def test_a_join_answers_the_new_seat_as_every_later_view_shows_it(client: Any) -> None:
    """The answer is made before the commit: the new seat shows its defaults (not invited, no
    deadlines missed), exactly as the view read afterwards does, started match or not."""
    ana, *others = [register(client, name) for name in ("ana", "bob", "cid", "dan")]
    m = create(client, ana, players=4)
    for player in others:  # (the last join starts the match)
        answer = join(client, m["id"], player).json
        assert answer == get_view(client, m["id"], player)
        for seat in answer["seats"]:
            if seat["player"] is not None:
                assert seat["invited"] is False
                assert seat["timeouts"] == seat["timeouts_in_row"] == 0


def test_join_takes_the_first_free_seat(client: Any) -> None:
    ana, bob, cid = register(client, "ana"), register(client, "bob"), register(client, "cid")
    m = create(client, ana, players=4, seat=1)
    assert join(client, m["id"], bob).json["you"]["seat"] == 0
    assert join(client, m["id"], cid).json["you"]["seat"] == 2


def test_joining_again_returns_the_same_seat(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=4)
    first = join(client, m["id"], bob, seat=2)
    again = join(client, m["id"], bob)
    other = join(client, m["id"], bob, seat=3)
    creator = join(client, m["id"], ana, seat=1)
    for r, seat in ((again, 2), (other, 2), (creator, 0)):
        assert r.status_code == 200
        assert r.json["you"]["seat"] == seat
    assert again.json["version"] == first.json["version"]  # nothing changed
    assert _seats(app, m["id"]) == [(0, ana.id), (2, bob.id)]
    assert db_scalar(app, "SELECT count(*) FROM events WHERE match_id = :m "
                          "AND type = 'player_joined'", m=m["id"]) == 2


def test_joining_a_started_match_you_sit_in_returns_your_seat(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana)
    join(client, m["id"], bob)
    r = join(client, m["id"], bob)
    assert r.status_code == 200 and r.json["you"] == {"seat": 1, "team": 1}
    assert r.json["status"] == "active"


def test_seat_taken(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=4, seat=1)
    assert_problem(join(client, m["id"], bob, seat=1), 409, "seat_taken")
    assert _seats(app, m["id"]) == [(1, ana.id)]


def test_seat_taken_by_a_bot(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=4, bots=[{"seat": 1, "level": "random"}])
    assert m["seats"][1]["bot_level"] == "random" and m["seats"][1]["player"] is None
    assert_problem(join(client, m["id"], bob, seat=1), 409, "seat_taken")


def test_no_such_seat_is_422(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=2)
    for seat in (2, -1, 99):
        body = assert_problem(join(client, m["id"], bob, seat=seat), 422, "validation_error")
        assert "seat" in body["errors"]
    for bad in ({"seat": "1"}, {"seat": 1.5}, {"chair": 1}, {"invite_code": 5}):
        r = client.post(f"/v1/matches/{m['id']}/join", json=bad, headers=bob.headers)
        assert_problem(r, 422, "validation_error")


def test_join_unknown_match_is_404(client: Any) -> None:
    bob = register(client, "bob")
    assert_problem(join(client, "m_nope", bob), 404, "match_not_found")


def test_a_started_or_finished_match_takes_nobody(client: Any) -> None:
    ana, bob, cid = register(client, "ana"), register(client, "bob"), register(client, "cid")
    m = create(client, ana)
    join(client, m["id"], bob)
    assert_problem(join(client, m["id"], cid), 409, "match_not_waiting")
    assert_problem(join(client, m["id"], cid, seat=1), 409, "match_not_waiting")
    client.post(f"/v1/matches/{m['id']}/resign", headers=bob.headers)
    assert_problem(join(client, m["id"], cid), 409, "match_not_waiting")
    bot_match = create(client, ana, bots=[{"seat": 1, "level": "random"}])
    assert_problem(join(client, bot_match["id"], cid), 409, "match_not_waiting")


def test_private_match_needs_its_invite_code(client: Any, app: Any) -> None:
    ana, bob, eve = register(client, "ana"), register(client, "bob"), register(client, "eve")
    m = create(client, ana, players=4, visibility="private")
    code = m["invite_code"]
    assert isinstance(code, str) and len(code) >= 8
    assert m["visibility"] == "private"
    assert_problem(join(client, m["id"], bob), 403, "invalid_invite_code")
    assert_problem(join(client, m["id"], bob, invite_code="wrong"), 403, "invalid_invite_code")
    assert_problem(join(client, m["id"], bob, invite_code=code.upper() + "x"), 403,
                   "invalid_invite_code")
    assert _seats(app, m["id"]) == [(0, ana.id)]
    r = join(client, m["id"], bob, invite_code=code)
    assert r.status_code == 200 and r.json["you"]["seat"] == 1
    # a seated player asking again needs no code
    assert join(client, m["id"], bob).json["you"]["seat"] == 1
    # the code is shown to seated players only
    assert r.json["invite_code"] == code
    assert get_view(client, m["id"], ana)["invite_code"] == code
    assert get_view(client, m["id"], eve)["invite_code"] is None
    assert get_view(client, m["id"])["invite_code"] is None
    assert code not in client.get(f"/v1/matches/{m['id']}/events").get_data(as_text=True)
    assert code not in client.get(f"/v1/matches/{m['id']}/events",
                                  headers=eve.headers).get_data(as_text=True)


def test_public_match_ignores_an_invite_code(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana)
    assert m["invite_code"] is None
    assert join(client, m["id"], bob, invite_code="anything").status_code == 200


def test_the_match_starts_when_every_seat_is_taken(client: Any) -> None:
    players = [register(client, f"p{i}") for i in range(4)]
    m = create(client, players[0], players=4)
    assert m["hand"] is None and m["status"] == "waiting"
    for i in (1, 2):
        r = join(client, m["id"], players[i])
        assert r.json["status"] == "waiting" and r.json["hand"] is None
    before = get_events(client, m["id"])
    assert [e["type"] for e in before] == ["player_joined"] * 3
    assert [e["seat"] for e in before] == [0, 1, 2]
    r = join(client, m["id"], players[3])
    assert r.json["status"] == "active"
    hand = r.json["hand"]
    assert hand["number"] == 1 and len(hand["cards"]) == 3 and hand["stake"] == 1
    assert len(hand["to_act"]) == 1 and hand["to_act"][0] == (hand["dealer"] + 1) % 4
    assert all(s["cards_in_hand"] == 3 for s in r.json["seats"])
    types = [e["type"] for e in get_events(client, m["id"], after=before[-1]["seq"])]
    assert types == ["player_joined", "match_started", "hand_dealt"]


def test_leave_before_the_start(client: Any, app: Any) -> None:
    ana, bob, cid = register(client, "ana"), register(client, "bob"), register(client, "cid")
    m = create(client, ana, players=4)
    join(client, m["id"], bob, seat=2)
    version = get_view(client, m["id"])["version"]
    r = client.post(f"/v1/matches/{m['id']}/leave", headers=bob.headers)
    assert r.status_code == 200
    assert r.json["you"] is None
    assert r.json["seats"][2]["player"] is None
    assert r.json["version"] > version
    assert _seats(app, m["id"]) == [(0, ana.id)]
    assert get_events(client, m["id"])[-1]["type"] == "player_left"
    # the seat is free again
    assert join(client, m["id"], cid, seat=2).json["you"]["seat"] == 2
    # and a player who left may come back
    assert join(client, m["id"], bob).json["you"]["seat"] == 1


def test_leave_needs_a_seat(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana)
    assert_problem(client.post(f"/v1/matches/{m['id']}/leave", headers=bob.headers),
                   403, "not_a_player")
    assert_problem(client.post("/v1/matches/m_nope/leave", headers=bob.headers),
                   404, "match_not_found")


def test_no_leaving_after_the_start(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana)
    join(client, m["id"], bob)
    version = get_view(client, m["id"])["version"]
    assert_problem(client.post(f"/v1/matches/{m['id']}/leave", headers=bob.headers),
                   409, "match_not_waiting")
    assert get_view(client, m["id"])["version"] == version
    assert _seats(app, m["id"]) == [(0, ana.id), (1, bob.id)]


def test_when_everyone_leaves_the_match_is_cancelled(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=4, bots=[{"seat": 1, "level": "random"}])
    r = client.post(f"/v1/matches/{m['id']}/leave", headers=ana.headers)
    assert r.status_code == 200 and r.json["status"] == "cancelled"
    assert_problem(join(client, m["id"], bob), 409, "match_not_waiting")
    assert client.get("/v1/matches").json["items"] == []
