"""Validation of new_match's arguments (RULES.md §2.3, §10.3, §12; docs/engine-api.md) and of
action bodies (InvalidAction), plus the 409 of a finished match."""
from __future__ import annotations

import copy
from typing import Any

import pytest

import engine
from engine import IllegalAction, InvalidAction, InvalidConfig

F1 = {"vira": "4d", "hands": [["5c", "3h", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                              ["Ah", "Jc", "7c"]]}
F3 = {"vira": None, "hands": [["7c", "As", "5d"], ["7s", "3c", "6h"], ["4h", "Kd", "Qd"],
                              ["5c", "Jd", "6c"]]}
TWO_PLAYERS = {"vira": "4d", "hands": [["3h", "Kc", "6c"], ["2c", "Kd", "6d"]]}

ALL_OPTIONS = ("first_dealer", "tie_leader", "all_ties", "response_mode", "raise_cap",
               "iron_hand_blind", "iron_hand_value", "face_down", "face_down_after_tie",
               "max_face_down_per_team_per_trick", "force_highest_after_first_tie",
               "illegal_call_policy", "games_to_win")


def create(**kwargs: Any) -> engine.MatchState:
    args: dict[str, Any] = {"players": 4, "ruleset": "paulista", "options": {"first_dealer": 3},
                            "seed": 1}
    args.update(kwargs)
    state, _ = engine.new_match(**args)
    return state


def config_errors(**kwargs: Any) -> dict[str, str]:
    with pytest.raises(InvalidConfig) as info:
        create(**kwargs)
    errors = info.value.errors
    assert isinstance(errors, dict) and errors
    assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in errors.items())
    return errors


def names(errors: dict[str, str], field: str) -> bool:
    """Some error key names `field` (e.g. "options.tie_leader" names "tie_leader")."""
    return any(field in key for key in errors)


# --- options ---------------------------------------------------------------------------------

def test_defaults_are_echoed_under_rules() -> None:
    state = create(options={"first_dealer": 2})
    rules = engine.view(state, 0)["rules"]
    assert rules["ruleset"] == "paulista"
    assert set(ALL_OPTIONS) <= set(rules)
    assert {k: rules[k] for k in ALL_OPTIONS} == {
        "first_dealer": 2, "tie_leader": "trick_leader", "all_ties": "void",
        "response_mode": "any_accept_all_refuse", "raise_cap": "ladder",
        "iron_hand_blind": True, "iron_hand_value": 1, "face_down": True,
        "face_down_after_tie": True, "max_face_down_per_team_per_trick": None,
        "force_highest_after_first_tie": False, "illegal_call_policy": "reject",
        "games_to_win": 1}
    assert engine.view(state, 0)["hand"]["dealer"] == 2


def test_mineiro_iron_hand_value_defaults_to_2() -> None:
    state = create(ruleset="mineiro", options={})
    rules = engine.view(state, None)["rules"]
    assert rules["ruleset"] == "mineiro"
    assert rules["iron_hand_value"] == 2


def test_every_option_value_is_accepted_and_echoed() -> None:
    chosen = {"first_dealer": 1, "tie_leader": "hand_mao", "all_ties": "mao_team",
              "response_mode": "designated", "raise_cap": "needed_points",
              "iron_hand_blind": False, "iron_hand_value": 4, "face_down": False,
              "face_down_after_tie": False, "max_face_down_per_team_per_trick": 1,
              "force_highest_after_first_tie": True, "illegal_call_policy": "lose_game",
              "games_to_win": 2}
    state = create(options=chosen)
    rules = engine.view(state, 1)["rules"]
    assert {k: rules[k] for k in ALL_OPTIONS} == chosen
    assert engine.view(state, 1)["hand"]["dealer"] == 1


@pytest.mark.parametrize("name, values", [
    ("tie_leader", ["trick_leader", "first_tied_card", "hand_mao"]),
    ("all_ties", ["void", "mao_team"]),
    ("response_mode", ["any_accept_all_refuse", "first_response", "designated"]),
    ("raise_cap", ["ladder", "no_raise_if_accept_wins", "needed_points"]),
    ("iron_hand_blind", [True, False]),
    ("iron_hand_value", [1, 2, 3, 12]),
    ("face_down", [True, False]),
    ("face_down_after_tie", [True, False]),
    ("max_face_down_per_team_per_trick", [None, 1]),
    ("force_highest_after_first_tie", [False, True]),
    ("illegal_call_policy", ["reject", "lose_game"]),
    ("games_to_win", [1, 2]),
    ("first_dealer", ["random", 0, 3]),
])
def test_each_valid_value(name: str, values: list[Any]) -> None:
    for value in values:
        state = create(options={name: value})
        assert engine.view(state, None)["rules"][name] == value


