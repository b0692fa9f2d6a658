"""A built-in bot beside a person leaves the team's answers to the person: it waits while
the person may still answer a raise or a mão de onze question (not due, no move), follows
the person's refusal, and plays on after the person's accept. Teams of bots only answer at
once as before."""
from __future__ import annotations

from typing import Any

from tests.support.api import (
    act_ok,
    create,
    db_scalar,
    get_view,
    join,
    register,
    run_worker,
)

FOUR = {"vira": "4d", "hands": [["5c", "3h", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                                ["Ah", "Jc", "7c"]]}

STRONG_PARTNER = {"vira": "4d", "hands": [["4c", "6h", "7s"], ["2c", "Kd", "6d"],
                                          ["5c", "5h", "3s"], ["Ah", "Jc", "7c"]]}
"""Seat 2 holds the two best manilhas: left to itself, a bot plays this mão de onze."""


def _onze(client: Any, deal: dict[str, Any] = FOUR, **body: Any) -> tuple[str, Any]:
    """ana (seat 0) and a bot partner (seat 2) on 11 against two bots: a mão de onze."""
    ana = register(client, "ana")
    bots = [{"seat": s, "level": "hard"} for s in (1, 2, 3)]
    m = create(client, ana, players=4, seat=0, bots=bots, start_score=[11, 3], deals=[deal],
               options={"first_dealer": 3}, **body)
    return m["id"], ana


def test_a_bot_partner_waits_for_the_persons_mao_de_onze_decision(client: Any,
                                                                    app: Any) -> None:
    match_id, ana = _onze(client, turn_timeout=3600)
    run_worker(app)
    view = get_view(client, match_id, ana)
    assert view["hand"]["pending"] == {"kind": "mao_de_onze", "team": 0}
    assert view["hand"]["to_act"] == [0, 2] and view["hand"]["calls"] == []
    assert db_scalar(app, "SELECT due_at = coalesce(warn_at, deadline) FROM matches WHERE id = :m",
                     m=match_id)  # due at the person's deadline, not now
    after = act_ok(client, match_id, ana, {"type": "accept"})
    assert after["hand"]["pending"] is None and after["hand"]["stake"] == 3


def test_a_bot_partner_follows_the_persons_refusal(client: Any, app: Any) -> None:
    match_id, ana = _onze(client, STRONG_PARTNER)
    view = act_ok(client, match_id, ana, {"type": "refuse"})
    assert view["hand"]["to_act"] == [2]
    assert run_worker(app) >= 1
    view = get_view(client, match_id, ana)
    assert view["last_hand"]["reason"] == "mao_de_onze_refused"
    assert [c["action"] for c in view["last_hand"]["calls"]] == ["refuse", "refuse"]
    assert view["score"][1] == 4


def test_a_bot_partner_waits_for_the_persons_answer_to_a_truco(client: Any, app: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    m = create(client, ana, players=4, seat=0, deals=[FOUR], options={"first_dealer": 0},
               bots=[{"seat": 2, "level": "hard"}, {"seat": 3, "level": "hard"}])
    assert join(client, m["id"], bia, seat=1).status_code == 200
    act_ok(client, m["id"], bia, {"type": "raise"})  # seat 1 leads the first trick
    assert run_worker(app) == 0
    view = get_view(client, m["id"], ana)
    assert view["hand"]["pending"] == {"kind": "raise", "by_seat": 1, "to": 3}
    assert view["hand"]["to_act"] == [0, 2]
    act_ok(client, m["id"], ana, {"type": "refuse"})
    run_worker(app)
    view = get_view(client, m["id"], ana)
    assert view["last_hand"]["reason"] == "raise_refused" and view["score"] == [0, 1]


def test_a_team_of_bots_answers_at_once(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=4, seat=1, start_score=[11, 3], deals=[FOUR],
               options={"first_dealer": 3},
               bots=[{"seat": s, "level": "easy"} for s in (0, 2, 3)])
    assert m["hand"]["to_act"] == [0, 2]
    run_worker(app)
    view = get_view(client, m["id"], ana)
    assert view["hand"]["number"] > 1 or view["hand"]["pending"] is None
