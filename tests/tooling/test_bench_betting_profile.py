"""bench/betting_profile.py: its tallies read each spot as the level's rule says it is."""
from __future__ import annotations

import json
import random
from typing import Any

import engine
from bench import betting_profile
from engine.bots.observation import observe
from tests.support.bot_positions import fixed, play


def profile(capsys: Any, *argv: str) -> dict[str, list[int]]:
    assert betting_profile.main([*argv, "--jobs", "1"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    return json.loads(last)["tallies"]


def shares(tallies: dict[str, list[int]], part: str) -> list[tuple[int, int]]:
    return [tuple(cell) for name, cell in tallies.items() if part in name]  # type: ignore[misc]


def test_easy_is_profiled_as_its_rule(capsys: Any) -> None:
    """easy raises on exactly the cards its rule calls on, refuses with nothing, accepts with
    a good thing, never plays face down and decides the same way twice."""
    tallies = profile(capsys, "--level", "easy", "--matches", "3", "--recheck-every", "2")
    weak, strong = shares(tallies, "bet weak"), shares(tallies, "bet strong")
    assert sum(n for _, n in weak) > 20 and sum(n for _, n in strong) > 5
    assert all(k == 0 for k, _ in weak) and all(k == n for k, n in strong)
    for refused, spots in shares(tallies, "answer 0 refuse"):
        assert refused == spots
    for accepted, spots in shares(tallies, "answer 1 accept"):
        assert accepted == spots
    assert all(k == 0 for k, _ in shares(tallies, "face_down"))
    again = shares(tallies, "same_again")
    assert sum(n for _, n in again) > 10 and all(k == n for k, n in again)
    cards = shares(tallies, " card ")
    assert sum(n for _, n in cards) > 20 and all(k == n for k, n in cards)
    lowest = shares(tallies, "first_lead lowest")
    assert sum(n for _, n in lowest) > 5 and all(k == 0 for k, _ in lowest)


def test_two_player_bet_spots_are_also_tallied_by_the_hands_chance(capsys: Any) -> None:
    """Every 2-player bet spot is counted once more by its fifth of the hand's chance, the
    raises the same; 4-player ones are not (the estimate is for 2 seats)."""
    tallies = profile(capsys, "--level", "medium", "--matches", "3", "--recheck-every", "0")
    by_cards = shares(tallies, "2p bet weak") + shares(tallies, "2p bet strong")
    by_chance = shares(tallies, "2p bet chance")
    assert sum(n for _, n in by_chance) == sum(n for _, n in by_cards) > 20
    assert sum(k for k, _ in by_chance) == sum(k for k, _ in by_cards) > 0
    assert len({name.split()[2] for name in tallies if "2p bet chance" in name}) > 2
    assert not shares(tallies, "4p bet chance")


def test_a_bluffer_is_profiled_as_one(capsys: Any) -> None:
    """always_truco raises on weak cards too, in every trick it may, and never refuses."""
    tallies = profile(capsys, "--level", "always_truco", "--against", "easy", "--matches", "3",
                      "--recheck-every", "0")
    weak = shares(tallies, "bet weak")
    assert sum(n for _, n in weak) > 10 and all(k == n for k, n in weak)
    assert all(k == 0 for k, _ in shares(tallies, "refuse"))
    assert not shares(tallies, "same_again")


def test_face_down_dumps_are_counted_where_they_are_allowed(capsys: Any) -> None:
    """medium dumps face down in the later tricks where allowed: some, not all, of its spots."""
    tallies = profile(capsys, "--level", "medium", "--matches", "2", "--recheck-every", "0")
    down = shares(tallies, "face_down")
    assert sum(k for k, _ in down) > 0 and sum(k for k, _ in down) < sum(n for _, n in down)


def test_an_answer_is_tallied_by_the_good_things_held() -> None:
    state, _ = engine.new_match(players=2, seed=1, options={"first_dealer": 1})
    state, _ = engine.apply(state, 0, {"type": "raise", "to": 3})
    view = engine.view(state, 1)
    obs = observe(view)
    assert obs.cards is not None
    good = min(2, sum(1 for c in obs.cards if obs.strength[c] >= 9))
    tally: betting_profile.Tally = {}
    betting_profile.record(tally, "2p", view, {"type": "refuse"}, random.Random(1))
    assert tally == {f"2p answer {good} accept": [0, 1], f"2p answer {good} refuse": [1, 1],
                     f"2p answer {good} raise": [0, 1]}


def test_a_dump_is_a_card_that_cannot_take_the_trick() -> None:
    """Seat 1 faces a manilha with a 4 and a 6: either card is a dump, face up or down; seat 0
    leading trick 2 dumps nothing."""
    state = play(fixed(2, [["Kc", "5c", "7s"], ["Qd", "4h", "6d"]]), (0, "Kc"), (1, "Qd"))
    lead = engine.view(state, 0)
    tally: betting_profile.Tally = {}
    rng = random.Random(1)
    betting_profile.record(tally, "2p", lead, {"type": "play", "card": "7s"}, rng)
    assert tally["2p face_down"] == [0, 1] and "2p face_down dump" not in tally
    state, _ = engine.apply(state, 0, {"type": "play", "card": "5c"})
    follow = engine.view(state, 1)
    betting_profile.record(tally, "2p", follow, {"type": "play", "card": "4h", "face_down": True},
                           rng)
    betting_profile.record(tally, "2p", follow, {"type": "play", "card": "6d"}, rng)
    assert tally["2p face_down dump"] == [1, 2] and tally["2p face_down"] == [1, 3]


def test_a_card_play_is_tallied_against_the_easy_rules_card() -> None:
    """A first lead of the lowest card, where the easy rule leads the highest, misses the
    rule's card and counts as a lowest lead; a follow with a dearer winner than the cheapest
    misses it too, and is no first lead."""
    state = fixed(2, [["4c", "Kh", "3s"], ["6d", "7d", "Qd"]])
    tally: betting_profile.Tally = {}
    betting_profile.record_card(tally, "2p", observe(engine.view(state, 0)), "4c")
    assert tally == {"2p card lead": [0, 1], "2p first_lead lowest": [1, 1],
                     "2p first_lead middle": [0, 1], "2p first_lead highest": [0, 1]}
    state = play(state, (0, "4c"))
    tally = {}
    betting_profile.record_card(tally, "2p", observe(engine.view(state, 1)), "7d")
    assert tally == {"2p card win": [0, 1]}
    betting_profile.record_card(tally, "2p", observe(engine.view(state, 1)), "6d")
    assert tally == {"2p card win": [1, 2]}
