"""Reviews of decisions (engine/bots/review.py): each legal action valued from the seat's view
alone, by `hard`'s search, the same for the same view, action and seed; the action taken
matched in any spelling; what it gave up against the best."""
from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.bots.hard import action_values
from engine.bots.review import MISTAKE_LOSS, review_decision
from tests.support.bot_positions import hide_differently, position
from tests.support.match_configs import match_configs

PLAYOUTS = 60  # (enough to rank, few enough to be quick)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=match_configs(), seed=st.integers(0, 2**31))
def test_a_review_sees_only_the_seats_view(config: dict[str, Any], seed: int) -> None:
    state = position(config, seed)
    for seat in state.to_act:
        view = engine.view(state, seat)
        other = hide_differently(state, seat, random.Random(seed))
        played = view["legal_actions"][seed % len(view["legal_actions"])]
        first = review_decision(view, played, seed, PLAYOUTS)
        assert first == review_decision(engine.view(other, seat), played, seed, PLAYOUTS)
        assert [a for a, _ in first.options] == view["legal_actions"]
        assert first.options[first.played][0] == played
        assert all(0.0 <= v <= 1.0 for _, v in first.options)
        assert first.loss >= 0.0 and first.mistake == (first.loss >= MISTAKE_LOSS)


def test_the_values_are_the_searchs_and_the_best_is_the_highest() -> None:
    state, _ = engine.new_match(players=2, seed=11)
    seat = state.to_act[0]
    view = engine.view(state, seat)
    actions = view["legal_actions"]
    reviewed = review_decision(view, actions[0], 7, PLAYOUTS)
    values = action_values(view, actions, random.Random(7), budget_ms=float("inf"),
                           playouts=PLAYOUTS)
    assert [v for _, v in reviewed.options] == values
    assert reviewed.options[reviewed.best][1] == max(values)
    assert reviewed.loss == pytest.approx(max(values) - values[0])


def test_refusing_a_truco_with_the_three_best_cards_is_a_mistake() -> None:
    state, _ = engine.new_match(players=2, options={"first_dealer": 0}, deals=[
        {"vira": "3d", "hands": [["4c", "4h", "4s"], ["5d", "6d", "7d"]]}])
    state, _ = engine.apply(state, 1, {"type": "raise", "to": 3})
    view = engine.view(state, 0)
    refused = review_decision(view, {"type": "refuse"}, 1, PLAYOUTS)
    assert refused.mistake and refused.options[refused.best][0] != {"type": "refuse"}
    accepted = review_decision(view, {"type": "accept"}, 1, PLAYOUTS)
    assert accepted.loss < refused.loss


def test_the_action_taken_may_be_spelled_any_way_but_must_be_legal() -> None:
    state, _ = engine.new_match(players=2, seed=4)
    seat = state.to_act[0]
    view = engine.view(state, seat)
    card = view["hand"]["cards"][0]
    spelled = {"type": "play", "card": card.upper(), "face_down": False}
    assert review_decision(view, spelled, 3, PLAYOUTS).options[
        review_decision(view, spelled, 3, PLAYOUTS).played][0] == {"type": "play", "card": card}
    with pytest.raises(ValueError):
        review_decision(view, {"type": "accept"}, 3, PLAYOUTS)
