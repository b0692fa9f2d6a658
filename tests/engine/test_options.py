"""Every ruleset option of RULES.md §12, pinned with fixed deals so each outcome is exact.

Steps are written in RULES.md §14's notation: ``"s0 raise to 3, s1 accept, s0 play 5c"``.
Vira 4d makes the 5s the manilhas (5c zap 14, 5h 13, 5s 12, 5d 11); plain strengths are
4=1 5=2 6=3 7=4 Q=5 J=6 K=7 A=8 2=9 3=10 (RULES.md §1).
"""
from __future__ import annotations

import pytest

import engine
from tests.support.engine_steps import (assert_active, assert_hand_over, assert_match_over,
                                        assert_to_play, hand, legal, new, pub, rejected, run,
                                        run_events)

# --- deals (RULES.md §14; hands by seat, in slot order) -------------------------------------

F1 = {"vira": "4d", "hands": [["5c", "3h", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                              ["Ah", "Jc", "7c"]]}
F2 = {"vira": "4d", "hands": [["3h", "Kc", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                              ["Ah", "Jc", "7c"]]}
F3 = {"vira": None, "hands": [["7c", "As", "5d"], ["7s", "3c", "6h"], ["4h", "Kd", "Qd"],
                              ["5c", "Jd", "6c"]]}
F4 = {"vira": "4d", "hands": [["6c", "Ah", "5h"], ["2c", "Kc", "7c"], ["Kd", "3s", "Qc"],
                              ["Qh", "3d", "4c"], ["2s", "7h", "Js"], ["Jc", "6d", "4h"]]}
# trick 1 tied by 3c (s1) and 3h (s2); s0 holds Ah > Kd for trick 2.
TIED_FIRST = {"vira": "4d", "hands": [["6c", "Ah", "Kd"], ["3c", "Kh", "6d"], ["3h", "Qd", "Jc"],
                                      ["2s", "Qs", "7d"]]}
# Like TIED_FIRST, but s3 keeps two equal strongest cards (Qs, Qh) for trick 2.
TIED_FIRST_EQUAL = {"vira": "4d", "hands": [["6c", "Ah", "Kd"], ["3c", "Kh", "6d"],
                                            ["3h", "Qd", "Jc"], ["2s", "Qs", "Qh"]]}
# s0 and s1 tie every trick (vira 5c: the 6s are manilhas, none dealt).
ALL_TIED = {"vira": "5c", "hands": [["3d", "2d", "Kc"], ["3h", "2h", "Kd"], ["4c", "4d", "Qs"],
                                    ["7c", "7d", "Js"]]}
# Tie leaders: trick 1 tied by s1 (3c) and s2 (3h) with s0 leading; then 2c/2h and 6c/6h.
TIE_LEADERS = {"vira": "4d", "hands": [["4c", "2c", "Kc"], ["3c", "6c", "Qc"], ["3h", "6h", "Jc"],
                                       ["4h", "2h", "7c"]]}
# The seat holding 5c and 5h wins two tricks whoever leads.
SEAT1_STRONG = {"vira": "4d", "hands": [["4c", "6c", "7c"], ["5c", "5h", "3c"], ["4h", "6h", "7h"],
                                        ["Qc", "Jc", "Kc"]]}
SEAT2_STRONG = {"vira": "4d", "hands": [["4c", "6c", "7c"], ["4h", "6h", "7h"], ["5c", "5h", "3c"],
                                        ["Qc", "Jc", "Kc"]]}
TWO_PLAYERS = {"vira": "4d", "hands": [["3h", "Kc", "6c"], ["2c", "Kd", "6d"]]}


# --- tie_leader (RULES.md §4.4) --------------------------------------------------------------

TRICK1_TIE = "s0 play 4c, s1 play 3c, s2 play 3h, s3 play 4h"


@pytest.mark.parametrize("rule", ["trick_leader", "hand_mao"])
def test_tie_leader_trick_leader_and_hand_mao_give_the_mao(rule: str) -> None:
    # §4.4: the seat that led the tied trick / the mão; under either every tie that does not
    # end the hand is led by the mão, so both give s0 here, never s1 (the first tied card).
    state = new(deals=[TIE_LEADERS], tie_leader=rule)
    state = run(state, TRICK1_TIE)
    assert hand(state)["tricks"][0]["tie"] is True
    assert_to_play(state, 0)
    # Trick 2 led by s0, tied by s3 (2h) and s0 (2c): s0 (leader and mão) leads again.
    state = run(state, "s0 play 2c, s1 play 6c, s2 play 6h, s3 play 2h")
    assert hand(state)["tricks"][1]["tie"] is True
    assert_to_play(state, 0)
    state = run(state, "s0 play Kc, s1 play Qc, s2 play Jc, s3 play 7c")
    assert_hand_over(state, 0, 1, "tricks", [1, 0])


def test_tie_leader_first_tied_card_gives_the_earliest_tied_seat() -> None:
    state = new(deals=[TIE_LEADERS], tie_leader="first_tied_card")
    state = run(state, TRICK1_TIE)
    assert hand(state)["tricks"][0]["tie"] is True
    # W = {s1, s2}; s1 played first of them -- not the leader s0, not the mão.
    assert_to_play(state, 1)
    rejected(state, "s0 play 2c", "not_your_turn")
    # Trick 2 led by s1: 6c, 6h, then s3 2h and s0 2c tie. s3 played earlier in the trick
    # than s0 (the lower seat number), so s3 leads trick 3.
    state = run(state, "s1 play 6c, s2 play 6h, s3 play 2h, s0 play 2c")
    assert hand(state)["tricks"][1]["tie"] is True
    assert_to_play(state, 3)
    state = run(state, "s3 play 7c, s0 play Kc, s1 play Qc, s2 play Jc")
    assert_hand_over(state, 0, 1, "tricks", [1, 0])


def test_tie_leader_first_tied_card_when_the_mao_is_not_seat_0() -> None:
    # Dealer 1, mão s2: play order s2 s3 s0 s1. 3c (s3) and 3h (s0) tie: s3 played first.
    deal = {"vira": "4d", "hands": [["3h", "2c", "Kc"], ["4h", "6c", "Qc"], ["4c", "6h", "Jc"],
                                    ["3c", "2h", "7c"]]}
    for rule, leader in (("first_tied_card", 3), ("trick_leader", 2), ("hand_mao", 2)):
        state = new(deals=[deal], first_dealer=1, tie_leader=rule)
        state = run(state, "s2 play 4c, s3 play 3c, s0 play 3h, s1 play 4h")
        assert hand(state)["tricks"][0]["tie"] is True
        assert_to_play(state, leader)


@pytest.mark.parametrize("rule", ["trick_leader", "first_tied_card", "hand_mao"])
def test_won_trick_leader_is_the_earliest_winning_seat_whatever_tie_leader(rule: str) -> None:
    # Dealer 0, mão s1: s2 (3s) and s0 (3h) share the top for team 0; s2 played first.
    deal = {"vira": "4d", "hands": [["3h", "2c", "Kc"], ["4h", "6c", "Qc"], ["3s", "6h", "Jc"],
                                    ["4c", "2h", "7c"]]}
    state = new(deals=[deal], first_dealer=0, tie_leader=rule)
    state = run(state, "s1 play 4h, s2 play 3s, s3 play 4c, s0 play 3h")
    assert hand(state)["tricks"][0]["winner_team"] == 0
    assert hand(state)["tricks"][0]["tie"] is False
    assert_to_play(state, 2)


# --- all_ties (RULES.md §5) ------------------------------------------------------------------

THREE_TIES = ("s0 play 3d, s1 play 3h, s2 play 4c, s3 play 7c, "
              "s0 play 2d, s1 play 2h, s2 play 4d, s3 play 7d, "
              "s0 play Kc, s1 play Kd, s2 play Qs, s3 play Js")


def test_all_ties_void_scores_nothing_even_after_a_truco() -> None:
    state = new(deals=[ALL_TIED], all_ties="void")
    state = run(state, "s0 raise to 3, s1 accept")
    assert hand(state)["stake"] == 3
    state, events = run_events(state, THREE_TIES)
    assert_hand_over(state, None, 0, "void", [0, 0])
    assert [e for e in events if e["type"] == "hand_won"][0]["winner_team"] is None
    assert_active(state)
    assert hand(state)["dealer"] == 0
    assert hand(state)["number"] == 2
    assert_to_play(state, 1)


def test_all_ties_void_is_the_default() -> None:
    state = new(deals=[ALL_TIED])
    state = run(state, THREE_TIES)
    assert_hand_over(state, None, 0, "void", [0, 0])


def test_all_ties_mao_team_scores_the_stake_for_the_mao_team() -> None:
    state = new(deals=[ALL_TIED], all_ties="mao_team")
    state = run(state, "s0 raise to 3, s1 accept")
    state = run(state, THREE_TIES)
    last = pub(state)["last_hand"]
    assert (last["winner_team"], last["points"]) == (0, 3)
    assert last["reason"] != "void"
    assert pub(state)["score"] == [3, 0]
    assert hand(state)["dealer"] == 0


def test_all_ties_mao_team_when_the_mao_is_on_team_1() -> None:
    # Dealer 0: s1 is the mão and leads every (tied) trick; team 1 scores, not team 0.
    state = new(deals=[ALL_TIED], first_dealer=0, all_ties="mao_team")
    state = run(state, "s1 play 3h, s2 play 4c, s3 play 7c, s0 play 3d, "
                       "s1 play 2h, s2 play 4d, s3 play 7d, s0 play 2d, "
                       "s1 play Kd, s2 play Qs, s3 play Js, s0 play Kc")
    last = pub(state)["last_hand"]
    assert (last["winner_team"], last["points"]) == (1, 1)
    assert last["reason"] != "void"
    assert pub(state)["score"] == [0, 1]


# --- response_mode (RULES.md §6.4, §7.3) ----------------------------------------------------

def test_any_accept_all_refuse_to_act_shrinks_and_one_accept_binds() -> None:
    state = new(deals=[F1])
    state = run(state, "s0 raise to 3")
    assert hand(state)["pending"] == {"kind": "raise", "by_seat": 0, "to": 3}
    assert hand(state)["to_act"] == [1, 3]
    state = run(state, "s3 refuse")
    assert hand(state)["pending"] == {"kind": "raise", "by_seat": 0, "to": 3}
    assert hand(state)["to_act"] == [1]
    assert legal(state, 3) == set()
    assert legal(state, 1) == {"accept", "refuse", "raise to 6"}
    rejected(state, "s3 accept", "not_your_turn")
    rejected(state, "s3 refuse", "not_your_turn")
    state = run(state, "s1 accept")
    assert hand(state)["stake"] == 3
    assert_to_play(state, 0)


def test_any_accept_all_refuse_needs_every_member_to_refuse() -> None:
    state = new(deals=[F1])
    state = run(state, "s0 raise to 3, s1 refuse")
    assert pub(state)["last_hand"] is None
    state = run(state, "s3 refuse")
    assert_hand_over(state, 0, 1, "raise_refused", [1, 0])


def test_any_accept_all_refuse_counter_raise_forgets_refusals() -> None:
    state = new(deals=[F1])
    state = run(state, "s0 raise to 3, s1 refuse, s3 raise to 6")
    assert hand(state)["stake"] == 3
    assert hand(state)["pending"] == {"kind": "raise", "by_seat": 3, "to": 6}
    assert hand(state)["to_act"] == [0, 2]
    state = run(state, "s0 refuse, s2 raise to 9")
    assert hand(state)["stake"] == 6
    assert hand(state)["to_act"] == [1, 3]  # s1's earlier refusal is forgotten
    state = run(state, "s3 refuse, s1 refuse")
    assert_hand_over(state, 0, 6, "raise_refused", [6, 0])


def test_any_accept_all_refuse_six_players() -> None:
    state = new(players=6, deals=[F4])
    state = run(state, "s0 raise to 3")
    assert hand(state)["to_act"] == [1, 3, 5]
    state = run(state, "s3 refuse")
    assert hand(state)["to_act"] == [1, 5]
    state = run(state, "s1 refuse")
    assert hand(state)["to_act"] == [5]
    state = run(state, "s5 refuse")
    assert_hand_over(state, 0, 1, "raise_refused", [1, 0])


def test_first_response_all_members_answer_and_one_refusal_ends() -> None:
    state = new(deals=[F1], response_mode="first_response")
    state = run(state, "s0 raise to 3")
    assert hand(state)["to_act"] == [1, 3]
    assert legal(state, 1) == legal(state, 3) == {"accept", "refuse", "raise to 6"}
    state = run(state, "s3 refuse")
    assert_hand_over(state, 0, 1, "raise_refused", [1, 0])
    assert hand(state)["dealer"] == 0


def test_first_response_one_accept_binds() -> None:
    state = new(deals=[F1], response_mode="first_response")
    state = run(state, "s0 raise to 3, s3 accept")
    assert hand(state)["stake"] == 3
    assert_to_play(state, 0)


def test_first_response_counter_raise_then_refusal() -> None:
    state = new(deals=[F1], response_mode="first_response")
    state = run(state, "s0 raise to 3, s1 raise to 6")
    assert hand(state)["stake"] == 3
    assert hand(state)["to_act"] == [0, 2]
    state = run(state, "s2 refuse")
    assert_hand_over(state, 1, 3, "raise_refused", [0, 3])


def test_first_response_six_players() -> None:
    state = new(players=6, deals=[F4], response_mode="first_response")
    state = run(state, "s0 raise to 3")
    assert hand(state)["to_act"] == [1, 3, 5]
    state = run(state, "s5 refuse")
    assert_hand_over(state, 0, 1, "raise_refused", [1, 0])


def test_designated_only_the_seat_after_the_caller_answers() -> None:
    state = new(deals=[F1], response_mode="designated")
    state = run(state, "s0 raise to 3")
    assert hand(state)["to_act"] == [1]
    assert legal(state, 3) == set()
    assert legal(state, 1) == {"accept", "refuse", "raise to 6"}
    rejected(state, "s3 accept", "not_your_turn")
    rejected(state, "s3 refuse", "not_your_turn")
    state = run(state, "s1 refuse")
    assert_hand_over(state, 0, 1, "raise_refused", [1, 0])


def test_designated_counter_raises_pass_the_answer_on() -> None:
    state = new(deals=[F1], response_mode="designated")
    state = run(state, "s0 raise to 3, s1 raise to 6")
    assert hand(state)["to_act"] == [2]
    state = run(state, "s2 raise to 9")
    assert hand(state)["to_act"] == [3]
    state = run(state, "s3 accept")
    assert hand(state)["stake"] == 9
    assert_to_play(state, 0)


def test_designated_wraps_round_from_the_last_seat() -> None:
    state = new(deals=[F1], response_mode="designated")
    state = run(state, "s0 play 5c, s1 play 2c, s2 play Qd, s3 raise to 3")
    assert hand(state)["to_act"] == [0]
    state = run(state, "s0 accept")
    assert hand(state)["stake"] == 3
    assert_to_play(state, 3)


def test_designated_six_players() -> None:
    state = new(players=6, deals=[F4], response_mode="designated")
    state = run(state, "s0 raise to 3")
    assert hand(state)["to_act"] == [1]
    state = run(state, "s1 raise to 6, s2 raise to 9")
    assert hand(state)["to_act"] == [3]
    state = run(state, "s3 refuse")
    assert_hand_over(state, 0, 6, "raise_refused", [6, 0])


@pytest.mark.parametrize("mode", ["any_accept_all_refuse", "first_response", "designated"])
def test_two_players_every_mode_is_the_same(mode: str) -> None:
    state = new(players=2, deals=[TWO_PLAYERS], response_mode=mode)
    state = run(state, "s0 raise to 3")
    assert hand(state)["to_act"] == [1]
    state = run(state, "s1 refuse")
    assert_hand_over(state, 0, 1, "raise_refused", [1, 0])


@pytest.mark.parametrize("mode", ["any_accept_all_refuse", "first_response", "designated"])
def test_two_players_mao_de_onze_every_mode(mode: str) -> None:
    state = new(players=2, deals=[TWO_PLAYERS], start_score=[11, 0], response_mode=mode)
    assert hand(state)["to_act"] == [0]
    state = run(state, "s0 refuse")
    assert_hand_over(state, 1, 1, "mao_de_onze_refused", [11, 1])


def test_mao_de_onze_any_accept_all_refuse() -> None:
    state = new(deals=[F2], start_score=[11, 5])
    assert hand(state)["to_act"] == [0, 2]
    state = run(state, "s2 refuse")
    assert hand(state)["pending"] == {"kind": "mao_de_onze", "team": 0}
    assert hand(state)["to_act"] == [0]
    rejected(state, "s2 accept", "not_your_turn")
    state = run(state, "s0 accept")
    assert hand(state)["stake"] == 3
    assert_to_play(state, 0)


def test_mao_de_onze_first_response_one_refusal_gives_up() -> None:
    state = new(deals=[F2], start_score=[11, 5], response_mode="first_response")
    assert hand(state)["to_act"] == [0, 2]
    assert legal(state, 2) == {"accept", "refuse"}
    state = run(state, "s2 refuse")
    assert_hand_over(state, 1, 1, "mao_de_onze_refused", [11, 6])
    assert pub(state)["last_hand"]["tricks"] == []


def test_mao_de_onze_first_response_one_accept_plays() -> None:
    state = new(deals=[F2], start_score=[11, 5], response_mode="first_response")
    state = run(state, "s2 accept")
    assert hand(state)["stake"] == 3
    assert_to_play(state, 0)


@pytest.mark.parametrize("players, dealer, start, decider", [
    (4, 3, [11, 5], 0),   # mão s0, team 0: s0
    (4, 0, [11, 5], 2),   # mão s1, team 0: s2 (not s0)
    (4, 3, [5, 11], 1),   # mão s0, team 1: s1
    (4, 1, [5, 11], 3),   # mão s2, team 1: s3 (not s1)
    (6, 2, [11, 0], 4),   # mão s3, team 0: s4
    (6, 4, [0, 11], 5),   # mão s5, team 1: s5
    (6, 5, [0, 11], 1),   # mão s0, team 1: s1
    (6, 0, [11, 0], 2),   # mão s1, team 0: s2
])
def test_mao_de_onze_designated_first_seat_of_the_team_from_the_mao(
        players: int, dealer: int, start: list[int], decider: int) -> None:
    state = new(players=players, start_score=start, first_dealer=dealer,
                response_mode="designated")
    assert hand(state)["special"] == "mao_de_onze"
    assert hand(state)["to_act"] == [decider]
    assert legal(state, decider) == {"accept", "refuse"}
    for seat in range(players):
        if seat != decider:
            assert legal(state, seat) == set()
    team = start.index(11)
    gave_up = run(state, f"s{decider} refuse")
    score = list(start)
    score[1 - team] += 1
    assert_hand_over(gave_up, 1 - team, 1, "mao_de_onze_refused", score)
    played = run(state, f"s{decider} accept")
    assert hand(played)["stake"] == 3
    assert_to_play(played, (dealer + 1) % players)


# --- raise_cap (RULES.md §6.5) ---------------------------------------------------------------

def test_no_raise_if_accept_wins_counter_raise_uses_the_pending_to() -> None:
    state = new(deals=[F1], start_score=[9, 2], raise_cap="no_raise_if_accept_wins")
    assert "raise to 3" in legal(state, 0)  # 9 + 1 < 12
    state = run(state, "s0 raise to 3")
    assert legal(state, 1) == {"accept", "refuse", "raise to 6"}  # 2 + 3 < 12
    state = run(state, "s1 raise to 6")
    # Team 0 would play for 6: 9 + 6 >= 12.
    assert legal(state, 0) == {"accept", "refuse"}
    assert legal(state, 2) == {"accept", "refuse"}
    rejected(state, "s0 raise", "raise_not_allowed")
    rejected(state, "s2 raise to 9", "raise_not_allowed")
    state = run(state, "s2 accept")
    assert hand(state)["stake"] == 6


def test_no_raise_if_accept_wins_counter_raise_counts_the_pending_to_not_the_stake() -> None:
    # Team 1 on 9 answers a truco: it would play for 3 (9 + 3 >= 12), although the stake is 1.
    state = new(deals=[F1], start_score=[0, 9], raise_cap="no_raise_if_accept_wins")
    state = run(state, "s0 raise to 3")
    assert hand(state)["stake"] == 1
    assert legal(state, 1) == {"accept", "refuse"}
    assert legal(state, 3) == {"accept", "refuse"}
    rejected(state, "s1 raise", "raise_not_allowed")
    rejected(state, "s3 raise to 6", "raise_not_allowed")
    ladder = run(new(deals=[F1], start_score=[0, 9]), "s0 raise to 3")
    assert legal(ladder, 1) == {"accept", "refuse", "raise to 6"}


def test_ladder_allows_the_same_counter_raise() -> None:
    state = new(deals=[F1], start_score=[9, 2], raise_cap="ladder")
    state = run(state, "s0 raise to 3, s1 raise to 6")
    assert legal(state, 0) == {"accept", "refuse", "raise to 9"}


def test_no_raise_if_accept_wins_call_on_turn_uses_the_stake() -> None:
    state = new(deals=[F1], start_score=[9, 0], raise_cap="no_raise_if_accept_wins")
    state = run(state, "s0 play 5c, s1 raise to 3, s2 accept, s1 play 2c")
    assert hand(state)["stake"] == 3
    assert_to_play(state, 2)
    assert legal(state, 2) == {"play Qd", "play Js", "play 4s"}  # 9 + 3 >= 12
    rejected(state, "s2 raise", "raise_not_allowed")
    # The other team (0 points) is not capped.
    state = run(state, "s2 play Qd")
    assert "raise to 6" not in legal(state, 3)  # team 1 made the last call
    ladder = run(new(deals=[F1], start_score=[9, 0]),
                 "s0 play 5c, s1 raise to 3, s2 accept, s1 play 2c")
    assert legal(ladder, 2) == {"play Qd", "play Js", "play 4s", "raise to 6"}


def test_no_raise_if_accept_wins_at_ten_may_still_call_truco() -> None:
    state = new(deals=[F1], start_score=[10, 0], raise_cap="no_raise_if_accept_wins")
    assert legal(state, 0) == {"play 5c", "play 3h", "play 6c", "raise to 3"}  # 10 + 1 < 12
    state = run(state, "s0 raise to 3")
    assert legal(state, 1) == {"accept", "refuse", "raise to 6"}


@pytest.mark.parametrize("start, allowed, refused_to", [
    ([8, 7], "s0 raise to 3, s1 raise to 6", 9),                     # need 5 -> max 6
    ([10, 4], "s0 raise to 3, s1 raise to 6, s0 raise to 9", 12),    # need 8 -> max 9
    ([4, 10], "s0 raise to 3, s1 raise to 6, s0 raise to 9", 12),    # the lower score counts
])
def test_needed_points_caps_the_proposed_value(start: list[int], allowed: str,
                                               refused_to: int) -> None:
    state = new(deals=[F1], start_score=start, raise_cap="needed_points")
    state = run(state, allowed)
    pending = hand(state)["pending"]
    assert pending["to"] == refused_to - 3
    answerer = hand(state)["to_act"][0]
    assert legal(state, answerer) == {"accept", "refuse"}
    rejected(state, f"s{answerer} raise", "raise_not_allowed")
    rejected(state, f"s{answerer} raise to {refused_to}", "raise_not_allowed")
    ladder = run(new(deals=[F1], start_score=start), allowed)
    assert legal(ladder, answerer) == {"accept", "refuse", f"raise to {refused_to}"}


def test_needed_points_on_turn_call_is_capped() -> None:
    # 8 x 7: max 6. s1 calls seis on its turn after truco was accepted; then team 0 may not
    # call nove on its turn.
    state = new(deals=[F1], start_score=[8, 7], raise_cap="needed_points")
    state = run(state, "s0 raise to 3, s1 accept, s0 play 5c, s1 raise to 6, s2 accept, "
                       "s1 play 2c")
    assert hand(state)["stake"] == 6
    assert legal(state, 2) == {"play Qd", "play Js", "play 4s"}
    rejected(state, "s2 raise", "raise_not_allowed")


def test_needed_points_zero_zero_allows_doze() -> None:
    state = new(deals=[F1], raise_cap="needed_points")
    state = run(state, "s0 raise to 3, s1 raise to 6, s0 raise to 9")
    assert legal(state, 1) == {"accept", "refuse", "raise to 12"}
    state = run(state, "s1 raise to 12")
    assert hand(state)["pending"] == {"kind": "raise", "by_seat": 1, "to": 12}
    assert hand(state)["stake"] == 9


def test_needed_points_mineiro_ladder() -> None:
    # 5 x 8: need 7 -> the smallest Mineiro value >= 7 is 10.
    state = new(ruleset="mineiro", deals=[F3], start_score=[5, 8], raise_cap="needed_points")
    state = run(state, "s0 raise to 4, s1 raise to 6")
    assert legal(state, 0) == {"accept", "refuse", "raise to 10"}
    state = run(state, "s0 raise to 10")
    assert legal(state, 1) == {"accept", "refuse"}
    rejected(state, "s1 raise to 12", "raise_not_allowed")


# --- mão de ferro: iron_hand_blind, iron_hand_value (RULES.md §8) ----------------------------

def test_iron_hand_visible() -> None:
    state = new(deals=[F2], start_score=[11, 11], iron_hand_blind=False)
    h = engine.view(state, 0)["hand"]
    assert h["special"] == "mao_de_ferro"
    assert h["pending"] is None
    assert h["stake"] == 1
    assert h["cards"] == ["3h", "Kc", "6c"]
    assert h["partner_cards"] is None
    assert_to_play(state, 0)
    assert legal(state, 0) == {"play 3h", "play Kc", "play 6c"}
    rejected(state, "s0 raise", "raise_not_allowed")
    rejected(state, "s0 raise to 3", "raise_not_allowed")
    # A slot play is accepted as the card in that slot (not listed).
    state = run(state, "s0 play slot 0, s1 play 2c, s2 play Qd, s3 play Ah")
    assert hand(state)["tricks"][0]["plays"][0]["card"] == "3h"
    assert hand(state)["tricks"][0]["winner_team"] == 0
    assert legal(state, 0) == {"play Kc", "play 6c"}  # no face-down, no raise
    rejected(state, "s0 play Kc face_down", "face_down_not_allowed")
    state = run(state, "s0 play Kc, s1 play Kd, s2 play Js, s3 play Jc")
    assert_hand_over(state, 0, 1, "tricks", [12, 11])
    assert_match_over(state, 0)


def test_iron_hand_blind_default() -> None:
    state = new(deals=[F2], start_score=[11, 11])
    assert pub(state)["rules"]["iron_hand_blind"] is True
    h = engine.view(state, 0)["hand"]
    assert h["cards"] == [None, None, None]
    assert h["partner_cards"] is None
    assert legal(state, 0) == {"play slot 0", "play slot 1", "play slot 2"}
    rejected(state, "s0 play 3h", "slot_required")
    rejected(state, "s0 play 6c", "slot_required")
    rejected(state, "s0 raise", "raise_not_allowed")
    state = run(state, "s0 play slot 2")
    assert hand(state)["tricks"][0]["plays"][0]["card"] == "6c"
    rejected(state, "s1 play 2c", "slot_required")


def test_iron_hand_blind_slot_face_down_refused() -> None:
    state = new(deals=[F2], start_score=[11, 11], iron_hand_blind=True)
    state = run(state, "s0 play slot 0, s1 play slot 0, s2 play slot 0, s3 play slot 0")
    assert legal(state, 0) == {"play slot 0", "play slot 1"}
    rejected(state, "s0 play slot 0 face_down", "face_down_not_allowed")


def test_force_highest_does_not_apply_in_a_blind_iron_hand() -> None:
    state = new(deals=[TIED_FIRST], start_score=[11, 11], force_highest_after_first_tie=True)
    state = run(state, "s0 play slot 0, s1 play slot 0, s2 play slot 0, s3 play slot 0")
    assert hand(state)["tricks"][0]["tie"] is True
    assert_to_play(state, 0)
    assert legal(state, 0) == {"play slot 0", "play slot 1"}
    state = run(state, "s0 play slot 1")  # Kd, weaker than Ah
    assert hand(state)["tricks"][1]["plays"][0]["card"] == "Kd"


def test_force_highest_applies_in_a_visible_iron_hand() -> None:
    """RULES.md §8.2 exempts only the blind mão de ferro: a visible one is "played normally"."""
    state = new(deals=[TIED_FIRST], start_score=[11, 11], iron_hand_blind=False,
                force_highest_after_first_tie=True)
    state = run(state, "s0 play 6c, s1 play 3c, s2 play 3h, s3 play 2s")
    assert hand(state)["tricks"][0]["tie"] is True
    assert_to_play(state, 0)
    assert legal(state, 0) == {"play Ah"}
    rejected(state, "s0 play Kd", "must_play_highest")
    state = run(state, "s0 play Ah")
    assert hand(state)["tricks"][1]["plays"][0]["card"] == "Ah"


def test_iron_hand_value_default_paulista_is_1() -> None:
    state = new(deals=[F2], start_score=[11, 11])
    assert pub(state)["rules"]["iron_hand_value"] == 1
    assert hand(state)["stake"] == 1


def test_iron_hand_value_sets_the_stake() -> None:
    state = new(deals=[F2], start_score=[11, 11], iron_hand_value=5)
    assert pub(state)["rules"]["iron_hand_value"] == 5
    assert hand(state)["stake"] == 5
    state = run(state, "s0 play slot 0, s1 play slot 0, s2 play slot 0, s3 play slot 0, "
                       "s0 play slot 0, s1 play slot 0, s2 play slot 0, s3 play slot 0")
    assert_hand_over(state, 0, 5, "tricks", [16, 11])
    assert_match_over(state, 0)


def test_iron_hand_value_does_not_change_normal_hands() -> None:
    state = new(deals=[F1], iron_hand_value=5)
    assert hand(state)["stake"] == 1
    assert hand(state)["special"] is None


def test_iron_hand_void_is_followed_by_another_iron_hand() -> None:
    state = new(deals=[ALL_TIED], start_score=[11, 11], iron_hand_blind=False)
    state = run(state, THREE_TIES)
    assert_hand_over(state, None, 0, "void", [11, 11])
    assert hand(state)["special"] == "mao_de_ferro"
    assert hand(state)["dealer"] == 0


# --- face-down cards (RULES.md §9) -----------------------------------------------------------

F1_TRICK1 = "s0 play 5c, s1 play 2c, s2 play Qd, s3 play Ah"   # team 0 wins, s0 leads


def test_face_down_false_never_listed() -> None:
    state = new(deals=[F1], face_down=False)
    state = run(state, F1_TRICK1)
    assert legal(state, 0) == {"play 3h", "play 6c", "raise to 3"}
    rejected(state, "s0 play 6c face_down", "face_down_not_allowed")
    state = run(state, "s0 play 6c")
    assert legal(state, 1) == {"play Kd", "play 6d", "raise to 3"}
    rejected(state, "s1 play 6d face_down", "face_down_not_allowed")


def test_face_down_default_listed_from_trick_2() -> None:
    state = new(deals=[F1])
    assert pub(state)["rules"]["face_down"] is True
    state = run(state, F1_TRICK1)
    assert legal(state, 0) == {"play 3h", "play 6c", "play 3h face_down", "play 6c face_down",
                               "raise to 3"}


def test_face_down_allowed_in_mao_de_onze() -> None:
    # RULES.md §7.4: face-down cards are allowed as usual (no raise is listed).
    state = new(deals=[F2], start_score=[11, 5])
    state = run(state, "s0 accept, s0 play 3h, s1 play 2c, s2 play Qd, s3 play Ah")
    assert legal(state, 0) == {"play Kc", "play 6c", "play Kc face_down", "play 6c face_down"}
    state = run(state, "s0 play 6c face_down")
    assert legal(state, 1) == {"play Kd", "play 6d", "play Kd face_down", "play 6d face_down"}


def test_face_down_after_tie_false_none_in_the_trick_after_a_tie() -> None:
    state = new(deals=[TIED_FIRST], face_down_after_tie=False)
    state = run(state, "s0 play 6c, s1 play 3c, s2 play 3h, s3 play 2s")
    assert hand(state)["tricks"][0]["tie"] is True
    assert legal(state, 0) == {"play Ah", "play Kd", "raise to 3"}
    rejected(state, "s0 play Kd face_down", "face_down_not_allowed")
    state = run(state, "s0 play Ah")
    assert legal(state, 1) == {"play Kh", "play 6d", "raise to 3"}
    rejected(state, "s1 play 6d face_down", "face_down_not_allowed")


def test_face_down_after_tie_true_allows_it() -> None:
    state = new(deals=[TIED_FIRST], face_down_after_tie=True)
    state = run(state, "s0 play 6c, s1 play 3c, s2 play 3h, s3 play 2s")
    assert legal(state, 0) == {"play Ah", "play Kd", "play Ah face_down", "play Kd face_down",
                               "raise to 3"}


def test_face_down_after_tie_false_trick_3_after_two_ties() -> None:
    state = new(deals=[ALL_TIED], face_down_after_tie=False)
    state = run(state, "s0 play 3d, s1 play 3h, s2 play 4c, s3 play 7c, "
                       "s0 play 2d, s1 play 2h, s2 play 4d, s3 play 7d")
    assert legal(state, 0) == {"play Kc", "raise to 3"}
    rejected(state, "s0 play Kc face_down", "face_down_not_allowed")


def test_face_down_after_tie_false_allows_it_after_a_won_trick() -> None:
    # Trick 1 team 0, trick 2 team 1 (Kd): trick 3 follows a won trick, so face down is fine.
    state = new(deals=[F1], face_down_after_tie=False)
    state = run(state, F1_TRICK1)
    assert "play 6c face_down" in legal(state, 0)
    state = run(state, "s0 play 6c, s1 play Kd, s2 play 4s, s3 play Jc")
    assert hand(state)["tricks"][1]["winner_team"] == 1
    assert legal(state, 1) == {"play 6d", "play 6d face_down", "raise to 3"}


def test_max_face_down_per_team_per_trick_1() -> None:
    state = new(deals=[F1], max_face_down_per_team_per_trick=1)
    state = run(state, F1_TRICK1)
    state = run(state, "s0 play 6c face_down")
    # The other team still may.
    assert legal(state, 1) == {"play Kd", "play 6d", "play Kd face_down", "play 6d face_down",
                               "raise to 3"}
    state = run(state, "s1 play Kd")
    # s0 (a teammate) already played face down in this trick.
    assert legal(state, 2) == {"play Js", "play 4s", "raise to 3"}
    rejected(state, "s2 play 4s face_down", "face_down_not_allowed")
    state = run(state, "s2 play 4s")
    assert legal(state, 3) == {"play Jc", "play 7c", "play Jc face_down", "play 7c face_down",
                               "raise to 3"}
    state = run(state, "s3 play Jc face_down")
    assert hand(state)["tricks"][1]["winner_team"] == 1  # Kd beats two face-down cards
    # A new trick: team 0 may play face down again.
    state = run(state, "s1 play 6d")
    assert legal(state, 2) == {"play Js", "play Js face_down", "raise to 3"}


def test_max_face_down_per_team_per_trick_null_default() -> None:
    state = new(deals=[F1])
    assert pub(state)["rules"]["max_face_down_per_team_per_trick"] is None
    state = run(state, F1_TRICK1 + ", s0 play 6c face_down, s1 play Kd")
    assert "play 4s face_down" in legal(state, 2)


def test_max_face_down_both_teams_face_down_in_one_trick() -> None:
    state = new(deals=[F1], max_face_down_per_team_per_trick=1)
    state = run(state, F1_TRICK1 + ", s0 play 6c face_down, s1 play 6d face_down")
    assert legal(state, 2) == {"play Js", "play 4s", "raise to 3"}
    state = run(state, "s2 play Js")
    assert legal(state, 3) == {"play Jc", "play 7c", "raise to 3"}
    rejected(state, "s3 play 7c face_down", "face_down_not_allowed")


def test_force_highest_after_first_tie() -> None:
    state = new(deals=[TIED_FIRST_EQUAL], force_highest_after_first_tie=True)
    # Before the tie: every card, no face-down in trick 1.
    assert legal(state, 0) == {"play 6c", "play Ah", "play Kd", "raise to 3"}
    state = run(state, "s0 play 6c, s1 play 3c, s2 play 3h, s3 play 2s")
    assert hand(state)["tricks"][0]["tie"] is True
    # Ah (8) > Kd (7): only Ah, never face down; calls are still allowed.
    assert legal(state, 0) == {"play Ah", "raise to 3"}
    rejected(state, "s0 play Kd", "must_play_highest")
    rejected(state, "s0 play Ah face_down", "face_down_not_allowed")
    rejected(state, "s0 play Kd face_down", "face_down_not_allowed")
    state = run(state, "s0 play Ah")
    assert legal(state, 1) == {"play Kh", "raise to 3"}
    rejected(state, "s1 play 6d", "must_play_highest")
    state = run(state, "s1 play Kh")
    assert legal(state, 2) == {"play Jc", "raise to 3"}
    rejected(state, "s2 play Qd", "must_play_highest")
    state = run(state, "s2 play Jc")
    # Qs and Qh are equally strong: both listed.
    assert legal(state, 3) == {"play Qs", "play Qh", "raise to 3"}
    state = run(state, "s3 play Qh")
    assert_hand_over(state, 0, 1, "tricks", [1, 0])


def test_force_highest_slot_play_of_a_weaker_card_is_refused() -> None:
    state = new(deals=[TIED_FIRST], force_highest_after_first_tie=True)
    state = run(state, "s0 play 6c, s1 play 3c, s2 play 3h, s3 play 2s")
    rejected(state, "s0 play slot 1", "must_play_highest")  # slot 1 is Kd now
    state = run(state, "s0 play slot 0")
    assert hand(state)["tricks"][1]["plays"][0]["card"] == "Ah"


def test_force_highest_not_after_a_won_first_trick() -> None:
    state = new(deals=[F1], force_highest_after_first_tie=True)
    state = run(state, F1_TRICK1)
    assert legal(state, 0) == {"play 3h", "play 6c", "play 3h face_down", "play 6c face_down",
                               "raise to 3"}
    state = run(state, "s0 play 6c")
    assert hand(state)["tricks"][1]["plays"][0]["card"] == "6c"


def test_force_highest_false_default() -> None:
    state = new(deals=[TIED_FIRST])
    assert pub(state)["rules"]["force_highest_after_first_tie"] is False
    state = run(state, "s0 play 6c, s1 play 3c, s2 play 3h, s3 play 2s")
    assert legal(state, 0) == {"play Ah", "play Kd", "play Ah face_down", "play Kd face_down",
                               "raise to 3"}
    state = run(state, "s0 play Kd")
    assert hand(state)["tricks"][1]["plays"][0]["card"] == "Kd"


# --- illegal_call_policy (RULES.md §10.4) ----------------------------------------------------

def test_lose_game_call_by_the_eleven_team_in_mao_de_onze() -> None:
    state = new(deals=[F2], start_score=[11, 5], illegal_call_policy="lose_game")
    state = run(state, "s0 accept")
    assert_to_play(state, 0)
    state, events = run_events(state, "s0 raise")
    assert_hand_over(state, 1, 7, "illegal_call", [11, 12])
    assert_match_over(state, 1)
    assert [e["type"] for e in events if e["type"] == "match_won"] == ["match_won"]
    rejected(state, "s1 play 2c", "match_not_active")


def test_lose_game_call_by_the_other_team_in_mao_de_onze() -> None:
    state = new(deals=[F2], start_score=[11, 5], illegal_call_policy="lose_game")
    state = run(state, "s0 accept, s0 play 3h")
    state = run(state, "s1 raise to 3")
    assert_hand_over(state, 0, 1, "illegal_call", [12, 5])
    assert_match_over(state, 0)


def test_lose_game_other_bad_calls_are_rejected() -> None:
    state = new(deals=[F2], start_score=[11, 5], illegal_call_policy="lose_game")
    # While deciding: the decider's raise is refused, an opponent's raise waits for the decision.
    rejected(state, "s0 raise", "raise_not_allowed")
    rejected(state, "s1 raise", "decision_pending")
    state = run(state, "s0 accept")
    # A raise by a seat that is not the one to play is just refused.
    rejected(state, "s2 raise", "not_your_turn")
    rejected(state, "s1 raise", "not_your_turn")


def test_lose_game_in_mao_de_ferro() -> None:
    state = new(deals=[F2], start_score=[11, 11], illegal_call_policy="lose_game")
    state = run(state, "s0 raise")
    assert_hand_over(state, 1, 1, "illegal_call", [11, 12])
    assert_match_over(state, 1)


def test_lose_game_mineiro_mao_de_ferro_and_mao_de_dez() -> None:
    state = new(ruleset="mineiro", deals=[F3], start_score=[10, 10],
                illegal_call_policy="lose_game")
    state = run(state, "s0 play slot 0, s1 raise")
    assert_hand_over(state, 0, 2, "illegal_call", [12, 10])
    assert_match_over(state, 0)
    state = new(ruleset="mineiro", deals=[F3], start_score=[10, 3],
                illegal_call_policy="lose_game")
    state = run(state, "s0 accept, s0 raise to 4")
    assert_hand_over(state, 1, 9, "illegal_call", [10, 12])
    assert_match_over(state, 1)


def test_lose_game_does_not_touch_normal_hands() -> None:
    state = new(deals=[F1], illegal_call_policy="lose_game")
    state = run(state, "s0 raise to 3")
    assert hand(state)["pending"] == {"kind": "raise", "by_seat": 0, "to": 3}
    rejected(state, "s2 raise", "raise_pending")
    state = run(state, "s1 accept")
    rejected(state, "s0 raise", "raise_not_allowed")  # same team called last: just rejected
    assert pub(state)["status"] == "active"


def test_lose_game_ends_only_the_game_in_a_queda() -> None:
    state = new(deals=[F2], start_score=[11, 5], illegal_call_policy="lose_game",
                games_to_win=2)
    state = run(state, "s0 accept, s0 raise")
    v = pub(state)
    assert v["last_hand"]["reason"] == "illegal_call"
    assert v["last_hand"]["winner_team"] == 1
    assert v["last_hand"]["points"] == 7
    assert v["games"] == [0, 1]
    assert v["score"] == [0, 0]
    assert_active(state)
    assert hand(state)["dealer"] == 0
    assert hand(state)["special"] is None


@pytest.mark.parametrize("start", [[11, 5], [11, 11]])
def test_reject_policy_refuses_and_changes_nothing(start: list[int]) -> None:
    state = new(deals=[F2], start_score=start, illegal_call_policy="reject")
    if start == [11, 5]:
        state = run(state, "s0 accept")
    assert pub(state)["rules"]["illegal_call_policy"] == "reject"
    rejected(state, "s0 raise", "raise_not_allowed")
    rejected(state, "s0 raise to 3", "raise_not_allowed")
    assert pub(state)["score"] == start


# --- games_to_win (RULES.md §10.3) -----------------------------------------------------------

HAND1_TEAM0_TRUCO = ("s0 raise to 3, s1 accept, " + F1_TRICK1 +
                     ", s0 play 3h, s1 play Kd, s2 play Js, s3 play Jc")


def test_queda_best_of_three() -> None:
    state = new(deals=[F1, SEAT1_STRONG, SEAT2_STRONG], start_score=[10, 0], games_to_win=2)
    state, events = run_events(state, HAND1_TEAM0_TRUCO)
    v = pub(state)
    assert (v["last_hand"]["winner_team"], v["last_hand"]["points"]) == (0, 3)
    assert v["games"] == [1, 0]
    assert v["score"] == [0, 0]  # start_score does not apply to the second game
    assert_active(state)
    game_won = [e for e in events if e["type"] == "game_won"]
    assert len(game_won) == 1 and game_won[0]["winner_team"] == 0
    assert not [e for e in events if e["type"] == "match_won"]
    assert hand(state)["number"] == 2
    assert hand(state)["dealer"] == 0
    assert hand(state)["special"] is None
    assert hand(state)["stake"] == 1
    assert_to_play(state, 1)

    # Game 2: team 1 wins a hand played for 12.
    state = run(state, "s1 raise to 3, s2 raise to 6, s1 raise to 9, s2 raise to 12, s1 accept")
    assert hand(state)["stake"] == 12
    state = run(state, "s1 play 5c, s2 play 4h, s3 play Qc, s0 play 4c, "
                       "s1 play 5h, s2 play 6h, s3 play Jc, s0 play 6c")
    v = pub(state)
    assert (v["last_hand"]["winner_team"], v["last_hand"]["points"]) == (1, 12)
    assert v["games"] == [1, 1]
    assert v["score"] == [0, 0]
    assert_active(state)
    assert hand(state)["dealer"] == 1
    assert_to_play(state, 2)

    # Game 3: team 0 wins the second game and the match.
    state = run(state, "s2 raise to 3, s3 raise to 6, s2 raise to 9, s3 raise to 12, s2 accept")
    state, events = run_events(state, "s2 play 5c, s3 play Qc, s0 play 4c, s1 play 4h, "
                                      "s2 play 5h, s3 play Jc, s0 play 6c, s1 play 6h")
    v = pub(state)
    assert v["games"] == [2, 1]
    assert v["score"] == [12, 0]
    assert_match_over(state, 0)
    assert [e["winner_team"] for e in events if e["type"] == "match_won"] == [0]
    rejected(state, "s3 play Kc", "match_not_active")


def test_games_to_win_1_default_ends_the_match() -> None:
    state = new(deals=[F1], start_score=[10, 0])
    assert pub(state)["rules"]["games_to_win"] == 1
    state = run(state, HAND1_TEAM0_TRUCO)
    v = pub(state)
    assert v["score"] == [13, 0]
    assert v["games"] == [1, 0]
    assert_match_over(state, 0)


def test_queda_start_score_applies_to_the_first_game_only() -> None:
    state = new(deals=[F2], start_score=[11, 0], games_to_win=2)
    assert hand(state)["special"] == "mao_de_onze"
    state = run(state, "s0 accept, s0 play 3h, s1 play 2c, s2 play Qd, s3 play Ah, "
                       "s0 play Kc, s1 play 6d, s2 play Js, s3 play Jc")
    v = pub(state)
    assert (v["last_hand"]["winner_team"], v["last_hand"]["points"]) == (0, 3)
    assert v["games"] == [1, 0]
    assert v["score"] == [0, 0]
    assert v["hand"]["special"] is None
    assert v["hand"]["pending"] is None
    assert v["hand"]["stake"] == 1
    assert v["hand"]["dealer"] == 0
    assert_to_play(state, 1)


# --- Mineiro (RULES.md §6, §7, §8, §12) ------------------------------------------------------

def test_mineiro_base_and_ladder() -> None:
    state = new(ruleset="mineiro", deals=[F3])
    v = pub(state)
    assert v["hand"]["stake"] == 2
    assert v["hand"]["vira"] is None
    assert v["rules"]["iron_hand_value"] == 2
    assert legal(state, 0) == {"play 7c", "play As", "play 5d", "raise to 4"}
    rejected(state, "s0 raise to 3", "raise_not_allowed")
    state = run(state, "s0 raise to 4")
    assert legal(state, 1) == {"accept", "refuse", "raise to 6"}
    state = run(state, "s1 raise to 6")
    assert legal(state, 0) == {"accept", "refuse", "raise to 10"}
    rejected(state, "s0 raise to 9", "raise_not_allowed")
    state = run(state, "s0 raise to 10")
    assert legal(state, 1) == {"accept", "refuse", "raise to 12"}
    state = run(state, "s1 raise to 12")
    assert hand(state)["stake"] == 10
    assert legal(state, 0) == {"accept", "refuse"}
    state = run(state, "s2 accept")
    assert hand(state)["stake"] == 12


@pytest.mark.parametrize("players", [2, 4, 6])
def test_mineiro_shuffled_hands_have_no_vira(players: int) -> None:
    for seed in range(5):
        state = new(players=players, ruleset="mineiro", seed=seed)
        h = engine.view(state, 0)["hand"]
        assert h["vira"] is None
        assert h["manilhas"] == ["4c", "7h", "As", "7d"]
        assert h["stake"] == 2


@pytest.mark.parametrize("ruleset, script, winner, points", [
    ("mineiro", "s0 raise to 4, s1 refuse, s3 refuse", 0, 2),
    ("mineiro", "s0 raise to 4, s1 raise to 6, s0 refuse, s2 refuse", 1, 4),
    ("mineiro", "s0 raise to 4, s1 raise to 6, s0 raise to 10, s1 refuse, s3 refuse", 0, 6),
    ("mineiro", "s0 raise to 4, s1 raise to 6, s0 raise to 10, s3 raise to 12, "
                "s0 refuse, s2 refuse", 1, 10),
    ("paulista", "s0 raise to 3, s1 refuse, s3 refuse", 0, 1),
    ("paulista", "s0 raise to 3, s1 raise to 6, s0 refuse, s2 refuse", 1, 3),
    ("paulista", "s0 raise to 3, s1 raise to 6, s0 raise to 9, s1 refuse, s3 refuse", 0, 6),
    ("paulista", "s0 raise to 3, s1 raise to 6, s0 raise to 9, s3 raise to 12, "
                 "s0 refuse, s2 refuse", 1, 9),
])
def test_refusal_awards(ruleset: str, script: str, winner: int, points: int) -> None:
    state = new(ruleset=ruleset, deals=[F3 if ruleset == "mineiro" else F1])
    state = run(state, script)
    score = [0, 0]
    score[winner] = points
    assert_hand_over(state, winner, points, "raise_refused", score)


def test_mineiro_refusal_of_an_on_turn_seis() -> None:
    state = new(ruleset="mineiro", deals=[F3])
    state = run(state, "s0 raise to 4, s1 accept, s0 play 7c, s1 raise to 6, s0 refuse, "
                       "s2 refuse")
    assert_hand_over(state, 1, 4, "raise_refused", [0, 4])


def test_mineiro_mao_de_dez_accepted_plays_for_4() -> None:
    state = new(ruleset="mineiro", deals=[F3], start_score=[10, 3])
    h = hand(state)
    assert h["special"] == "mao_de_onze"
    assert h["pending"] == {"kind": "mao_de_onze", "team": 0}
    assert h["stake"] == 2
    assert h["to_act"] == [0, 2]
    assert engine.view(state, 0)["hand"]["partner_cards"] == {"2": ["4h", "Kd", "Qd"]}
    state = run(state, "s0 accept")
    assert hand(state)["stake"] == 4
    assert_to_play(state, 0)
    assert legal(state, 0) == {"play 7c", "play As", "play 5d"}
    state = run(state, "s0 play 7c, s1 play 7s, s2 play 4h, s3 play 5c, "
                       "s0 play As, s1 play 3c, s2 play Kd, s3 play Jd")
    assert_hand_over(state, 0, 4, "tricks", [14, 3])
    assert_match_over(state, 0)


def test_mineiro_mao_de_dez_given_up_gives_2() -> None:
    state = new(ruleset="mineiro", deals=[F3], start_score=[3, 10])
    assert hand(state)["pending"] == {"kind": "mao_de_onze", "team": 1}
    assert hand(state)["to_act"] == [1, 3]
    state = run(state, "s1 refuse, s3 refuse")
    assert_hand_over(state, 0, 2, "mao_de_onze_refused", [5, 10])


def test_mineiro_start_score_11_counts_as_10() -> None:
    state = new(ruleset="mineiro", deals=[F3], start_score=[11, 3])
    h = hand(state)
    assert h["special"] == "mao_de_onze"
    assert h["pending"] == {"kind": "mao_de_onze", "team": 0}
    assert h["stake"] == 2
    state = run(state, "s0 refuse, s2 refuse")
    assert_hand_over(state, 1, 2, "mao_de_onze_refused", [11, 5])
    ferro = new(ruleset="mineiro", deals=[F3], start_score=[11, 10])
    assert hand(ferro)["special"] == "mao_de_ferro"
    assert hand(ferro)["stake"] == 2


def test_mineiro_nine_is_a_normal_hand() -> None:
    state = new(ruleset="mineiro", deals=[F3], start_score=[9, 9])
    h = hand(state)
    assert h["special"] is None
    assert h["pending"] is None
    assert "raise to 4" in legal(state, 0)


def test_mineiro_mao_de_ferro_at_ten() -> None:
    state = new(ruleset="mineiro", deals=[F3], start_score=[10, 10])
    h = engine.view(state, 0)["hand"]
    assert h["special"] == "mao_de_ferro"
    assert h["stake"] == 2
    assert h["pending"] is None
    assert h["cards"] == [None, None, None]
    assert legal(state, 0) == {"play slot 0", "play slot 1", "play slot 2"}
    # Slot 0 each time: 7c 7s 4h 5c (tie), then As 3c Kd Jd (As is a manilha).
    state = run(state, "s0 play slot 0, s1 play slot 0, s2 play slot 0, s3 play slot 0")
    assert hand(state)["tricks"][0]["tie"] is True
    state = run(state, "s0 play slot 0, s1 play slot 0, s2 play slot 0, s3 play slot 0")
    assert_hand_over(state, 0, 2, "tricks", [12, 10])
    assert_match_over(state, 0)


def test_mineiro_iron_hand_value() -> None:
    state = new(ruleset="mineiro", deals=[F3], start_score=[10, 10], iron_hand_value=3)
    assert hand(state)["stake"] == 3
    state = run(state, "s0 play slot 0, s1 play slot 0, s2 play slot 0, s3 play slot 0, "
                       "s0 play slot 0, s1 play slot 0, s2 play slot 0, s3 play slot 0")
    assert_hand_over(state, 0, 3, "tricks", [13, 10])


# --- mão de onze visibility (RULES.md §7.2) --------------------------------------------------

def test_mao_de_onze_two_players_partner_cards_null() -> None:
    state = new(players=2, deals=[TWO_PLAYERS], start_score=[11, 0])
    assert hand(state)["special"] == "mao_de_onze"
    assert hand(state)["pending"] == {"kind": "mao_de_onze", "team": 0}
    for seat in (0, 1):
        assert engine.view(state, seat)["hand"]["partner_cards"] is None
    assert engine.view(state, 0)["hand"]["cards"] == ["3h", "Kc", "6c"]
    state = run(state, "s0 accept")
    assert engine.view(state, 0)["hand"]["partner_cards"] is None


def test_mao_de_onze_six_players_each_member_sees_both_partners() -> None:
    state = new(players=6, deals=[F4], start_score=[11, 0])
    assert hand(state)["to_act"] == [0, 2, 4]
    hands = F4["hands"]
    for seat in (0, 2, 4):
        expected = {str(p): hands[p] for p in (0, 2, 4) if p != seat}
        assert engine.view(state, seat)["hand"]["partner_cards"] == expected
    for seat in (1, 3, 5):
        assert engine.view(state, seat)["hand"]["partner_cards"] is None
        assert legal(state, seat) == set()
    assert engine.view(state, None)["hand"]["partner_cards"] is None
    # Through the hand: the cards still held.
    state = run(state, "s0 accept, s0 play 6c, s1 play 2c")
    assert engine.view(state, 2)["hand"]["partner_cards"] == {"0": ["Ah", "5h"],
                                                              "4": ["2s", "7h", "Js"]}
    assert engine.view(state, 4)["hand"]["partner_cards"] == {"0": ["Ah", "5h"],
                                                              "2": ["Kd", "3s", "Qc"]}
    assert engine.view(state, 1)["hand"]["partner_cards"] is None


def test_mao_de_onze_six_players_team_1() -> None:
    state = new(players=6, deals=[F4], start_score=[0, 11])
    assert hand(state)["to_act"] == [1, 3, 5]
    hands = F4["hands"]
    assert engine.view(state, 3)["hand"]["partner_cards"] == {"1": hands[1], "5": hands[5]}
    assert engine.view(state, 0)["hand"]["partner_cards"] is None
    state = run(state, "s1 refuse, s5 refuse")
    assert hand(state)["to_act"] == [3]
    state = run(state, "s3 refuse")
    assert_hand_over(state, 0, 1, "mao_de_onze_refused", [1, 11])
