"""The built-in bots: legal, blind to hidden cards, deterministic, and sensible where it is plain.

Positions come from random legal play over 2, 4 and 6 players, both rulesets and random options
(the configurations of tests/support/match_configs.py), plus a few fixed deals.
"""
from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import MatchState
from engine.bots import AVAILABLE_LEVELS, BOT_LEVELS, BOTS, LateAnswers, choose, choose_with
from engine.bots import hard as hard_bot
from engine.bots.hard import choose_hard
from engine.bots.playout import play_out_hand
from engine.determinize import determinize, seat_knowledge
from tests.support.bot_positions import fixed, hide_differently, play, position
from tests.support.match_configs import match_configs

FAST_HARD = 12
"""Playouts per decision for the hard bot in the many-position tests (the search is the same)."""


def decide(level: str, view: dict[str, Any], seed: int) -> dict[str, Any]:
    if level == "hard":  # a small deterministic budget; the time cap far away; a match so far
        history = LateAnswers(seed % 3, seed % 3 + seed % 4)  # that folds, or calls, or is new
        return choose_with(partial(choose_hard, playouts=FAST_HARD, history=history), view,
                           random.Random(seed), budget_ms=60_000)
    return choose(level, view, random.Random(seed))


def test_all_four_levels_are_available() -> None:
    assert AVAILABLE_LEVELS == BOT_LEVELS == tuple(BOTS) == ("random", "easy", "medium", "hard")
    state, _ = engine.new_match(players=2, seed=1, options={"first_dealer": 1})
    with pytest.raises(ValueError):  # (the expert candidate is not a level: docs/bots.md)
        choose("expert", engine.view(state, 0), random.Random(0))
    with pytest.raises(ValueError):  # not this seat's turn
        choose("easy", engine.view(state, 1), random.Random(0))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=match_configs(), seed=st.integers(0, 2**31))
def test_every_level_answers_a_legal_action(config: dict[str, Any], seed: int) -> None:
    state = position(config, seed)
    for seat in state.to_act:
        view = engine.view(state, seat)
        for level in BOT_LEVELS:
            action = decide(level, view, seed)
            assert action in view["legal_actions"], (level, action)
            engine.apply(state, seat, action)  # and the engine takes it


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("ruleset", ["paulista", "mineiro"])
def test_each_level_plays_whole_matches(players: int, ruleset: str) -> None:
    for level in ("easy", "medium"):
        state, _ = engine.new_match(players=players, ruleset=ruleset, seed=players)
        rngs = [random.Random(s) for s in range(players)]
        for _ in range(3000):
            if not state.to_act:
                break
            seat = state.to_act[0]
            view = engine.view(state, seat)
            action = choose(level, view, rngs[seat])
            assert action in view["legal_actions"]
            state, _ = engine.apply(state, seat, action)
        assert state.status == "finished"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=match_configs(), seed=st.integers(0, 2**31))
def test_no_level_can_see_hidden_cards(config: dict[str, Any], seed: int) -> None:
    state = position(config, seed)
    for seat in state.to_act:
        other = hide_differently(state, seat, random.Random(seed))
        view = engine.view(state, seat)
        assert engine.view(other, seat) == view
        for level in BOT_LEVELS:
            assert decide(level, view, seed) == decide(level, engine.view(other, seat), seed)


def test_hidden_cards_really_differ_in_the_no_cheating_test() -> None:
    state, _ = engine.new_match(players=4, seed=3, options={"first_dealer": 3})
    other = hide_differently(state, 0, random.Random(1))
    assert other.hand.hands[0] == state.hand.hands[0]
    assert all(other.hand.hands[s] != state.hand.hands[s] for s in (1, 2, 3))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=match_configs(), seed=st.integers(0, 2**31))
def test_same_view_and_seed_give_the_same_action(config: dict[str, Any], seed: int) -> None:
    state = position(config, seed)
    for seat in state.to_act:
        view = engine.view(state, seat)
        for level in BOT_LEVELS:
            assert decide(level, view, seed) == decide(level, view, seed)


