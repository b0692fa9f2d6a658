"""GET /v1/me/matches: the caller's matches, most urgent first, with your_turn, awaiting,
the filters and pages."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import (F1, act_ok, assert_problem, counted, create, deal, full_match,
                               join, register)
from tests.support.api import my_matches as _mine


def test_newest_first_with_summaries(client: Any) -> None:
    ana, bob, cid = register(client, "ana"), register(client, "bob"), register(client, "cid")
    first = create(client, ana)["id"]
    second = create(client, bob, players=4)["id"]
    join(client, second, ana)
    third = create(client, ana, start_score=[4, 7])["id"]
    create(client, cid)  # not ana's
    items = _mine(client, ana)
    assert [i["id"] for i in items] == [third, second, first]
    for item in items:
        assert item["deadline"] is None
        assert isinstance(item["version"], int) and item["version"] >= 1
        assert isinstance(item["your_turn"], bool)
        assert len(item["score"]) == 2
        assert item["status"] == "waiting" and item["your_turn"] is False
    assert items[0]["score"] == [4, 7]
    assert items[1]["you"] == {"seat": 1, "team": 1}
    assert _mine(client, cid)[0]["id"] != first
    assert len(_mine(client, cid)) == 1


def test_your_turn_follows_to_act(client: Any) -> None:
    match_id, seated = full_match(client, players=4, options={"first_dealer": 3},
                                  deals=[deal(F1)])

    def turn(seat: int) -> bool:
        (item,) = _mine(client, seated[seat])
        assert item["id"] == match_id
        return item["your_turn"]

    assert [turn(s) for s in range(4)] == [True, False, False, False]
    act_ok(client, match_id, seated[0], {"type": "raise"})
    assert [turn(s) for s in range(4)] == [False, True, False, True]
    act_ok(client, match_id, seated[3], {"type": "accept"})
    assert [turn(s) for s in range(4)] == [True, False, False, False]
    act_ok(client, match_id, seated[0], {"type": "play", "card": "5c"})
    assert [turn(s) for s in range(4)] == [False, True, False, False]
    version = _mine(client, seated[0])[0]["version"]
    act_ok(client, match_id, seated[1], {"type": "play", "card": "2c"})
    assert _mine(client, seated[0])[0]["version"] > version
    client.post(f"/v1/matches/{match_id}/resign", headers=seated[2].headers)
    assert [turn(s) for s in range(4)] == [False] * 4
    assert _mine(client, seated[0])[0]["status"] == "finished"


def test_filters(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    waiting = create(client, ana, players=4)["id"]
    mine_to_play = create(client, ana, options={"first_dealer": 1})["id"]
    join(client, mine_to_play, bob)                       # seat 0 (ana) leads
    theirs_to_play = create(client, ana, options={"first_dealer": 0})["id"]
    join(client, theirs_to_play, bob)                     # seat 1 (bob) leads
    finished = create(client, ana)["id"]
    join(client, finished, bob)
    client.post(f"/v1/matches/{finished}/resign", headers=bob.headers)

    def ids(query: str) -> list[str]:
        return [i["id"] for i in _mine(client, ana, query)]

    assert ids("?status=waiting") == [waiting]
    assert ids("?status=active") == [mine_to_play, theirs_to_play]  # the one waiting for ana
    assert ids("?status=finished") == [finished]
    assert ids("?status=cancelled") == []
    assert ids("?your_turn=true") == [mine_to_play]
    assert all(i["your_turn"] for i in _mine(client, ana, "?your_turn=true"))
    assert ids("?your_turn=true&status=active") == [mine_to_play]
    assert ids("?your_turn=true&status=waiting") == []
    assert [i["id"] for i in _mine(client, bob, "?your_turn=true")] == [theirs_to_play]
    assert ids("?your_turn=false") == [finished, theirs_to_play, waiting]
    assert ids("?your_turn=false&status=active") == [theirs_to_play]
    assert len(ids("")) == 4
    assert ids("?limit=2") == ids("")[:2]


def test_pages_with_offset_and_next_offset(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    newest_first = [create(client, ana)["id"] for _ in range(5)][::-1]
    create(client, bob)  # not ana's

    def page(query: str) -> dict[str, Any]:
        r = client.get(f"/v1/me/matches{query}", headers=ana.headers)
        assert r.status_code == 200, r.get_data(as_text=True)
        return r.json

    first = page("?limit=2")
    assert [i["id"] for i in first["items"]] == newest_first[:2] and first["next_offset"] == 2
    second = page(f"?limit=2&offset={first['next_offset']}")
    assert [i["id"] for i in second["items"]] == newest_first[2:4]
    assert second["next_offset"] == 4
    last = page("?limit=2&offset=4")
    assert [i["id"] for i in last["items"]] == newest_first[4:] and last["next_offset"] is None
    assert page("?limit=5")["next_offset"] is None
    assert page("?offset=5") == {"items": [], "next_offset": None, "awaiting": 0,
                                 "invitations": 0}
    assert [i["id"] for i in page("?status=waiting&offset=3")["items"]] == newest_first[3:]
    tags = {client.get(f"/v1/me/matches{q}", headers=ana.headers).headers["ETag"]
            for q in ("?limit=2", "?limit=2&offset=2", "?limit=3")}
    assert len(tags) == 3  # each page is its own representation


@pytest.mark.parametrize("query", ["?status=playing", "?your_turn=maybe", "?limit=0",
                                   "?wait=61", "?offset=-1", "?offset=2147483648",
                                   "?limit=1_0", "?limit=%D9%A1%D9%A2", "?wait=%EF%BC%93",
                                   "?limit=+5", "?limit=%205"])
def test_bad_query_is_422(client: Any, query: str) -> None:
    ana = register(client, "ana")
    body = assert_problem(client.get(f"/v1/me/matches{query}", headers=ana.headers), 422,
                          "validation_error")
    assert query[1:].split("=")[0] in body["errors"]


def test_the_list_has_an_etag(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana)
    r = client.get("/v1/me/matches", headers=ana.headers)
    tag = r.headers["ETag"]
    again = client.get("/v1/me/matches", headers={**ana.headers, "If-None-Match": tag})
    assert again.status_code == 304 and again.get_data() == b""
    join(client, m["id"], bob)
    changed = client.get("/v1/me/matches", headers={**ana.headers, "If-None-Match": tag})
    assert changed.status_code == 200 and changed.json["items"][0]["status"] == "active"


def test_most_urgent_first_and_the_awaiting_count(client: Any, app: Any) -> None:
    """Matches where it is the caller's turn first, the nearest deadline first; then their
    invitations; then the rest, the most recently changed first. `awaiting` counts the
    turns, `invitations` the invitations, whatever the page."""
    from sqlalchemy import text

    from app.db.extensions import db

    ana, bob, eve = register(client, "ana"), register(client, "bob"), register(client, "eve")
    quiet = create(client, ana, players=4)["id"]                       # waiting, not for ana

    def started(first_dealer: int, **extra: Any) -> str:
        match_id = create(client, ana, options={"first_dealer": first_dealer}, **extra)["id"]
        join(client, match_id, bob)
        return match_id

    theirs = started(0)                                 # bob leads
    soon = started(1, turn_timeout=3600)                # ana leads, deadline in an hour
    later = started(1, turn_timeout=86400)              # ana leads, deadline tomorrow
    no_deadline = started(1)                            # ana leads, no limit
    invited = create(client, eve, invite=[{"seat": 1, "player_id": ana.id}])["id"]
    with app.app_context():  # the invitation is the oldest change of all
        db.session.execute(text("UPDATE matches SET updated_at = now() - interval '1 day' "
                                "WHERE id = :m"), {"m": invited})
        db.session.commit()
        db.session.remove()
    r = client.get("/v1/me/matches", headers=ana.headers)
    order = [i["id"] for i in r.json["items"]]
    assert order[:3] == [soon, later, no_deadline]
    assert order[3] == invited                        # then the invitation
    assert order[4:] == [theirs, quiet]               # the rest, last changed first
    assert (r.json["awaiting"], r.json["invitations"]) == (3, 1)
    other = client.get("/v1/me/matches?limit=1&status=finished", headers=ana.headers).json
    assert (other["awaiting"], other["invitations"]) == (3, 1)
    assert client.get("/v1/me/matches", headers=bob.headers).json["awaiting"] == 1


def test_list_scores_follow_the_play(client: Any) -> None:
    """Lists read the points from the match's own column, kept by every move (the action
    path, the worker, resignations) equal to the engine's."""
    import random

    from tests.support.api import get_view, play_out, random_step

    match_id, seated = full_match(client, players=2, start_score=[9, 10])
    assert _mine(client, seated[0])[0]["score"] == [9, 10]
    rng = random.Random(7)
    for _ in range(40):
        if get_view(client, match_id, seated[0])["status"] != "active":
            break
        random_step(client, match_id, seated, rng)
        (item,) = _mine(client, seated[0])
        assert item["score"] == get_view(client, match_id, seated[0])["score"]
    play_out(client, match_id, seated, rng)
    (item,) = _mine(client, seated[1])
    view = get_view(client, match_id, seated[1])
    assert item["status"] == "finished" and item["score"] == view["score"]
    assert max(item["score"]) >= 12


