"""RULES.md rules that neither the §14 scenarios nor the option tests pin: trick results in
their rarer combinations, cards leaving a hand, calls right after an accepted counter-raise,
a void mão de onze, and the order of §11's rejection reasons.

Vira 4d makes the 5s the manilhas (none dealt below unless said); plain strengths are
4=1 5=2 6=3 7=4 Q=5 J=6 K=7 A=8 2=9 3=10 (RULES.md §1).
"""
from __future__ import annotations

import pytest

import engine
from tests.support.engine_steps import (assert_hand_over, assert_to_play, hand, legal, new, pub,
                                        rejected, run)

F1 = {"vira": "4d", "hands": [["5c", "3h", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                              ["Ah", "Jc", "7c"]]}
F2 = {"vira": "4d", "hands": [["3h", "Kc", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                              ["Ah", "Jc", "7c"]]}
# s0 and s1 tie every trick (vira 5c: the 6s are manilhas, none dealt).
ALL_TIED = {"vira": "5c", "hands": [["3d", "2d", "Kc"], ["3h", "2h", "Kd"], ["4c", "4d", "Qs"],
                                    ["7c", "7d", "Js"]]}
ALL_TIED_PLAY = ("s0 play 3d, s1 play 3h, s2 play 4c, s3 play 7c, "
                 "s0 play 2d, s1 play 2h, s2 play 4d, s3 play 7d, "
                 "s0 play Kc, s1 play Kd, s2 play Qs, s3 play Js")


def split_deal(s2_third: str, s3_third: str) -> dict[str, object]:
    """Trick 1: s0's 3c wins for team 0. Trick 2: s1's 3h wins for team 1. Trick 3 (s1 leads
    Kh, s0 answers Kc) is decided by the third cards of s2 and s3."""
    return {"vira": "4d", "hands": [["3c", "4c", "Kc"], ["4h", "3h", "Kh"],
                                    ["6c", "6h", s2_third], ["7c", "7h", s3_third]]}


# --- RULES.md §5: after trick 3 -------------------------------------------------------------

@pytest.mark.parametrize("s2_third, s3_third, winner", [
    ("Qs", "Jc", 0),   # X Y =: Kh (team 1) and Kc (team 0) tie; the first trick decides
    ("Qs", "Ac", 1),   # X Y Y: the third trick decides
    ("As", "Jc", 0),   # X Y X
])
def test_after_split_tricks_the_third_decides_and_a_tie_goes_to_the_first(
        s2_third: str, s3_third: str, winner: int) -> None:
    state = new(deals=[split_deal(s2_third, s3_third)])
    state = run(state, "s0 play 3c, s1 play 4h, s2 play 6c, s3 play 7c, "
                       "s0 play 4c, s1 play 3h, s2 play 6h, s3 play 7h")
    assert [t["winner_team"] for t in hand(state)["tricks"]] == [0, 1]
    assert_to_play(state, 1)
    state = run(state, f"s1 play Kh, s2 play {s2_third}, s3 play {s3_third}, s0 play Kc")
    last = pub(state)["last_hand"]
    assert last["tricks"][2]["tie"] is (s2_third == "Qs" and s3_third == "Jc")
    score = [0, 0]
    score[winner] = 1
    assert_hand_over(state, winner, 1, "tricks", score)


# --- RULES.md §4.3: a trick of face-down cards only ------------------------------------------

def test_a_trick_of_face_down_cards_only_is_a_tie() -> None:
    # 2 players, dealer 1: s0 wins trick 1 with 3c, then both play face down: a tie, so the
    # hand is X = and team 0 wins it at trick 2.
    deal = {"vira": "4d", "hands": [["3c", "4c", "6c"], ["2c", "Ah", "6h"]]}
    state = new(players=2, deals=[deal])
    state = run(state, "s0 play 3c, s1 play 2c, s0 play 4c face_down, s1 play Ah face_down")
    last = pub(state)["last_hand"]
    assert (last["tricks"][1]["tie"], last["tricks"][1]["winner_team"]) == (True, None)
    assert_hand_over(state, 0, 1, "tricks", [1, 0])


def test_four_face_down_cards_tie_and_the_first_trick_decides() -> None:
    state = new(deals=[F1])
    state = run(state, "s0 play 5c, s1 play 2c, s2 play Qd, s3 play Ah, "
                       "s0 play 6c face_down, s1 play 6d face_down, s2 play 4s face_down, "
                       "s3 play 7c face_down")
    last = pub(state)["last_hand"]
    assert last["tricks"][1]["tie"] is True
    assert_hand_over(state, 0, 1, "tricks", [1, 0])


# --- RULES.md §2.3: a played card leaves the list, the rest keep their order -------------------

def test_a_played_card_leaves_hand_cards_and_the_rest_keep_their_order() -> None:
    state = new(deals=[F1])
    state = run(state, "s0 play 3h")
    assert engine.view(state, 0)["hand"]["cards"] == ["5c", "6c"]
    state = run(state, "s1 play 2c, s2 play 4s, s3 play Ah")
    assert engine.view(state, 2)["hand"]["cards"] == ["Qd", "Js"]
    assert engine.view(state, 0)["hand"]["cards"] == ["5c", "6c"]


# --- RULES.md §6.2: calls alternate between the teams -----------------------------------------

def test_a_team_that_accepts_a_counter_raise_may_call_at_once_on_its_turn() -> None:
    # s0 calls truco, s1 answers seis, s0 accepts: the stake is 6, s0 is still to play, and
    # the last call was team 1's, so s0 may call nove straight away.
    state = new(deals=[F1])
    state = run(state, "s0 raise to 3, s1 raise to 6, s0 accept")
    assert hand(state)["stake"] == 6
    assert_to_play(state, 0)
    assert legal(state, 0) == {"play 5c", "play 3h", "play 6c", "raise to 9"}
    state = run(state, "s0 raise to 9")
    assert hand(state)["pending"] == {"kind": "raise", "by_seat": 0, "to": 9}
    assert hand(state)["to_act"] == [1, 3]


def test_the_counter_raising_team_may_not_call_again_until_the_other_team_calls() -> None:
    state = new(deals=[F1])
    state = run(state, "s0 raise to 3, s1 raise to 6, s2 accept, s0 play 5c")
    assert_to_play(state, 1)
    assert legal(state, 1) == {"play 2c", "play Kd", "play 6d"}
    rejected(state, "s1 raise", "raise_not_allowed")
    state = run(state, "s1 play 2c")
    assert "raise to 9" in legal(state, 2)


# --- RULES.md §7.4: a void mão de onze ---------------------------------------------------------

def test_a_void_mao_de_onze_scores_nothing_and_the_next_hand_is_again_a_mao_de_onze() -> None:
    state = new(deals=[ALL_TIED], start_score=[11, 5])
    state = run(state, "s0 accept")
    assert hand(state)["stake"] == 3
    state = run(state, ALL_TIED_PLAY)
    assert_hand_over(state, None, 0, "void", [11, 5])
    h = hand(state)
    assert (h["number"], h["dealer"]) == (2, 0)
    assert h["special"] == "mao_de_onze"
    assert h["pending"] == {"kind": "mao_de_onze", "team": 0}
    assert h["stake"] == 1
    assert h["to_act"] == [0, 2]


# --- RULES.md §11: the first matching line gives the reason ------------------------------------

IRON = {"deals": [F2], "start_score": [11, 11]}


@pytest.mark.parametrize("setup, before, step, reason", [
    # a play or raise by a seat other than the seat to play, before any other check
    (IRON, "", "s1 play 2c", "not_your_turn"),          # not slot_required
    (IRON, "", "s1 raise", "not_your_turn"),            # not raise_not_allowed (special hand)
    ({"deals": [F1]}, "", "s1 raise to 6", "not_your_turn"),   # not raise_not_allowed (wrong to)
    ({"deals": [F1]}, "", "s2 play Ks face_down", "not_your_turn"),
    # a pending raise comes before whose turn it is
    ({"deals": [F1]}, "s0 raise", "s2 play Qd", "raise_pending"),
    ({"deals": [F1]}, "s0 raise, s1 refuse", "s1 raise", "raise_pending"),  # refused: not in to_act
    ({"deals": [F1]}, "s0 raise, s1 refuse", "s1 play 2c", "raise_pending"),
    ({"deals": [F2], "start_score": [11, 5]}, "s0 refuse", "s0 raise", "decision_pending"),
    # slot_required, then card_not_in_hand, then face_down_not_allowed
    (IRON, "", "s0 play 2c", "slot_required"),          # not card_not_in_hand
    (IRON, "", "s0 play 3h face_down", "slot_required"),
    ({"deals": [F1]}, "", "s0 play Ks face_down", "card_not_in_hand"),  # trick 1, not in hand
    ({"deals": [F1]}, "", "s0 play slot 3 face_down", "card_not_in_hand"),
])
def test_rejection_reasons_follow_the_order_of_the_table(setup: dict[str, object], before: str,
                                                         step: str, reason: str) -> None:
    state = new(**setup)  # type: ignore[arg-type]
    if before:
        state = run(state, before)
    rejected(state, step, reason)
