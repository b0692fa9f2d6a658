"""422 illegal_action: every RULES.md §11 rejection reason over HTTP, with the caller's
`legal_actions`; a rejected action changes nothing (views, ETags, version, events, actions)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import (F1, F2, act, act_ok, action_set, assert_illegal, deal,
                               full_match, get_view, snapshot)

NORMAL = {"options": {"first_dealer": 3}, "deals": [deal(F1)]}           # s0 leads: 5c 3h 6c
ELEVEN = {"options": {"first_dealer": 3}, "deals": [deal(F2)], "start_score": [11, 5]}
IRON = {"options": {"first_dealer": 3}, "deals": [deal(F2)], "start_score": [11, 11]}

RAISE = {"type": "raise"}
ACCEPT = {"type": "accept"}
REFUSE = {"type": "refuse"}


def play(card: str, **extra: Any) -> dict[str, Any]:
    return {"type": "play", "card": card, **extra}


CASES = [
    # (id, setup, actions before, seat, rejected action, reason)
    ("play out of turn", NORMAL, [], 1, play("2c"), "not_your_turn"),
    ("raise out of turn", NORMAL, [], 1, RAISE, "not_your_turn"),
    ("partner plays out of turn", NORMAL, [], 2, play("Qd"), "not_your_turn"),
    ("accept by the raiser", NORMAL, [(0, RAISE)], 0, ACCEPT, "not_your_turn"),
    ("refuse by the raiser's partner", NORMAL, [(0, RAISE)], 2, REFUSE, "not_your_turn"),
    ("refused member answers again", NORMAL, [(0, RAISE), (1, REFUSE)], 1, ACCEPT,
     "not_your_turn"),
    ("card of another seat", NORMAL, [], 0, play("2c"), "card_not_in_hand"),
    ("card not dealt", NORMAL, [], 0, play("Ks"), "card_not_in_hand"),
    ("card already played", NORMAL, [(0, play("5c")), (1, play("2c")), (2, play("Qd")),
                                     (3, play("Ah"))], 0, play("5c"), "card_not_in_hand"),
    ("slot out of range", NORMAL, [], 0, {"type": "play", "slot": 3}, "card_not_in_hand"),
    ("negative slot", NORMAL, [], 0, {"type": "play", "slot": -1}, "card_not_in_hand"),
    ("play while a raise is pending", NORMAL, [(0, RAISE)], 0, play("5c"), "raise_pending"),
    ("raise by a non-answerer while pending", NORMAL, [(0, RAISE)], 2, RAISE, "raise_pending"),
    ("answerer plays instead of answering", NORMAL, [(0, RAISE)], 1, play("2c"),
     "raise_pending"),
    ("raise to a wrong value", NORMAL, [], 0, {"type": "raise", "to": 6}, "raise_not_allowed"),
    ("counter-raise to a wrong value", NORMAL, [(0, RAISE)], 1, {"type": "raise", "to": 12},
     "raise_not_allowed"),
    ("same team raises twice", NORMAL, [(0, RAISE), (1, ACCEPT), (0, play("5c")),
                                        (1, play("2c"))], 2, RAISE, "raise_not_allowed"),
    ("raise in a mão de onze", ELEVEN, [(0, REFUSE), (2, ACCEPT)], 0, RAISE,
     "raise_not_allowed"),
    ("opponent raises in a mão de onze", ELEVEN, [(0, ACCEPT), (0, play("3h"))], 1, RAISE,
     "raise_not_allowed"),
    ("raise in a mão de ferro", IRON, [], 0, RAISE, "raise_not_allowed"),
    ("face down in trick 1", NORMAL, [], 0, play("6c", face_down=True),
     "face_down_not_allowed"),
    ("face down in a mão de ferro", IRON, [(0, {"type": "play", "slot": 0}),
                                           (1, {"type": "play", "slot": 0}),
                                           (2, {"type": "play", "slot": 0}),
                                           (3, {"type": "play", "slot": 0})],
     0, {"type": "play", "slot": 0, "face_down": True}, "face_down_not_allowed"),
    ("accept with nothing pending", NORMAL, [], 0, ACCEPT, "nothing_to_answer"),
    ("refuse with nothing pending", NORMAL, [], 0, REFUSE, "nothing_to_answer"),
    ("accept by a waiting seat, nothing pending", NORMAL, [], 2, ACCEPT, "nothing_to_answer"),
    ("play before the mão de onze decision", ELEVEN, [], 0, play("3h"), "decision_pending"),
    ("opponent plays during the decision", ELEVEN, [], 1, play("2c"), "decision_pending"),
    ("card named in a blind hand", IRON, [], 0, play("3h"), "slot_required"),
    ("slot out of range in a blind hand", IRON, [], 0, {"type": "play", "slot": 3},
     "card_not_in_hand"),
]


@pytest.mark.parametrize(("setup", "before", "seat", "action", "reason"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_illegal_action(client: Any, app: Any, setup: dict[str, Any],
                        before: list[tuple[int, dict[str, Any]]], seat: int,
                        action: dict[str, Any], reason: str) -> None:
    match_id, seated = full_match(client, players=4, **setup)
    for s, a in before:
        act_ok(client, match_id, seated[s], a)
    viewers = [None, *seated]
    snap = snapshot(client, app, match_id, viewers)
    expected_legal = get_view(client, match_id, seated[seat])["legal_actions"]

    body = assert_illegal(act(client, match_id, seated[seat], action), reason)
    assert body["legal_actions"] == expected_legal
    assert snapshot(client, app, match_id, viewers) == snap


def test_legal_actions_in_the_problem_are_the_callers(client: Any) -> None:
    """The seat to act gets its own list back; a waiting seat gets an empty one."""
    match_id, seated = full_match(client, players=4, **NORMAL)
    own = assert_illegal(act(client, match_id, seated[0], play("2c")), "card_not_in_hand")
    assert action_set(own["legal_actions"]) == action_set([
        play("5c"), play("3h"), play("6c"), {"type": "raise", "to": 3}])
    waiting = assert_illegal(act(client, match_id, seated[3], play("Ah")), "not_your_turn")
    assert waiting["legal_actions"] == []


def test_a_rejection_does_not_block_the_next_action(client: Any) -> None:
    match_id, seated = full_match(client, players=4, **NORMAL)
    assert_illegal(act(client, match_id, seated[0], play("6c", face_down=True)),
                   "face_down_not_allowed")
    view = act_ok(client, match_id, seated[0], play("6c"))
    assert view["hand"]["tricks"][0]["plays"] == [{"seat": 0, "card": "6c", "face_down": False}]


def test_raise_with_the_right_to_is_accepted(client: Any) -> None:
    match_id, seated = full_match(client, players=4, **NORMAL)
    view = act_ok(client, match_id, seated[0], {"type": "raise", "to": 3})
    assert view["hand"]["pending"] == {"kind": "raise", "by_seat": 0, "to": 3}
    assert view["hand"]["to_act"] == [1, 3]
    assert view["legal_actions"] == []
    answer = get_view(client, match_id, seated[1])["legal_actions"]
    assert action_set(answer) == action_set([ACCEPT, REFUSE, {"type": "raise", "to": 6}])
