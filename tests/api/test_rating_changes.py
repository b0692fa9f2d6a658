"""What rated matches did to ratings. GET /v1/matches/{id}/ratings: each rated player's rating
before and after the match, as their profiles showed them; `counting` until the worker
settles it, `unrated` for fixed deals and start scores; 409 before the end, 404 for no match.
GET /v1/players/{id}/rating-history: a player's rated matches in a format, the latest first,
one's `before` the previous one's `after`. Both public, like ratings."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import create, profile, register, resigned_match, settle_all


def _ratings(client: Any, match_id: str, status: int = 200) -> dict[str, Any]:
    answer = client.get(f"/v1/matches/{match_id}/ratings")
    assert answer.status_code == status, answer.get_data(as_text=True)
    return dict(answer.json)


def test_a_duel_shows_each_players_rating_before_and_after(client: Any, app: Any) -> None:
    match_id, (ana, bia) = resigned_match(client, 2, loser_seat=1)
    assert _ratings(client, match_id) == {"state": "counting", "format": "duel", "changes": []}
    settle_all(app)
    shown = _ratings(client, match_id)
    assert shown["state"] == "rated" and shown["format"] == "duel"
    won, lost = shown["changes"]
    assert (won["player"]["id"], won["team"]) == (ana.id, 0)
    assert (lost["player"]["id"], lost["team"]) == (bia.id, 1)
    assert won["player"]["name"] == profile(client, ana.id)["name"]
    assert won["player"]["bot"] is False
    for change, player in ((won, ana), (lost, bia)):
        assert change["before"]["rating"] == 1500.0 and change["before"]["rated_matches"] == 0
        assert change["after"] == profile(client, player.id)["ratings"]["duel"]
        assert change["change"] == pytest.approx(change["after"]["rating"] - 1500.0)
    assert won["change"] > 0 > lost["change"]


def test_the_next_match_starts_where_the_last_one_left_the_rating(client: Any, app: Any) -> None:
    first, (ana, bia) = resigned_match(client, 2, loser_seat=1)
    settle_all(app)
    second = create(client, bia, players=2, seat=0)
    assert client.post(f"/v1/matches/{second['id']}/join", json={},
                       headers=ana.headers).status_code == 200
    assert client.post(f"/v1/matches/{second['id']}/resign",
                       headers=ana.headers).status_code == 200
    settle_all(app)
    before = {c["player"]["id"]: c["after"] for c in _ratings(client, first)["changes"]}
    changes = _ratings(client, second["id"])["changes"]
    assert [c["player"]["id"] for c in changes] == [bia.id, ana.id]  # (bia on team 0 now)
    for change in changes:
        assert change["before"] == before[change["player"]["id"]]
        assert change["after"]["rated_matches"] == 2
    # the first match's changes stay what they were
    assert {c["player"]["id"]: c["after"] for c in _ratings(client, first)["changes"]} == before


def test_partners_and_a_level_in_a_teams_match(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=4, seat=0, bots=[
        {"seat": 1, "level": "easy"}, {"seat": 2, "level": "medium"}, {"seat": 3, "level": "easy"}])
    assert client.post(f"/v1/matches/{m['id']}/resign", headers=ana.headers).status_code == 200
    settle_all(app)
    shown = _ratings(client, m["id"])
    assert shown["state"] == "rated" and shown["format"] == "teams"
    by_player = {c["player"]["id"]: c for c in shown["changes"]}
    assert set(by_player) == {ana.id, "p_level_medium", "p_level_easy"}
    assert by_player["p_level_easy"]["team"] == 1 and by_player["p_level_easy"]["change"] > 0
    assert by_player[ana.id]["change"] < 0 and by_player["p_level_medium"]["change"] < 0
    assert [c["team"] for c in shown["changes"]] == [0, 0, 1]
    assert by_player["p_level_easy"]["player"]["bot"] is True


def test_a_level_on_both_teams_is_not_listed(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=4, seat=0,
               bots=[{"seat": s, "level": "medium"} for s in (1, 2, 3)])
    assert client.post(f"/v1/matches/{m['id']}/resign", headers=ana.headers).status_code == 200
    settle_all(app)
    changes = _ratings(client, m["id"])["changes"]
    assert [c["player"]["id"] for c in changes] == [ana.id]


@pytest.mark.parametrize("setup", [{"seed": 99}, {"start_score": [11, 11]}])
def test_fixed_deals_and_start_scores_are_unrated(client: Any, app: Any,
                                                  setup: dict[str, Any]) -> None:
    match_id, _ = resigned_match(client, 2, loser_seat=1, **setup)
    assert _ratings(client, match_id)["state"] == "counting"
    settle_all(app)
    assert _ratings(client, match_id) == {"state": "unrated", "format": "duel", "changes": []}


def test_before_the_end_409_and_no_match_404(client: Any) -> None:
    ana = register(client, "ana")
    waiting = create(client, ana, players=2, seat=0)
    problem = _ratings(client, waiting["id"], 409)
    assert problem["code"] == "match_not_finished" and "waiting" in problem["detail"]
    active = create(client, ana, players=2, seat=0, bots=[{"seat": 1, "level": "easy"}])
    assert _ratings(client, active["id"], 409)["code"] == "match_not_finished"
    assert client.post(f"/v1/matches/{waiting['id']}/leave", headers=ana.headers).status_code == 200
    assert _ratings(client, waiting["id"], 409)["code"] == "match_not_finished"  # (cancelled)
    assert _ratings(client, "m_nobody", 404)["code"] == "match_not_found"


def _history(client: Any, player_id: str, status: int = 200, **query: Any) -> dict[str, Any]:
    answer = client.get(f"/v1/players/{player_id}/rating-history", query_string=query)
    assert answer.status_code == status, answer.get_data(as_text=True)
    return dict(answer.json)


def test_a_players_history_is_their_rated_matches_latest_first(client: Any, app: Any) -> None:
    first, (ana, bia) = resigned_match(client, 2, loser_seat=1)  # ana wins
    settle_all(app)
    second = create(client, bia, players=2, seat=0)
    assert client.post(f"/v1/matches/{second['id']}/join", json={},
                       headers=ana.headers).status_code == 200
    assert client.post(f"/v1/matches/{second['id']}/resign",
                       headers=bia.headers).status_code == 200  # ana wins again, on team 1
    unrated = create(client, ana, players=2, seat=0, seed=7)  # (fixed deals: unrated)
    assert client.post(f"/v1/matches/{unrated['id']}/join", json={},
                       headers=bia.headers).status_code == 200
    assert client.post(f"/v1/matches/{unrated['id']}/resign",
                       headers=bia.headers).status_code == 200
    assert settle_all(app) == 2
    history = _history(client, ana.id)
    assert history["format"] == "duel" and history["next_offset"] is None
    latest, earlier = history["items"]
    assert (latest["match_id"], latest["team"], latest["won"]) == (second["id"], 1, True)
    assert (earlier["match_id"], earlier["team"], earlier["won"]) == (first, 0, True)
    assert latest["before"] == earlier["after"] and earlier["before"]["rating"] == 1500.0
    assert latest["after"] == profile(client, ana.id)["ratings"]["duel"]
    assert latest["rated_at"] >= earlier["rated_at"]
    assert 0 < latest["change"] < earlier["change"]  # (the same result moves less)
    lost = _history(client, bia.id)["items"]
    assert [i["won"] for i in lost] == [False, False] and all(i["change"] < 0 for i in lost)
    # a page at a time; the other format is empty
    page = _history(client, ana.id, limit=1)
    assert page["items"] == [latest] and page["next_offset"] == 1
    assert _history(client, ana.id, limit=1, offset=1)["items"] == [earlier]
    assert _history(client, ana.id, format="teams") == {"format": "teams", "items": [],
                                                       "next_offset": None}
    assert profile(client, ana.id)["won"] == 3  # (the unrated one counted, not listed)


def test_a_history_refuses_no_player_and_bad_parameters(client: Any) -> None:
    assert _history(client, "p_nobody", 404)["code"] == "player_not_found"
    ana = register(client, "ana")
    assert _history(client, ana.id, 422, format="trios")["code"] == "validation_error"
    assert _history(client, ana.id, 422, limit=0)["code"] == "validation_error"
    assert _history(client, ana.id) == {"format": "duel", "items": [], "next_offset": None}