def test_the_hard_level_is_deterministic_at_its_default_budget() -> None:
    state, _ = engine.new_match(players=4, ruleset="mineiro", seed=21)
    view = engine.view(state, state.to_act[0])
    first = choose_hard(view, random.Random(5), budget_ms=60_000)
    assert first == choose("hard", view, random.Random(5), budget_ms=60_000)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=match_configs(), seed=st.integers(0, 2**31))
def test_a_determinized_state_has_the_same_view(config: dict[str, Any], seed: int) -> None:
    state = position(config, seed)
    for seat in range(state.players):
        view = engine.view(state, seat)
        know = seat_knowledge(view)
        world = determinize(view, random.Random(seed), seed=seed)
        assert engine.view(world, seat) == view
        assert world.hand.turn == state.hand.turn and world.hand.refused == sorted(
            state.hand.refused)
        for s, cards in know.known_hands.items():
            assert world.hand.hands[s] == state.hand.hands[s] == cards
        placed = [c for s in range(world.players) if s not in know.known_hands
                  for c in world.hand.hands[s]]
        placed += [world.hand.tricks[i].plays[j][1] for i, j in know.hidden_plays]
        assert set(placed) <= set(know.unseen) and len(set(placed)) == len(placed)
        every = [c for hand in world.hand.hands for c in hand]
        every += [c for t in world.hand.tricks for _, c, _ in t.plays]
        assert len(every) == len(set(every)) and world.hand.vira not in every
        rng = random.Random(seed)  # the world plays on to the next hand
        number = world.hand.number
        while world.status == "active" and world.hand.number == number:
            s = world.to_act[0]
            world, _ = engine.apply(world, s, rng.choice(engine.legal_actions(world, s)))


def test_determinizing_draws_different_worlds_from_the_unseen_cards() -> None:
    state, _ = engine.new_match(players=2, seed=9, options={"first_dealer": 1})
    view = engine.view(state, 0)
    worlds = {tuple(determinize(view, random.Random(i)).hand.hands[1]) for i in range(20)}
    assert len(worlds) > 10
    mine = set(state.hand.hands[0]) | {state.hand.vira}
    assert all(not mine & set(w) for w in worlds)


# --- fixed positions ---------------------------------------------------------------------

def no_calls(players: int, hands: list[list[str]]) -> MatchState:
    """A visible mão de ferro (11 × 11): nobody may call, so only the card play is judged."""
    return fixed(players, hands, start_score=[11, 11], options={"iron_hand_blind": False})


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_wins_the_trick_with_the_cheapest_card_that_does(level: str) -> None:
    state = play(no_calls(2, [["Kc", "6h", "7s"], ["3h", "Ah", "4s"]]), (0, "Kc"))
    assert choose(level, engine.view(state, 1), random.Random(0)) == {"type": "play",
                                                                       "card": "Ah"}


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_dumps_the_weakest_card_when_the_trick_is_lost(level: str) -> None:
    state = play(no_calls(2, [["5c", "6h", "7s"], ["3h", "Ah", "4s"]]), (0, "5c"))
    assert choose(level, engine.view(state, 1), random.Random(0)) == {"type": "play",
                                                                       "card": "4s"}


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_dumps_the_weakest_card_when_the_partner_is_winning(level: str) -> None:
    state = play(no_calls(4, [["3c", "6h", "7s"], ["4h", "Qh", "Js"], ["2c", "Kd", "6d"],
                              ["4c", "Qc", "7c"]]), (0, "3c"), (1, "4h"))
    assert choose(level, engine.view(state, 2), random.Random(0)) == {"type": "play",
                                                                       "card": "6d"}


def test_medium_dumps_face_down_where_allowed() -> None:
    state = play(fixed(2, [["5c", "3s", "Qh"], ["4s", "6d", "7d"]]), (0, "5c"))
    state, _ = engine.apply(state, 1, {"type": "raise", "to": 3})  # so seat 1 cannot call now
    state, _ = engine.apply(state, 0, {"type": "accept"})
    state = play(state, (1, "4s"), (0, "3s"))
    view = engine.view(state, 1)
    assert {"type": "play", "card": "6d", "face_down": True} in view["legal_actions"]
    assert choose("easy", view, random.Random(0)) == {"type": "play", "card": "6d"}
    assert choose("medium", view, random.Random(0)) == {"type": "play", "card": "6d",
                                                        "face_down": True}


