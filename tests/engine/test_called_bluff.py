"""The hard level drops a weak raise after the first trick against opponents who call the
team's late raises (bluffs.drop_called_bluff, decision 0036)."""
from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import MatchState
from engine.bots import LateAnswers, hard
from engine.bots.bluffs import BLUFF_FOLD_RATE, CALLED_MARGIN, drop_called_bluff
from engine.bots.hard import choose_hard
from tests.support.bot_positions import fixed
from tests.support.called_bluffs import CALLERS, FOLDERS, second_trick, the_raise


def spot(state: MatchState, seat: int, lead: float = CALLED_MARGIN / 2
         ) -> tuple[dict[str, Any], list[dict[str, Any]], list[float], int]:
    """`seat`'s view of `state`, its legal actions, values that rank its raise first, `lead`
    above its last card, and where the raise is."""
    view = engine.view(state, seat)
    actions = view["legal_actions"]
    raise_at = next(i for i, a in enumerate(actions) if a["type"] == "raise")
    plays = [i for i, a in enumerate(actions) if a["type"] == "play"]
    values = [0.1] * len(actions)
    values[raise_at], values[plays[-1]] = 0.5 + lead, 0.5
    return view, actions, values, raise_at


def best_play(actions: list[dict[str, Any]], values: list[float]) -> int:
    return max((i for i, a in enumerate(actions) if a["type"] != "raise"),
               key=values.__getitem__)


def test_the_histories_are_a_caller_and_a_folder() -> None:
    assert CALLERS.fold_rate < BLUFF_FOLD_RATE <= FOLDERS.fold_rate


def test_a_weak_raise_in_the_second_trick_is_dropped_against_callers() -> None:
    view, actions, values, raise_at = spot(second_trick(["6h", "7s"]), 0)  # a trick, no card
    chosen = drop_called_bluff(view, actions, values, raise_at, CALLERS)
    assert actions[chosen]["type"] == "play"
    assert chosen == best_play(actions, values)  # the search's next best, not any card


def test_a_raise_the_search_values_clearly_higher_stays() -> None:
    view, actions, values, raise_at = spot(second_trick(["6h", "7s"]), 0, CALLED_MARGIN + 0.01)
    assert drop_called_bluff(view, actions, values, raise_at, CALLERS) == raise_at


@pytest.mark.parametrize("history", [FOLDERS, None])
def test_the_raise_stays_against_folders_or_an_unknown_match(history: LateAnswers | None
                                                             ) -> None:
    view, actions, values, raise_at = spot(second_trick(["6h", "7s"]), 0)
    assert drop_called_bluff(view, actions, values, raise_at, history) == raise_at


def test_a_strong_raise_stays() -> None:
    view, actions, values, raise_at = spot(second_trick(["3h", "7s"]), 0)  # a trick and a 3
    assert drop_called_bluff(view, actions, values, raise_at, CALLERS) == raise_at


def test_a_first_trick_raise_stays() -> None:
    state = fixed(2, [["6h", "7s", "4c"], ["Qd", "Ac", "4s"]])
    view, actions, values, raise_at = spot(state, 0)
    assert drop_called_bluff(view, actions, values, raise_at, CALLERS) == raise_at


def test_a_raise_over_in_an_answer_stays() -> None:
    state, _ = engine.apply(second_trick(["6h", "7s"]), 0, {"type": "raise"})
    view = engine.view(state, 1)
    actions = view["legal_actions"]
    over = next(i for i, a in enumerate(actions) if a["type"] == "raise")
    values = [0.5] * len(actions)
    values[over] = 0.51
    assert drop_called_bluff(view, actions, values, over, CALLERS) == over


def test_a_chosen_play_stays() -> None:
    view, actions, values, _ = spot(second_trick(["6h", "7s"]), 0)
    play_at = best_play(actions, values)
    assert drop_called_bluff(view, actions, values, play_at, CALLERS) == play_at


@pytest.mark.parametrize(("history", "kind"), [(CALLERS, "play"), (FOLDERS, "raise")])
def test_the_hard_search_drops_its_weak_raise_against_callers(
        history: LateAnswers, kind: str, monkeypatch: Any) -> None:
    monkeypatch.setattr(hard, "hide_dump", the_raise)  # the search settles on its raise
    view = engine.view(second_trick(["6h", "7s"]), 0)
    chosen = choose_hard(view, random.Random(5), playouts=60, budget_ms=60_000,
                         history=history)
    assert chosen["type"] == kind
