"""GET /v1/rulesets: both rulesets with their ladders and every RULES.md §12 option."""
from __future__ import annotations

from typing import Any

OPTIONS = {"first_dealer", "tie_leader", "all_ties", "response_mode", "raise_cap",
           "iron_hand_blind", "iron_hand_value", "face_down", "face_down_after_tie",
           "max_face_down_per_team_per_trick", "force_highest_after_first_tie",
           "illegal_call_policy", "games_to_win"}


def test_rulesets(client: Any) -> None:
    r = client.get("/v1/rulesets")
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("application/json")
    by_name = {item["name"]: item for item in r.json["items"]}
    assert set(by_name) == {"paulista", "mineiro"}
    paulista, mineiro = by_name["paulista"], by_name["mineiro"]
    assert paulista["ladder"] == [1, 3, 6, 9, 12]
    assert mineiro["ladder"] == [2, 4, 6, 10, 12]
    assert (paulista["base_value"], mineiro["base_value"]) == (1, 2)
    for item in (paulista, mineiro):
        assert set(item["options"]) == OPTIONS
    opts = paulista["options"]
    assert opts["tie_leader"]["default"] == "trick_leader"
    assert set(opts["tie_leader"]["values"]) == {"trick_leader", "first_tied_card", "hand_mao"}
    assert opts["response_mode"]["default"] == "any_accept_all_refuse"
    assert set(opts["response_mode"]["values"]) == {"any_accept_all_refuse", "first_response",
                                                    "designated"}
    assert opts["raise_cap"]["default"] == "ladder"
    assert opts["all_ties"]["default"] == "void"
    assert opts["games_to_win"]["default"] == 1 and set(opts["games_to_win"]["values"]) == {1, 2}
    assert opts["iron_hand_blind"]["default"] is True
    assert opts["face_down"]["default"] is True
    assert opts["force_highest_after_first_tie"]["default"] is False
    assert opts["max_face_down_per_team_per_trick"]["default"] is None
    assert opts["illegal_call_policy"]["default"] == "reject"
    assert opts["first_dealer"]["default"] == "random"
    assert paulista["options"]["iron_hand_value"]["default"] == 1
    assert mineiro["options"]["iron_hand_value"]["default"] == 2
    # the range it states is the one a creation is held to (RULES.md §12: an integer >= 1, up
    # to what a score can hold)
    assert paulista["options"]["iron_hand_value"]["values"] == "an integer from 1 to 32756"


def test_rulesets_need_no_token(client: Any) -> None:
    assert client.get("/v1/rulesets", headers={}).status_code == 200