def test_hard_takes_the_trick_that_wins_the_hand() -> None:
    # trick 1 tied, so trick 2 decides: seat 0 leads 7s; seat 1's 2h wins the hand, 4s loses it
    state = play(fixed(2, [["Kc", "7s", "Qd"], ["Kh", "2h", "4s"]]), (0, "Kc"), (1, "Kh"),
                 (0, "7s"))
    view = engine.view(state, 1)
    action = choose_hard(view, random.Random(0), budget_ms=60_000)
    assert action in ({"type": "play", "card": "2h"}, {"type": "raise", "to": 3})
    assert action != {"type": "play", "card": "2h", "face_down": True}


def _truco_to_seat_1() -> MatchState:
    """Hand 1, seat 0 has called truco: seat 1 may accept, refuse (ending the hand) or raise."""
    state = fixed(2, [["Kc", "7s", "Qd"], ["Kh", "2h", "4s"]])
    state, _ = engine.apply(state, 0, {"type": "raise", "to": 3})
    assert {"type": "refuse"} in engine.view(state, 1)["legal_actions"]
    return state


def test_a_playout_stops_where_the_given_hand_ends() -> None:
    state = _truco_to_seat_1()
    refused, _ = engine.apply(state, 1, {"type": "refuse"})
    assert refused.hand.number == state.hand.number + 1
    assert play_out_hand(refused, random.Random(0), hand=state.hand.number) is refused
    on = play_out_hand(refused, random.Random(0))  # by default the state's own hand
    assert on.status != "active" or on.hand.number == refused.hand.number + 1


def test_hard_scores_every_action_where_the_hand_it_is_taken_in_ends(monkeypatch: Any) -> None:
    # the refusal ends hand 1 at once; scored after a played-out hand 2 it would be measured
    # by another yardstick than accepting, which the value table scores at the end of hand 1
    state = _truco_to_seat_1()
    scored: list[int] = []
    value = hard_bot.match_value

    def recording(end: MatchState, team: int) -> float:
        scored.append(end.hand.number)
        return value(end, team)

    monkeypatch.setattr(hard_bot, "match_value", recording)
    choose_hard(engine.view(state, 1), random.Random(0), budget_ms=60_000, playouts=30)
    assert len(scored) >= 3 * hard_bot.MIN_WORLDS
    assert set(scored) == {state.hand.number + 1}


def test_hard_answers_at_once_with_a_single_legal_action(monkeypatch: Any) -> None:
    state = fixed(2, [["3c", "6h", "7s"], ["4h", "Qh", "Js"]], start_score=[11, 11])
    monkeypatch.setattr(hard_bot, "determinize", lambda *a, **k: pytest.fail("searched"))
    while True:  # a blind mão de ferro: play slot 0 until a seat has one card left
        seat = state.to_act[0]
        view = engine.view(state, seat)
        if len(view["legal_actions"]) == 1:
            break
        state, _ = engine.apply(state, seat, {"type": "play", "slot": 0})
    assert view["legal_actions"] == [{"type": "play", "slot": 0}]
    assert choose("hard", view, random.Random(0)) == {"type": "play", "slot": 0}


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_no_level_is_asked_when_a_single_action_is_legal(level: str, monkeypatch: Any) -> None:
    state = fixed(2, [["3c", "6h", "7s"], ["4h", "Qh", "Js"]], start_score=[11, 11])
    for _ in range(4):  # a blind mão de ferro: seat 1 then holds one card
        state, _ = engine.apply(state, state.to_act[0], {"type": "play", "slot": 0})
    view = engine.view(state, state.to_act[0])
    assert view["legal_actions"] == [{"type": "play", "slot": 0}]
    monkeypatch.setitem(BOTS, level, lambda *a, **k: pytest.fail("asked"))
    assert choose(level, view, random.Random(0)) == {"type": "play", "slot": 0}


def test_a_level_asked_with_two_legal_actions_decides_between_them(monkeypatch: Any) -> None:
    state, _ = engine.new_match(players=2, seed=1, options={"first_dealer": 1})
    view = engine.view(state, 0)
    monkeypatch.setitem(BOTS, "easy", lambda view, rng, budget_ms: view["legal_actions"][-1])
    assert choose("easy", view, random.Random(0), budget_ms=5) == view["legal_actions"][-1]