def test_two_players_pages_of_one_match_have_their_own_etags(client: Any) -> None:
    """The same matches at the same versions are another body for another player (`you`,
    `your_turn`): their ETags differ, so one player's validator never answers 304 to the
    other (a client holding several accounts, a cache keyed by URL)."""
    match_id, (ana, bia) = full_match(client, players=2)
    assert client.post(f"/v1/matches/{match_id}/resign", headers=ana.headers).status_code == 200
    mine = client.get("/v1/me/matches", headers=ana.headers)
    theirs = client.get("/v1/me/matches", headers=bia.headers)
    assert mine.json["items"][0]["you"] != theirs.json["items"][0]["you"]
    assert mine.headers["ETag"] != theirs.headers["ETag"]
    r = client.get("/v1/me/matches", headers={**bia.headers,
                                              "If-None-Match": mine.headers["ETag"]})
    assert r.status_code == 200 and r.json == theirs.json
    r = client.get("/v1/me/matches", headers={**bia.headers,
                                              "If-None-Match": theirs.headers["ETag"]})
    assert r.status_code == 304
    # a player's new name is a new version of their finished match, and a new page
    assert client.patch("/v1/players/me", headers=ana.headers,
                        json={"name": "Ana Maria"}).status_code == 200
    r = client.get("/v1/me/matches", headers={**bia.headers,
                                              "If-None-Match": theirs.headers["ETag"]})
    assert r.status_code == 200 and r.json["items"][0]["version"] == theirs.json["items"][0][
        "version"] + 1
    assert [s["player"]["name"] for s in r.json["items"][0]["seats"]] == ["Ana Maria", "seat 1"]


