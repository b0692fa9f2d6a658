"""GET /v1/leaderboard: players with a rated match in the format, best first, paged, with or
without bots; bad parameters are 422."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import (assert_problem, create, db_execute, register, resigned_match,
                               settle_all)


def _board(client: Any, query: str = "") -> dict[str, Any]:
    r = client.get(f"/v1/leaderboard{query}")
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.json


def _duel(client: Any, winner: Any, loser: Any) -> None:
    m = create(client, winner, players=2, seat=0)
    assert client.post(f"/v1/matches/{m['id']}/join", json={},
                       headers=loser.headers).status_code == 200
    assert client.post(f"/v1/matches/{m['id']}/resign", headers=loser.headers).status_code == 200


def test_the_board_lists_rated_players_best_first(client: Any, app: Any) -> None:
    ana, bia, caio = (register(client, n) for n in ("ana", "bia", "caio"))
    register(client, "davi")  # never rated: not listed
    _duel(client, ana, bia)
    _duel(client, ana, caio)
    _duel(client, bia, caio)
    settle_all(app)
    board = _board(client, "?format=duel")
    assert [i["player"]["id"] for i in board["items"]] == [ana.id, bia.id, caio.id]
    assert [i["rank"] for i in board["items"]] == [1, 2, 3]
    ratings = [i["rating"] for i in board["items"]]
    assert ratings == sorted(ratings, reverse=True) and ratings[0] > 1500 > ratings[2]
    first = board["items"][0]
    assert first["player"] == {"id": ana.id, "name": "ana", "handle": None, "bot": False}
    assert first["rated_matches"] == 2 and first["provisional"] is True
    assert board["next_offset"] is None
    assert _board(client) == board  # duel by default
    assert _board(client, "?format=teams")["items"] == []


def test_pages_follow_each_other_without_gaps(client: Any, app: Any) -> None:
    players = [register(client, f"p{i}") for i in range(7)]
    for winner, loser in zip(players, players[1:]):
        _duel(client, winner, loser)
    settle_all(app)
    whole = _board(client, "?limit=100")["items"]
    assert len(whole) == 7
    seen, offset = [], 0
    while offset is not None:
        page = _board(client, f"?limit=3&offset={offset}")
        assert len(page["items"]) <= 3
        seen += page["items"]
        offset = page["next_offset"]
    assert seen == whole
    assert [i["rank"] for i in seen] == list(range(1, 8))
    assert _board(client, "?offset=50")["items"] == []


def test_teams_and_the_bots_filter(client: Any, app: Any) -> None:
    resigned_match(client, 4, loser_seat=1)
    ana = register(client, "ana")
    m = create(client, ana, players=2, seat=0, bots=[{"seat": 1, "level": "hard"}])
    assert client.post(f"/v1/matches/{m['id']}/resign", headers=ana.headers).status_code == 200
    settle_all(app)
    assert len(_board(client, "?format=teams")["items"]) == 4
    duel = _board(client, "?format=duel&bots=true")["items"]
    assert [(i["player"]["id"], i["player"]["bot"]) for i in duel] == \
        [("p_level_hard", True), (ana.id, False)]
    assert duel[0]["player"]["handle"] == "bot-hard"
    people = _board(client, "?format=duel&bots=false")["items"]
    assert [(i["player"]["id"], i["rank"]) for i in people] == [(ana.id, 1)]


@pytest.mark.parametrize("query", ["?format=chess", "?bots=maybe", "?bots=1", "?limit=0",
                                   "?limit=101", "?offset=-1", "?limit=ten", "?offset=1e3"])
def test_bad_parameters_are_422(client: Any, query: str) -> None:
    assert_problem(client.get(f"/v1/leaderboard{query}"), 422, "validation_error")


def test_an_exact_tie_goes_to_more_rated_matches_then_the_id(client: Any, app: Any) -> None:
    """Two new winners of one duel each against new players have the very same rating: the
    smaller id first; a player with the same mean after more matches comes before both."""
    a, b, c, d = (register(client, n) for n in ("a", "b", "c", "d"))
    _duel(client, a, b)
    _duel(client, c, d)
    settle_all(app)
    items = _board(client)["items"]
    assert [i["rank"] for i in items] == [1, 2, 3, 4]
    winners, losers = sorted([a.id, c.id]), sorted([b.id, d.id])
    assert [i["player"]["id"] for i in items] == winners + losers
    assert items[0]["rating"] == items[1]["rating"] and items[2]["rating"] == items[3]["rating"]
    # the same mean after two matches (a rating written as it is)
    db_execute(app, "UPDATE ratings SET rated_matches = 2 WHERE player_id = :p", p=winners[1])
    items = _board(client)["items"]
    assert [i["player"]["id"] for i in items][:2] == [winners[1], winners[0]]