def test_iron_hand_value_is_any_integer_from_1_that_a_score_can_hold() -> None:
    # RULES.md §12: `iron_hand_value` is an "integer ≥ 1". The only upper bound is the one a
    # score needs: 11 points before the hand plus the stake stays a 16-bit signed integer.
    for bad in (0, -1, 32757, 10**4000):
        assert names(config_errors(options={"iron_hand_value": bad}), "options.iron_hand_value")
    for good in (1, 13, 99, 100, 1000, 32756):
        state, _ = engine.new_match(players=4, ruleset="paulista",
                                    options={"first_dealer": 3, "iron_hand_value": good},
                                    seed=1, start_score=[11, 11])
        assert engine.view(state, None)["rules"]["iron_hand_value"] == good
        assert engine.view(state, None)["hand"]["stake"] == good


def test_first_dealer_random_is_a_seat_drawn_from_the_seed() -> None:
    dealers = set()
    for seed in range(40):
        a = create(options={"first_dealer": "random"}, seed=seed)
        b = create(options={"first_dealer": "random"}, seed=seed)
        assert engine.view(a, None)["hand"]["dealer"] == engine.view(b, None)["hand"]["dealer"]
        dealers.add(engine.view(a, None)["hand"]["dealer"])
    assert dealers == {0, 1, 2, 3}
    default = create(options={}, seed=5)
    assert engine.view(default, None)["hand"]["dealer"] in range(4)


def test_unknown_option() -> None:
    errors = config_errors(options={"first_dealer": 3, "speed": "fast"})
    assert names(errors, "speed")


def test_a_bad_option_value_is_told_in_jsons_words() -> None:
    """A client reads the choices as JSON: true and "hand_mao", not Python's True and 'hand_mao'."""
    assert config_errors(options={"face_down": "yes"}) == {
        "options.face_down": "must be one of true, false"}
    assert config_errors(options={"tie_leader": 1}) == {"options.tie_leader":
        'must be one of "trick_leader", "first_tied_card", "hand_mao"'}
    assert config_errors(options={"max_face_down_per_team_per_trick": 3}) == {
        "options.max_face_down_per_team_per_trick": "must be one of null, 1"}


def test_options_must_be_an_object() -> None:
    errors = config_errors(options=["tie_leader"])
    assert names(errors, "options")


@pytest.mark.parametrize("name, value", [
    ("tie_leader", "winner"),
    ("tie_leader", None),
    ("all_ties", "replay"),
    ("response_mode", "anyone"),
    ("raise_cap", "none"),
    ("raise_cap", 12),
    ("iron_hand_blind", 1),          # 1 is not true
    ("iron_hand_blind", "true"),
    ("iron_hand_blind", None),
    ("iron_hand_value", 0),
    ("iron_hand_value", -1),
    ("iron_hand_value", True),        # true is not an integer
    ("iron_hand_value", "2"),
    ("iron_hand_value", 1.5),
    ("face_down", 0),                 # 0 is not false
    ("face_down", "no"),
    ("face_down_after_tie", 1),
    ("max_face_down_per_team_per_trick", 2),
    ("max_face_down_per_team_per_trick", 0),
    ("max_face_down_per_team_per_trick", True),
    ("max_face_down_per_team_per_trick", "1"),
    ("force_highest_after_first_tie", 1),
    ("force_highest_after_first_tie", "false"),
    ("illegal_call_policy", "lose_hand"),
    ("games_to_win", 3),
    ("games_to_win", 0),
    ("games_to_win", True),           # true is not 1
    ("games_to_win", "2"),
    ("first_dealer", 4),              # 4 players: seats 0..3
    ("first_dealer", -1),
    ("first_dealer", True),
    ("first_dealer", "0"),
    ("first_dealer", "random_seat"),
    ("first_dealer", None),
])
def test_bad_option_value(name: str, value: Any) -> None:
    errors = config_errors(options={name: value})
    assert names(errors, name)


@pytest.mark.parametrize("players, dealer", [(2, 2), (6, 6), (2, 5)])
def test_first_dealer_out_of_range_for_the_player_count(players: int, dealer: int) -> None:
    errors = config_errors(players=players, options={"first_dealer": dealer})
    assert names(errors, "first_dealer")


def test_first_dealer_last_seat_of_six() -> None:
    state = create(players=6, options={"first_dealer": 5})
    assert engine.view(state, None)["hand"]["dealer"] == 5


