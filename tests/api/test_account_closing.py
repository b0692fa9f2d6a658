"""DELETE /v1/players/me: a player closes their account. Their unfinished matches are given up
as they would give them up (a waiting seat left, an invitation declined, an active match
resigned), their webhooks and blocks go, their token stops working, and the finished matches
that name them show a neutral name, with a new version so no ETag stands for two bodies."""
from __future__ import annotations

from typing import Any

from tests.support.api import (assert_problem, create, db_scalar, get_events, get_view, join,
                               register, resigned_match, settle_all)

CLOSED = "Deleted player"


def _close(client: Any, player: Any) -> Any:
    return client.delete("/v1/players/me", headers=player.headers)


def test_closing_gives_up_every_unfinished_match_and_shuts_the_token(client: Any,
                                                                       app: Any) -> None:
    ana, bia, cy = register(client, "ana"), register(client, "bia"), register(client, "cy")
    client.patch("/v1/players/me", json={"handle": "ana_h"}, headers=ana.headers)
    # an active match against bia, a match of ana's waiting for players, one of cy's that
    # ana sits in and waits, and an invitation from cy
    active = create(client, ana, players=2, seat=0)["id"]
    assert join(client, active, bia, seat=1).status_code == 200
    waiting = create(client, ana, players=2, seat=0)["id"]
    cys = create(client, cy, players=4, seat=0)["id"]
    assert join(client, cys, ana, seat=1).status_code == 200
    invited = create(client, cy, players=2, seat=0,
                     invite=[{"seat": 1, "player_id": ana.id}])["id"]
    finished, (dan, _) = resigned_match(client, 2, loser_seat=1)
    client.post("/v1/me/webhooks", json={"url": "http://127.0.0.1:9/hook"}, headers=ana.headers)
    assert client.put(f"/v1/me/blocks/{dan.id}", headers=ana.headers).status_code == 200
    assert client.put(f"/v1/me/blocks/{ana.id}", headers=bia.headers).status_code == 200
    assert [s["invited"] for s in get_view(client, invited)["seats"]] == [False, True]

    r = _close(client, ana)
    assert r.status_code == 204 and r.get_data() == b""

    # the token is dead: every request with it is 401, closing again too
    assert_problem(client.get("/v1/players/me", headers=ana.headers), 401, "unauthorized")
    assert_problem(_close(client, ana), 401, "unauthorized")
    # the active match was resigned: bia's team won
    view = get_view(client, active, bia)
    assert (view["status"], view["end_reason"], view["winner_team"]) == (
        "finished", "resigned", 1)
    assert view["seats"][0]["player"]["name"] == CLOSED
    assert "player_resigned" in [e["type"] for e in get_events(client, active, bia)]
    # the waiting match made by ana was cancelled; her seat in cy's was given up; the
    # invitation declined (cy's match waits for someone else)
    assert get_view(client, waiting)["status"] == "cancelled"
    for match_id in (cys, invited):
        view = get_view(client, match_id)
        assert view["status"] == "waiting"
        assert [s["player"]["id"] for s in view["seats"] if s["player"]] == [cy.id]
    # her profile is gone, her handle free, the lists do not show her
    assert_problem(client.get(f"/v1/players/{ana.id}"), 404, "player_not_found")
    assert_problem(client.get("/v1/players?handle=ana_h"), 404, "player_not_found")
    assert_problem(client.get(f"/v1/players/{ana.id}/rating-history"), 404, "player_not_found")
    assert client.patch("/v1/players/me", json={"handle": "ana_h"},
                        headers=dan.headers).status_code == 200
    # nobody can invite or block her any more
    r = client.post("/v1/matches", headers=bia.headers, json={
        "players": 2, "invite": [{"seat": 1, "player_id": ana.id}]})
    assert "invite" in assert_problem(r, 422, "validation_error")["errors"]
    assert_problem(client.put(f"/v1/me/blocks/{ana.id}", headers=cy.headers), 404,
                   "player_not_found")
    # her webhooks and the blocks by and of her went with her
    with app.app_context():
        assert db_scalar(app, "SELECT count(*) FROM webhook_endpoints WHERE player_id = :p",
                         p=ana.id) == 0
        assert db_scalar(app, "SELECT count(*) FROM player_blocks WHERE player_id = :p "
                         "OR blocked_id = :p", p=ana.id) == 0
        assert db_scalar(app, "SELECT closed_at IS NOT NULL FROM players WHERE id = :p",
                         p=ana.id)
    # a match she had nothing to do with is untouched
    assert get_view(client, finished)["seats"][0]["player"]["name"] == "seat 0"


def test_a_finished_match_shows_the_neutral_name_at_a_new_version(client: Any) -> None:
    match_id, (ana, bia) = resigned_match(client, 2, loser_seat=0)
    before = client.get(f"/v1/matches/{match_id}", headers=bia.headers)
    assert before.json["seats"][0]["player"]["name"] == "seat 0"
    assert _close(client, ana).status_code == 204
    after = client.get(f"/v1/matches/{match_id}", headers=bia.headers,
                       environ_base={})
    assert after.json["version"] > before.json["version"]
    assert after.headers["ETag"] != before.headers["ETag"]
    assert after.json["seats"][0]["player"]["name"] == CLOSED
    assert after.json["seats"][0]["player"]["id"] == ana.id  # (the log still names the seat)
    assert (after.json["winner_team"], after.json["end_reason"]) == (1, "resigned")


def test_a_closed_account_leaves_the_leaderboard(client: Any, app: Any) -> None:
    _, (ana, bia) = resigned_match(client, 2, loser_seat=1)
    settle_all(app)
    ids = [i["player"]["id"] for i in client.get("/v1/leaderboard?format=duel").json["items"]]
    assert ana.id in ids and bia.id in ids
    assert _close(client, ana).status_code == 204
    items = client.get("/v1/leaderboard?format=duel").json["items"]
    assert [i["player"]["id"] for i in items] == [bia.id]
    assert [i["rank"] for i in items] == [1]


def test_closing_needs_a_token_and_takes_no_body(client: Any) -> None:
    assert_problem(client.delete("/v1/players/me"), 401, "unauthorized")
    ana = register(client, "ana")
    r = client.delete("/v1/players/me", json={"sure": True}, headers=ana.headers)
    assert_problem(r, 422, "validation_error")
    assert client.get("/v1/players/me", headers=ana.headers).status_code == 200
