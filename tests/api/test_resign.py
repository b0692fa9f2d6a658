"""POST /v1/matches/{id}/resign: the caller's team concedes; the other team wins."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import (assert_problem, create, db_rows, full_match, get_events,
                               get_view, register)


@pytest.mark.parametrize(("players", "resigner"), [(2, 0), (2, 1), (4, 2), (6, 3)])
def test_resign_makes_the_other_team_win(client: Any, players: int, resigner: int) -> None:
    match_id, seated = full_match(client, players=players)
    version = get_view(client, match_id)["version"]
    r = client.post(f"/v1/matches/{match_id}/resign", headers=seated[resigner].headers)
    assert r.status_code == 200
    view = r.json
    assert view["status"] == "finished"
    assert view["winner_team"] == 1 - resigner % 2
    assert view["you"] == {"seat": resigner, "team": resigner % 2}
    assert view["legal_actions"] == []
    assert view["version"] > version
    assert r.headers["ETag"]
    for p in seated:
        other = get_view(client, match_id, p)
        assert other["status"] == "finished" and other["winner_team"] == 1 - resigner % 2
        assert other["legal_actions"] == []
    events = get_events(client, match_id)
    resigned = [e for e in events if e["type"] == "player_resigned"]
    assert len(resigned) == 1 and resigned[0]["seat"] == resigner
    assert events[-2]["type"] == "match_won" and events[-2]["winner_team"] == 1 - resigner % 2
    assert events[-1]["type"] == "deals_revealed"  # the log's last event


def test_actions_after_resigning_are_409(client: Any, app: Any) -> None:
    match_id, (ana, bob) = full_match(client, players=2)
    client.post(f"/v1/matches/{match_id}/resign", headers=ana.headers)
    n = len(db_rows(app, "SELECT n FROM actions WHERE match_id = :m", m=match_id))
    for p in (ana, bob):
        for action in ({"type": "raise"}, {"type": "accept"}, {"type": "play", "slot": 0}):
            r = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=p.headers)
            assert_problem(r, 409, "match_not_active")
        assert_problem(client.post(f"/v1/matches/{match_id}/resign", headers=p.headers),
                       409, "match_not_active")
    assert len(db_rows(app, "SELECT n FROM actions WHERE match_id = :m", m=match_id)) == n


def test_resign_before_the_start_is_409(client: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana)
    assert_problem(client.post(f"/v1/matches/{m['id']}/resign", headers=ana.headers),
                   409, "match_not_active")
    assert get_view(client, m["id"])["status"] == "waiting"


def test_resign_needs_a_seat(client: Any) -> None:
    match_id, _ = full_match(client, players=2)
    eve = register(client, "eve")
    assert_problem(client.post(f"/v1/matches/{match_id}/resign", headers=eve.headers),
                   403, "not_a_player")
    assert get_view(client, match_id)["status"] == "active"
    assert_problem(client.post("/v1/matches/m_nope/resign", headers=eve.headers),
                   404, "match_not_found")
