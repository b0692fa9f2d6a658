"""The hard level's hidden dumps (engine/bots/concealment.py): with 2 players a card the search
values no better face up goes face down, where the options allow it."""
from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import MatchState
from engine.bots import concealment
from engine.bots.concealment import HIDE_MARGIN, hide_dump
from engine.bots.hard import choose_hard
from tests.support.bot_positions import fixed, play


def second_trick(**options: Any) -> MatchState:
    """2-player Paulista, vira 4d (the 5s are manilhas): seat 0 takes trick 1 and leads the
    5 of clubs in trick 2; seat 1, holding a 4 and a 6, cannot take it."""
    return play(fixed(2, [["Kc", "5c", "7s"], ["Qd", "4h", "6d"]], options=options),
                (0, "Kc"), (1, "Qd"), (0, "5c"))


def four_player_second_trick() -> MatchState:
    """The same with partners: seat 0 takes trick 1 and leads the 5 of clubs in trick 2;
    seat 1 is next."""
    return play(fixed(4, [["Kc", "5c", "7s"], ["Qd", "4h", "6d"], ["Jc", "6s", "7d"],
                          ["Jd", "4s", "6c"]]),
                (0, "Kc"), (1, "Qd"), (2, "Jc"), (3, "Jd"), (0, "5c"))


def spot(state: MatchState, seat: int = 1) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`seat`'s view of `state` and its legal actions."""
    view = engine.view(state, seat)
    return view, view["legal_actions"]


def indices(actions: list[dict[str, Any]], card: str) -> tuple[int, int]:
    """Where `card` face up and its face-down twin are among `actions`."""
    up = next(i for i, a in enumerate(actions) if a == {"type": "play", "card": card})
    down = next(i for i, a in enumerate(actions)
                if a == {"type": "play", "card": card, "face_down": True})
    return up, down


def test_a_face_up_card_within_the_margin_goes_face_down() -> None:
    view, actions = spot(second_trick())
    up, down = indices(actions, "4h")
    values = [0.2] * len(actions)
    values[up], values[down] = 0.5, 0.5 - HIDE_MARGIN / 2
    assert hide_dump(view, actions, values, up) == down


def test_a_face_down_twin_outside_the_margin_is_not_chosen() -> None:
    view, actions = spot(second_trick())
    up, down = indices(actions, "4h")
    values = [0.2] * len(actions)
    values[up], values[down] = 0.5, 0.5 - 2 * HIDE_MARGIN
    assert hide_dump(view, actions, values, up) == up


def test_a_raise_or_a_card_already_face_down_stays_as_it_is() -> None:
    view, actions = spot(second_trick())
    _, down = indices(actions, "4h")
    raise_at = next(i for i, a in enumerate(actions) if a["type"] == "raise")
    values = [0.5] * len(actions)
    assert hide_dump(view, actions, values, raise_at) == raise_at
    assert hide_dump(view, actions, values, down) == down


def test_no_card_goes_face_down_where_the_options_forbid_it() -> None:
    view, actions = spot(second_trick(face_down=False))
    assert not any(a.get("face_down") for a in actions)
    up = actions.index({"type": "play", "card": "4h"})
    assert hide_dump(view, actions, [0.5] * len(actions), up) == up


def test_with_partners_no_card_goes_face_down() -> None:
    view, actions = spot(four_player_second_trick())
    up, _ = indices(actions, "4h")  # the face-down twin is legal
    assert hide_dump(view, actions, [0.5] * len(actions), up) == up


@pytest.mark.parametrize("seed", range(4))
def test_hard_dumps_face_down_when_hiding_costs_nothing(seed: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the search: seat 1 cannot take the trick, so it dumps; with any cost allowed
    the dump goes face down; with none allowed it stays face up (the twins score alike there)."""
    view = engine.view(second_trick(), 1)
    monkeypatch.setattr(concealment, "HIDE_MARGIN", 1.0)
    hidden = choose_hard(view, random.Random(seed), playouts=60, budget_ms=100000)
    monkeypatch.setattr(concealment, "HIDE_MARGIN", -1.0)
    searched = choose_hard(view, random.Random(seed), playouts=60, budget_ms=100000)
    assert searched["type"] == "play" and not searched.get("face_down")
    assert hidden == {**searched, "face_down": True}