def test_a_summary_names_who_sits_where_and_who_acts(client: Any, app: Any) -> None:
    """The opponents and the seats to act, without a request per match (the web client's
    inbox says "vs bia · 23 hours left"), in as many statements for ten matches as for two."""
    ana, bia, cid = register(client, "ana"), register(client, "bia"), register(client, "cid")
    four = create(client, ana, players=4, bots=[{"seat": 3, "level": "easy"}],
                  invite=[{"seat": 1, "player_id": cid.id}])["id"]
    join(client, four, bia, seat=2)
    duel = create(client, ana, options={"first_dealer": 1})["id"]
    join(client, duel, bia)
    items = {i["id"]: i for i in _mine(client, ana)}
    seats = items[four]["seats"]
    assert [(s["seat"], s["team"]) for s in seats] == [(0, 0), (1, 1), (2, 0), (3, 1)]
    assert [s["player"] and s["player"]["name"] for s in seats] == ["ana", "cid", "bia", None]
    assert [s["bot_level"] for s in seats] == [None, None, None, "easy"]
    assert [s["invited"] for s in seats] == [False, True, False, False]
    assert items[four]["to_act"] == [] and items[four]["status"] == "waiting"
    (invited,) = _mine(client, cid)  # the invitation lists the same seats
    assert invited["seats"] == seats
    view = client.get(f"/v1/matches/{duel}", headers=ana.headers).get_json()
    assert items[duel]["to_act"] == view["hand"]["to_act"] != []
    assert [s["player"]["name"] for s in items[duel]["seats"]] == ["ana", "bia"]

    def statements(n: int) -> int:
        with counted(app) as sent:
            assert len(_mine(client, ana)) == n
        return len(sent)
    two = statements(2)
    for n in range(8):  # eight more opponents, each loaded with the others, not one by one
        join(client, create(client, ana)["id"], register(client, f"p{n}"))
    assert statements(10) == two


def test_a_cancelled_match_has_nobody_left_in_it_to_list_it(client: Any) -> None:
    """A match is cancelled only when the last player who had accepted a seat leaves (bots
    and pending invitations keep nothing open; the invitations are withdrawn with it): a
    match someone has joined is never cancelled by another's leaving, it stays waiting in
    their list. So no inbox lists a cancelled match: `status=cancelled` is accepted and lists
    nothing, and a withdrawn invitation leaves the inbox (the invitee's view of the match
    says cancelled)."""
    ana, bob, carl = register(client, "ana"), register(client, "bob"), register(client, "carl")
    match_id = create(client, ana, players=4, seat=0, invite=[{"seat": 1, "player_id": carl.id}],
                      bots=[{"seat": 3, "level": "random"}])["id"]
    assert join(client, match_id, bob, seat=2).status_code == 200

    def inbox(player: Any, query: str = "") -> dict[str, Any]:
        r = client.get(f"/v1/me/matches{query}", headers=player.headers)
        assert r.status_code == 200
        return r.json

    left = client.post(f"/v1/matches/{match_id}/leave", headers=ana.headers)
    assert left.status_code == 200 and left.json["status"] == "waiting"
    assert [(i["id"], i["status"]) for i in inbox(bob)["items"]] == [(match_id, "waiting")]
    assert inbox(ana)["items"] == []
    assert [i["invitation"] for i in inbox(carl)["items"]] == [True]
    left = client.post(f"/v1/matches/{match_id}/leave", headers=bob.headers)
    assert left.status_code == 200
    assert (left.json["status"], left.json["end_reason"]) == ("cancelled", "cancelled")
    assert [s["player"] for s in left.json["seats"]] == [None] * 4
    for player in (ana, bob, carl):
        assert inbox(player, "?status=cancelled")["items"] == []
        assert inbox(player) == {"items": [], "next_offset": None, "awaiting": 0,
                                 "invitations": 0}
    seen = client.get(f"/v1/matches/{match_id}", headers=carl.headers).json
    assert (seen["status"], seen["you"]) == ("cancelled", None)
