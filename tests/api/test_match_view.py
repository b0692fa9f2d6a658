"""GET /v1/matches/{id}: the fields of API.md's match view, for a player and a spectator."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import F1, act_ok, assert_problem, deal, full_match, get_view, register

VIEW_FIELDS = {"id", "ruleset", "players", "target_score", "status", "version", "fixed_deals",
               "turn_timeout", "deadline", "seats", "score", "games", "winner_team", "you",
               "hand", "last_hand", "legal_actions", "rules"}
HAND_FIELDS = {"number", "dealer", "vira", "manilhas", "cards", "partner_cards", "stake",
               "special", "pending", "tricks", "to_act"}


def test_player_view_fields(client: Any) -> None:
    match_id, seated = full_match(client, players=4, options={"first_dealer": 3},
                                  deals=[deal(F1)])
    view = get_view(client, match_id, seated[0])
    assert VIEW_FIELDS <= set(view)
    assert HAND_FIELDS <= set(view["hand"])
    assert view["id"] == match_id and view["status"] == "active"
    assert view["score"] == [0, 0] and view["games"] == [0, 0] and view["winner_team"] is None
    assert view["you"] == {"seat": 0, "team": 0}
    assert view["last_hand"] is None
    hand = view["hand"]
    assert hand["number"] == 1 and hand["dealer"] == 3 and hand["vira"] == "4d"
    assert hand["manilhas"] == ["5c", "5h", "5s", "5d"]  # strongest first
    assert hand["cards"] == ["5c", "3h", "6c"]
    assert hand["stake"] == 1 and hand["special"] is None and hand["pending"] is None
    assert hand["tricks"] == [] and hand["to_act"] == [0]
    assert [(s["seat"], s["team"], s["player"]["id"], s["bot_level"], s["cards_in_hand"])
            for s in view["seats"]] == [(i, i % 2, p.id, None, 3) for i, p in enumerate(seated)]
    assert "token" not in str(view["seats"])


def test_last_hand_after_a_refused_truco(client: Any) -> None:
    match_id, seated = full_match(client, players=4, options={"first_dealer": 3},
                                  deals=[deal(F1)])
    act_ok(client, match_id, seated[0], {"type": "raise"})
    act_ok(client, match_id, seated[1], {"type": "refuse"})
    view = act_ok(client, match_id, seated[3], {"type": "refuse"})
    assert view["last_hand"] == {"number": 1, "winner_team": 0, "points": 1,
                                 "reason": "raise_refused", "tricks": [],
                                 "calls": [{"seat": 0, "action": "raise", "to": 3},
                                           {"seat": 1, "action": "refuse"},
                                           {"seat": 3, "action": "refuse"}]}
    assert view["hand"]["calls"] == []
    assert view["score"] == [1, 0]
    assert view["hand"]["number"] == 2 and view["hand"]["dealer"] == 0
    assert view["hand"]["to_act"] == [1]


def test_spectator_view(client: Any) -> None:
    match_id, _ = full_match(client, players=2)
    for viewer in (None, register(client, "eve")):
        view = get_view(client, match_id, viewer)
        assert VIEW_FIELDS <= set(view)
        assert view["you"] is None and view["legal_actions"] == []
        assert view["hand"]["cards"] is None and view["hand"]["partner_cards"] is None


def test_unknown_match_is_404(client: Any) -> None:
    assert_problem(client.get("/v1/matches/m_nope"), 404, "match_not_found")
    ana = register(client, "ana")
    assert_problem(client.get("/v1/matches/m_nope", headers=ana.headers), 404,
                   "match_not_found")


@pytest.mark.parametrize("query", ["?wait=61", "?wait=-1", "?wait=soon"])
def test_bad_wait_is_422(client: Any, query: str) -> None:
    match_id, _ = full_match(client, players=2)
    body = assert_problem(client.get(f"/v1/matches/{match_id}{query}"), 422, "validation_error")
    assert "wait" in body["errors"]