# --- players, ruleset, start_score ---------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 0, 1, 5, 8, -2, "4", True, None, 4.0])
def test_bad_player_count(players: Any) -> None:
    errors = config_errors(players=players, options={})
    assert names(errors, "players")


@pytest.mark.parametrize("players", [2, 4, 6])
def test_good_player_counts(players: int) -> None:
    state = create(players=players, options={})
    v = engine.view(state, 0)
    assert v["players"] == players
    assert len(v["hand"]["cards"]) == 3


@pytest.mark.parametrize("ruleset", ["gaucho", "Paulista", "", None, 1])
def test_unknown_ruleset(ruleset: Any) -> None:
    errors = config_errors(ruleset=ruleset)
    assert names(errors, "ruleset")


@pytest.mark.parametrize("start", [[12, 0], [0, 12], [-1, 0], [0, 99], [0], [0, 0, 0], [],
                                   "11,5", 11, [True, 0], ["1", 0], [0.5, 0]])
def test_bad_start_score(start: Any) -> None:
    errors = config_errors(start_score=start)
    assert names(errors, "start_score")


@pytest.mark.parametrize("start", [[0, 0], [11, 0], [0, 11], [11, 11], [7, 3]])
def test_good_start_score(start: list[int]) -> None:
    state = create(start_score=start)
    assert engine.view(state, None)["score"] == start


def test_no_start_score_is_zero_zero() -> None:
    assert engine.view(create(), None)["score"] == [0, 0]
    assert engine.view(create(), None)["games"] == [0, 0]


# --- deals -----------------------------------------------------------------------------------

