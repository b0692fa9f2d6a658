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
from tests.support.bot_positions import fixed, play


def third_trick(last_card: str) -> MatchState:
    """2-player Paulista, vira 4d: seat 0 takes trick 1, seat 1 trick 2, no call yet; seat 1
    leads trick 3 holding `last_card`."""
    return play(fixed(2, [["Kc", "6h", "7s"], ["Qd", "Ac", last_card]]),
                (0, "Kc"), (1, "Qd"), (0, "6h"), (1, "Ac"))


def spot(state: MatchState, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]], int, int]:
    """`seat`'s view of `state`, its legal actions, and where its first play and its raise
    are among them."""
    view = engine.view(state, seat)
    actions = view["legal_actions"]
    first_play = next(i for i, a in enumerate(actions) if a["type"] == "play")
    raise_at = next(i for i, a in enumerate(actions) if a["type"] == "raise")
    return view, actions, first_play, raise_at


def values_with(actions: list[dict[str, Any]], first_play: int, raise_at: int,
                cost: float) -> list[float]:
    """Action values where the raise is worth `cost` less than the play."""
    values = [0.1] * len(actions)
    values[first_play], values[raise_at] = 0.6, 0.6 - cost
    return values


def test_a_weak_hand_bluffs_in_the_third_trick_when_the_raise_costs_little() -> None:
    view, actions, first_play, raise_at = spot(third_trick("4s"), 1)
    values = values_with(actions, first_play, raise_at, BLUFF_MARGIN / 2)
    assert late_bluff(view, actions, values, first_play) == raise_at


def test_no_bluff_when_the_raise_costs_more_than_the_margin() -> None:
    view, actions, first_play, raise_at = spot(third_trick("4s"), 1)
    values = values_with(actions, first_play, raise_at, BLUFF_MARGIN + 0.01)
    assert late_bluff(view, actions, values, first_play) == first_play


def test_a_strong_hand_is_left_to_the_search() -> None:
    # a 3 and a trick won: the easy rule calls
    view, actions, first_play, raise_at = spot(third_trick("3s"), 1)
    values = values_with(actions, first_play, raise_at, 0.01)
    assert late_bluff(view, actions, values, first_play) == first_play


def test_no_bluff_before_the_third_trick() -> None:
    state = play(fixed(2, [["Kc", "6h", "7s"], ["Qd", "Ac", "4s"]]), (0, "Kc"), (1, "Qd"))
    view, actions, first_play, raise_at = spot(state, 0)  # seat 0 leads trick 2: 6h, 7s
    values = values_with(actions, first_play, raise_at, 0.01)
    assert late_bluff(view, actions, values, first_play) == first_play


def test_no_bluff_with_partners(monkeypatch: Any) -> None:
    state = play(fixed(4, [["Kc", "6h", "7s"], ["Qd", "Ac", "4s"], ["Jc", "6d", "7d"],
                           ["Qc", "Ad", "4h"]]),
                 (0, "Kc"), (1, "Qd"), (2, "Jc"), (3, "Qc"),
                 (0, "6h"), (1, "Ac"), (2, "6d"), (3, "4h"))
    view, actions, first_play, raise_at = spot(state, 1)  # seat 1 leads trick 3 with 4s
    values = values_with(actions, first_play, raise_at, 0.01)
    assert late_bluff(view, actions, values, first_play) == first_play
    monkeypatch.setattr(bluffs, "BLUFF_PLAYERS", 4)  # the table size alone kept the play
    assert late_bluff(view, actions, values, first_play) == raise_at


def test_a_chosen_raise_stays_a_raise() -> None:
    view, actions, first_play, raise_at = spot(third_trick("4s"), 1)
    values = values_with(actions, first_play, raise_at, -0.05)
    assert late_bluff(view, actions, values, raise_at) == raise_at


@pytest.mark.parametrize(("margin", "kind"), [(1.0, "raise"), (-1.0, "play")])
def test_the_hard_search_takes_the_bluff_within_the_margin(margin: float, kind: str,
                                                           monkeypatch: Any) -> None:
    monkeypatch.setattr(bluffs, "BLUFF_MARGIN", margin)
    view, _, _, _ = spot(third_trick("4s"), 1)
    assert choose_hard(view, random.Random(0), budget_ms=60_000)["type"] == kind
