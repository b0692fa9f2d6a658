"""The hand's public betting record (`hand.calls`, `last_hand.calls`) and how a match ends
(`end_reason`, `match_forfeited`), in the engine."""
from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import MatchState
from engine.bots.beliefs import UNLIKELY_ACCEPT, UNLIKELY_CALL, world_weight
from engine.bots.observation import observe
from engine.determinize import determinize

TWO = {"vira": "4d", "hands": [["3h", "Kc", "6c"], ["2c", "Kd", "6d"]]}
FOUR = {"vira": "4d", "hands": [["5c", "3h", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                                ["Ah", "Jc", "7c"]]}


def new(players: int = 2, deals: Any = None, start_score: Any = None,
        **options: Any) -> MatchState:
    options.setdefault("first_dealer", players - 1)  # seat 0 leads
    state, _ = engine.new_match(players=players, options=options, seed=3,
                                deals=deals or [TWO if players == 2 else FOUR],
                                start_score=start_score)
    return state


def step(state: MatchState, seat: int, **body: Any) -> tuple[MatchState, list[dict[str, Any]]]:
    return engine.apply(state, seat, body)


def test_raises_and_answers_are_recorded_in_order_for_every_viewer() -> None:
    state, _ = step(new(), 0, type="raise")
    state, _ = step(state, 1, type="raise")  # six: accepts the truco and raises
    state, _ = step(state, 0, type="accept")
    expected = [{"seat": 0, "action": "raise", "to": 3},
                {"seat": 1, "action": "raise", "to": 6},
                {"seat": 0, "action": "accept"}]
    assert state.hand.calls == expected
    for viewer in (0, 1, None):
        assert engine.view(state, viewer)["hand"]["calls"] == expected


def test_a_refused_raise_leaves_its_calls_in_the_last_hand_and_the_next_hand_starts_clean(
        ) -> None:
    state, _ = step(new(), 0, type="raise")
    state, events = step(state, 1, type="refuse")
    assert any(e["type"] == "hand_won" and e["reason"] == "raise_refused" for e in events)
    assert state.hand.number == 2 and state.hand.calls == []
    for viewer in (0, 1, None):
        view = engine.view(state, viewer)
        assert view["hand"]["calls"] == []
        assert view["last_hand"]["calls"] == [{"seat": 0, "action": "raise", "to": 3},
                                              {"seat": 1, "action": "refuse"}]


def test_each_refusal_of_a_team_is_a_call() -> None:
    state, _ = step(new(4), 0, type="raise")
    state, _ = step(state, 1, type="refuse")
    assert state.hand.calls[-1] == {"seat": 1, "action": "refuse"}
    state, _ = step(state, 3, type="refuse")
    assert engine.view(state, 2)["last_hand"]["calls"] == [
        {"seat": 0, "action": "raise", "to": 3}, {"seat": 1, "action": "refuse"},
        {"seat": 3, "action": "refuse"}]


def test_mao_de_onze_decisions_are_answers_of_that_kind() -> None:
    state = new(4, start_score=[11, 5])
    assert state.hand.pending == {"kind": "mao_de_onze", "team": 0}
    decider = state.hand.to_act[0]
    state, _ = step(state, decider, type="accept")
    assert engine.view(state, None)["hand"]["calls"] == [
        {"seat": decider, "action": "accept", "kind": "mao_de_onze"}]


def test_calls_survive_the_json_round_trip_and_old_states_load_without_them() -> None:
    state, _ = step(new(), 0, type="raise")
    state, _ = step(state, 1, type="accept")
    stored = state.to_json()
    assert MatchState.from_json(stored) == state
    old = {**stored, "hand": {k: v for k, v in stored["hand"].items() if k != "calls"},
           "last_hand": None}
    del old["end_reason"]
    loaded = MatchState.from_json(old)
    assert loaded.hand.calls == [] and loaded.end_reason is None
    assert engine.view(loaded, 0)["hand"]["calls"] == []
    old["last_hand"] = {"number": 1, "winner_team": 0, "points": 1, "reason": "tricks",
                        "tricks": []}
    assert engine.view(MatchState.from_json(old), None)["last_hand"]["calls"] == []


def test_a_copy_records_its_calls_apart_from_the_original() -> None:
    before = new()
    after, _ = step(before, 0, type="raise")
    assert before.hand.calls == [] and after.hand.calls != []


def test_the_determinized_world_keeps_the_calls_and_the_caller() -> None:
    state, _ = step(new(), 0, type="raise")
    state, _ = step(state, 1, type="accept")
    view = engine.view(state, 1)
    world = determinize(view, random.Random(1))
    assert world.hand.calls == state.hand.calls
    assert world.hand.last_call_team == 0
    assert engine.view(world, 1) == view


def test_a_match_won_on_points_ends_by_score() -> None:
    state = new(start_score=[11, 0], deals=[TWO])
    state, _ = step(state, 0, type="accept")  # the team on 11 plays the hand
    events: list[dict[str, Any]] = []
    while state.status == "active":
        seat = state.hand.to_act[0]
        state, events = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    assert state.end_reason == "score"
    assert events[-1]["type"] == "match_won" and events[-1]["end_reason"] == "score"


def test_a_resignation_ends_as_resigned() -> None:
    state, events = engine.resign(new(), 1)
    assert state.end_reason == "resigned" and state.winner_team == 0
    assert [e["type"] for e in events] == ["player_resigned", "match_won"]
    assert events[-1]["end_reason"] == "resigned"


def test_a_forfeit_by_time_is_its_own_event() -> None:
    state, events = engine.forfeit(new(4), 3)
    assert state.end_reason == "timed_out" and state.winner_team == 0
    assert state.status == "finished" and state.to_act == []
    assert events[0] == {"type": "match_forfeited", "team": 1, "seat": 3, "reason": "timed_out"}
    assert events[1]["type"] == "match_won" and events[1]["end_reason"] == "timed_out"
    assert MatchState.from_json(state.to_json()) == state


# --- the bots read the calls ------------------------------------------------------------------

WEAK_1 = {"vira": "4d", "hands": [["3h", "Kc", "6c"], ["4c", "Qd", "6d"]]}
"""Seat 1 holds nothing good (no 2, 3 or manilha)."""
STRONG_1 = {"vira": "4d", "hands": [["4c", "Kc", "6c"], ["3h", "2c", "6d"]]}
"""Seat 1 holds a 3 and a 2."""


def test_an_opponent_accepting_on_nothing_is_an_unlikely_world() -> None:
    for deal_, expected in ((WEAK_1, UNLIKELY_ACCEPT), (STRONG_1, 1.0)):
        state, _ = step(new(deals=[deal_]), 0, type="raise")
        state, _ = step(state, 1, type="accept")
        assert world_weight(state, 0) == pytest.approx(expected)
        # to seat 1, seat 0's truco on at most one good card is the unlikely choice
        assert world_weight(state, 1) == pytest.approx(UNLIKELY_CALL)


def test_an_answered_raise_still_counts_once_the_question_is_gone() -> None:
    state, _ = step(new(deals=[WEAK_1]), 0, type="play", card="6c")
    state, _ = step(state, 1, type="raise")
    assert world_weight(state, 0) == pytest.approx(UNLIKELY_CALL)
    state, _ = step(state, 0, type="accept")
    assert world_weight(state, 0) == pytest.approx(UNLIKELY_CALL)


def test_the_observation_says_when_the_opponents_showed_strength() -> None:
    state, _ = step(new(), 0, type="raise")
    assert not observe(engine.view(state, 0)).opponents_answered
    state, _ = step(state, 1, type="accept")
    assert observe(engine.view(state, 0)).opponents_answered
    assert not observe(engine.view(state, 1)).opponents_answered  # its own answer
    assert observe(engine.view(state, 0)).calls == state.hand.calls
    state, _ = step(new(), 0, type="raise")
    state, _ = step(state, 1, type="raise")  # raised over seat 0's truco
    assert observe(engine.view(state, 0)).opponents_answered
    assert not observe(engine.view(state, 1)).opponents_answered  # seat 0 only called