def with_hands(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    deal = copy.deepcopy(base)
    deal.update(changes)
    return deal


def bad_deal_errors(deal: Any, ruleset: str = "paulista", players: int = 4,
                    index: int = 0) -> dict[str, str]:
    deals = [copy.deepcopy(F1 if ruleset == "paulista" else F3) for _ in range(index)] + [deal]
    errors = config_errors(ruleset=ruleset, players=players, deals=deals,
                           options={"first_dealer": players - 1})
    assert names(errors, "deals"), errors
    return errors


def test_good_deals_are_dealt_in_order() -> None:
    second = {"vira": "Kd", "hands": [["3c", "5c", "6h"], ["Ad", "7c", "4h"], ["2c", "Qc", "6d"],
                                      ["Kc", "Jc", "5d"]]}
    state = create(deals=[F1, second])
    v = engine.view(state, 1)
    assert v["hand"]["vira"] == "4d"
    assert v["hand"]["cards"] == ["2c", "Kd", "6d"]
    state, _ = engine.apply(state, 0, {"type": "raise"})
    state, _ = engine.apply(state, 1, {"type": "refuse"})
    state, _ = engine.apply(state, 3, {"type": "refuse"})
    v = engine.view(state, 1)
    assert v["hand"]["number"] == 2
    assert v["hand"]["vira"] == "Kd"
    assert v["hand"]["cards"] == ["Ad", "7c", "4h"]


def test_duplicate_card_between_hands() -> None:
    deal = with_hands(F1)
    deal["hands"][2][0] = "3h"  # s0 holds 3h too
    bad_deal_errors(deal)


def test_duplicate_card_in_one_hand() -> None:
    deal = with_hands(F1)
    deal["hands"][0] = ["5c", "5c", "6c"]
    bad_deal_errors(deal)


def test_duplicate_card_differing_only_in_case() -> None:
    deal = with_hands(F1)
    deal["hands"][2][0] = "3H"
    bad_deal_errors(deal)


def test_vira_among_the_hands() -> None:
    bad_deal_errors(with_hands(F1, vira="Js"))
    bad_deal_errors(with_hands(F1, vira="js"))


@pytest.mark.parametrize("hands", [
    F1["hands"][:3],                                    # 3 hands for 4 players
    F1["hands"] + [["4c", "4h", "5s"]],                 # 5 hands
    [],
    [["5c", "3h"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"], ["Ah", "Jc", "7c"]],   # 2 cards
    [["5c", "3h", "6c", "4c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"], ["Ah", "Jc", "7c"]],
    [["5c", "3h", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"], []],
    [["5c", "3h", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"], "Ah Jc 7c"],
    "5c 3h 6c",
    None,
])
def test_wrong_number_of_hands_or_cards(hands: Any) -> None:
    bad_deal_errors({"vira": "4d", "hands": hands})


def test_two_player_deal_with_four_hands() -> None:
    bad_deal_errors(copy.deepcopy(F1), players=2)


def test_six_player_deal_with_four_hands() -> None:
    bad_deal_errors(copy.deepcopy(F1), players=6)


@pytest.mark.parametrize("vira", ["4d", "Kd", "4D"])
def test_vira_in_mineiro(vira: str) -> None:
    bad_deal_errors(with_hands(F3, vira=vira), ruleset="mineiro")


@pytest.mark.parametrize("deal", [
    with_hands(F1, vira=None),
    {"hands": copy.deepcopy(F1["hands"])},
])
def test_missing_vira_in_paulista(deal: dict[str, Any]) -> None:
    bad_deal_errors(deal)


@pytest.mark.parametrize("code", ["1c", "8h", "9s", "10d", "Tc", "7x", "", "c7", "7", 7, None,
                                  "7cc", ["7c"]])
def test_bad_card_code_in_a_hand(code: Any) -> None:
    deal = with_hands(F1)
    deal["hands"][1][2] = code
    bad_deal_errors(deal)


@pytest.mark.parametrize("code", ["8d", "x", 4, "4dd"])
def test_bad_vira_code(code: Any) -> None:
    bad_deal_errors(with_hands(F1, vira=code))


def test_a_bad_later_deal_is_caught() -> None:
    deal = with_hands(F1)
    deal["hands"][3][0] = "5c"
    bad_deal_errors(deal, index=1)


def test_deals_must_be_a_list_of_objects() -> None:
    bad_deal_errors_list = [config_errors(deals=F1), config_errors(deals=["F1"]),
                            config_errors(deals=[[["5c"]]])]
    for errors in bad_deal_errors_list:
        assert names(errors, "deals")


def test_card_codes_are_case_insensitive() -> None:
    deal = {"vira": "4D", "hands": [["5C", "3h", "6c"], ["2c", "kD", "6d"], ["qd", "JS", "4s"],
                                    ["aH", "jc", "7C"]]}
    state = create(deals=[deal])
    v = engine.view(state, 0)
    assert v["hand"]["vira"] == "4d"
    assert v["hand"]["manilhas"] == ["5c", "5h", "5s", "5d"]
    assert v["hand"]["cards"] == ["5c", "3h", "6c"]
    assert engine.view(state, 1)["hand"]["cards"] == ["2c", "Kd", "6d"]
    assert engine.view(state, 2)["hand"]["cards"] == ["Qd", "Js", "4s"]
    assert engine.view(state, 3)["hand"]["cards"] == ["Ah", "Jc", "7c"]
    # The canonical code is what is played and listed.
    assert {"type": "play", "card": "5c"} in engine.legal_actions(state, 0)
    state, _ = engine.apply(state, 0, {"type": "play", "card": "5C"})
    assert engine.view(state, None)["hand"]["tricks"][0]["plays"][0]["card"] == "5c"
    state, _ = engine.apply(state, 1, {"type": "play", "card": "kd"})
    assert engine.view(state, None)["hand"]["tricks"][0]["plays"][1]["card"] == "Kd"


def test_mineiro_deal_with_null_or_absent_vira() -> None:
    for deal in (copy.deepcopy(F3), {"hands": copy.deepcopy(F3["hands"])}):
        state = create(ruleset="mineiro", deals=[deal])
        v = engine.view(state, 0)
        assert v["hand"]["vira"] is None
        assert v["hand"]["cards"] == ["7c", "As", "5d"]
        assert v["hand"]["manilhas"] == ["4c", "7h", "As", "7d"]


def test_six_player_deal() -> None:
    deal = {"vira": "4d", "hands": [["6c", "Ah", "5h"], ["2c", "Kc", "7c"], ["Kd", "3s", "Qc"],
                                    ["Qh", "3d", "4c"], ["2s", "7h", "Js"], ["Jc", "6d", "4h"]]}
    state = create(players=6, deals=[deal], options={"first_dealer": 5})
    assert engine.view(state, 4)["hand"]["cards"] == ["2s", "7h", "Js"]
    bad = copy.deepcopy(deal)
    bad["hands"][5][2] = "Ah"
    errors = config_errors(players=6, deals=[bad], options={"first_dealer": 5})
    assert names(errors, "deals")


# --- malformed actions -----------------------------------------------------------------------

MALFORMED = [
    {"type": "fold"},
    {"type": "Play", "card": "5c"},
    {"type": None},
    {},
    {"card": "5c"},
    "play 5c",
    None,
    ["play", "5c"],
    {"type": "play", "card": "5c", "speed": 1},          # unknown field
    {"type": "accept", "seat": 1},
    {"type": "refuse", "card": "5c"},
    {"type": "raise", "card": "5c"},
    {"type": "raise", "slot": 0},
    {"type": "play", "card": "5c", "to": 3},
    {"type": "play", "card": "5c", "slot": 0},           # both
    {"type": "play"},                                    # neither
    {"type": "play", "face_down": True},
    {"type": "play", "card": "5x"},                      # bad card codes
    {"type": "play", "card": "8c"},
    {"type": "play", "card": "5c "},
    {"type": "play", "card": "\t5c"},
    {"type": "play", "card": ""},
    {"type": "play", "card": 5},
    {"type": "play", "card": ["5c"]},
    {"type": "play", "slot": "0"},                       # non-int slot
    {"type": "play", "slot": 0.0},
    {"type": "play", "slot": True},
    {"type": "play", "slot": [0]},
    {"type": "play", "card": "5c", "face_down": "yes"},  # non-bool face_down
    {"type": "play", "card": "5c", "face_down": 1},
    {"type": "play", "card": "5c", "face_down": 0},
    {"type": "play", "slot": 0, "face_down": "false"},
    {"type": "raise", "to": "3"},                        # non-int to
    {"type": "raise", "to": 3.0},
    {"type": "raise", "to": True},
    {"type": "raise", "to": [3]},
]


@pytest.mark.parametrize("body", MALFORMED, ids=[repr(b) for b in MALFORMED])
def test_malformed_action(body: Any) -> None:
    state = create(deals=[F1])
    before = state.to_json()
    with pytest.raises(InvalidAction):
        engine.apply(state, 0, body)
    assert state.to_json() == before


def test_malformed_action_while_answering() -> None:
    state = create(deals=[F1])
    state, _ = engine.apply(state, 0, {"type": "raise"})
    before = state.to_json()
    for body in ({"type": "accept", "to": 3}, {"type": "raise", "to": "6"},
                 {"type": "accepted"}):
        with pytest.raises(InvalidAction):
            engine.apply(state, 1, body)
    assert state.to_json() == before


def test_well_formed_bodies_are_not_invalid() -> None:
    # The minimal and full forms parse (the rules may still refuse them, but not as malformed).
    state = create(deals=[F1])
    for body in ({"type": "play", "card": "5c"}, {"type": "play", "slot": 0},
                 {"type": "play", "card": "5c", "face_down": False},
                 {"type": "raise"}, {"type": "raise", "to": 3}):
        engine.apply(state, 0, body)
    for body in ({"type": "play", "card": "3h", "face_down": True},
                 {"type": "play", "slot": 7}, {"type": "raise", "to": 6},
                 {"type": "accept"}, {"type": "refuse"}):
        with pytest.raises(IllegalAction):
            engine.apply(state, 0, body)


# --- a finished match ------------------------------------------------------------------------

def finished_match() -> engine.MatchState:
    state = create(deals=[F1], start_score=[10, 4])
    for seat, body in [(0, {"type": "raise", "to": 3}), (1, {"type": "accept"}),
                       (0, {"type": "play", "card": "5c"}), (1, {"type": "play", "card": "2c"}),
                       (2, {"type": "play", "card": "Qd"}), (3, {"type": "play", "card": "Ah"}),
                       (0, {"type": "play", "card": "3h"}), (1, {"type": "play", "card": "Kd"}),
                       (2, {"type": "play", "card": "Js"}), (3, {"type": "play", "card": "Jc"})]:
        state, _ = engine.apply(state, seat, body)
    return state


@pytest.mark.parametrize("seat, body", [
    (1, {"type": "play", "card": "6d"}),
    (0, {"type": "play", "card": "6c"}),
    (0, {"type": "play", "slot": 0}),
    (2, {"type": "raise"}),
    (3, {"type": "raise", "to": 3}),
    (1, {"type": "accept"}),
    (0, {"type": "refuse"}),
])
def test_finished_match_is_not_active(seat: int, body: dict[str, Any]) -> None:
    state = finished_match()
    v = engine.view(state, None)
    assert v["status"] == "finished"
    assert v["winner_team"] == 0
    assert v["score"] == [13, 4]
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        engine.apply(state, seat, body)
    assert info.value.reason == "match_not_active"
    assert state.to_json() == before
    for s in range(4):
        assert engine.legal_actions(state, s) == []
        assert engine.view(state, s)["legal_actions"] == []


def test_resign_on_a_finished_match_is_not_active() -> None:
    state = finished_match()
    with pytest.raises(IllegalAction) as info:
        engine.resign(state, 1)
    assert info.value.reason == "match_not_active"
