"""The hard level's late bluffs (engine/bots/bluffs.py): a weak hand raises in the third trick
where the search values the raise close to its best play, and nowhere else."""
from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import MatchState
from engine.bots import bluffs
from engine.bots.bluffs import BLUFF_MARGIN, late_bluff
from engine.bots.hard import choose_hard


def third_trick(last_card: str) -> MatchState:
    """2-player Paulista, vira 4d: seat 0 takes trick 1, seat 1 trick 2, no call yet; seat 1
    leads trick 3 holding `last_card`."""
    state, _ = engine.new_match(players=2, seed=1, options={"first_dealer": 1}, deals=[
        {"vira": "4d", "hands": [["Kc", "6h", "7s"], ["Qd", "Ac", last_card]]}])
    for seat, card in ((0, "Kc"), (1, "Qd"), (0, "6h"), (1, "Ac")):
        state, _ = engine.apply(state, seat, {"type": "play", "card": card})
    return state


def spot(last_card: str) -> tuple[dict[str, Any], list[dict[str, Any]], int, int]:
    """Seat 1's view in `third_trick`, its legal actions, and where its play and raise are."""
    view = engine.view(third_trick(last_card), 1)
    actions = view["legal_actions"]
    play = next(i for i, a in enumerate(actions) if a["type"] == "play")
    raise_at = next(i for i, a in enumerate(actions) if a["type"] == "raise")
    return view, actions, play, raise_at


def values_with(actions: list[dict[str, Any]], play: int, raise_at: int,
                cost: float) -> list[float]:
    """Action values where the raise is worth `cost` less than the play."""
    values = [0.1] * len(actions)
    values[play], values[raise_at] = 0.6, 0.6 - cost
    return values


def test_a_weak_hand_bluffs_in_the_third_trick_when_the_raise_costs_little() -> None:
    view, actions, play, raise_at = spot("4s")
    values = values_with(actions, play, raise_at, BLUFF_MARGIN / 2)
    assert late_bluff(view, actions, values, play) == raise_at


def test_no_bluff_when_the_raise_costs_more_than_the_margin() -> None:
    view, actions, play, raise_at = spot("4s")
    values = values_with(actions, play, raise_at, BLUFF_MARGIN + 0.01)
    assert late_bluff(view, actions, values, play) == play


def test_a_strong_hand_is_left_to_the_search() -> None:
    view, actions, play, raise_at = spot("3s")  # a 3 and a trick won: the easy rule calls
    values = values_with(actions, play, raise_at, 0.01)
    assert late_bluff(view, actions, values, play) == play


def test_no_bluff_before_the_third_trick() -> None:
    state, _ = engine.new_match(players=2, seed=1, options={"first_dealer": 1}, deals=[
        {"vira": "4d", "hands": [["Kc", "6h", "7s"], ["Qd", "Ac", "4s"]]}])
    state, _ = engine.apply(state, 0, {"type": "play", "card": "Kc"})
    state, _ = engine.apply(state, 1, {"type": "play", "card": "Qd"})
    view = engine.view(state, 0)  # seat 0 leads trick 2 with 6h and 7s
    actions = view["legal_actions"]
    play = next(i for i, a in enumerate(actions) if a["type"] == "play")
    raise_at = next(i for i, a in enumerate(actions) if a["type"] == "raise")
    values = values_with(actions, play, raise_at, 0.01)
    assert late_bluff(view, actions, values, play) == play


def test_no_bluff_with_partners(monkeypatch: Any) -> None:
    state, _ = engine.new_match(players=4, seed=1, options={"first_dealer": 3}, deals=[
        {"vira": "4d", "hands": [["Kc", "6h", "7s"], ["Qd", "Ac", "4s"], ["Jc", "6d", "7d"],
                                 ["Qc", "Ad", "4h"]]}])
    for seat, card in ((0, "Kc"), (1, "Qd"), (2, "Jc"), (3, "Qc"),
                       (0, "6h"), (1, "Ac"), (2, "6d"), (3, "4h")):
        state, _ = engine.apply(state, seat, {"type": "play", "card": card})
    view = engine.view(state, 1)  # seat 1 took trick 2 and leads trick 3 with 4s
    actions = view["legal_actions"]
    play = next(i for i, a in enumerate(actions) if a["type"] == "play")
    raise_at = next(i for i, a in enumerate(actions) if a["type"] == "raise")
    assert late_bluff(view, actions, values_with(actions, play, raise_at, 0.01), play) == play
    monkeypatch.setattr(bluffs, "BLUFF_PLAYERS", 4)  # the table size alone kept the play
    assert late_bluff(view, actions, values_with(actions, play, raise_at, 0.01), play) \
        == raise_at


def test_a_chosen_raise_stays_a_raise() -> None:
    view, actions, play, raise_at = spot("4s")
    values = values_with(actions, play, raise_at, -0.05)
    assert late_bluff(view, actions, values, raise_at) == raise_at


@pytest.mark.parametrize(("margin", "kind"), [(1.0, "raise"), (-1.0, "play")])
def test_the_hard_search_takes_the_bluff_within_the_margin(margin: float, kind: str,
                                                           monkeypatch: Any) -> None:
    monkeypatch.setattr(bluffs, "BLUFF_MARGIN", margin)
    view, _, _, _ = spot("4s")
    assert choose_hard(view, random.Random(0), budget_ms=60_000)["type"] == kind
