"""The expert level: its CFR solver on Kuhn poker, its abstract game against the real engine,
its table, and its decisions: legal, blind to hidden cards, deterministic, within budget."""
from __future__ import annotations

import random
import time
from functools import partial
from typing import Any

import pytest

import engine
from engine.bots import LateAnswers, choose_with, hard
from engine.bots.abstraction import (
    ANSWER,
    BET,
    CARD_PLAYS,
    TrucoBetting,
    deal_course,
    perfect_play,
    settle,
)
from engine.bots.cfr import TERMINAL, Solver, best_response, expected_value
from engine.bots.expert import choose_expert, covers
from engine.bots.hard import choose_hard
from engine.bots.reading import key_at, replay
from engine.bots.strategy_table import decode, encode, shipped_table
from engine.cards import strengths
from engine.determinize import determinize
from engine.rules import RULESETS
from tests.support.bot_positions import hide_differently, position
from tests.support.called_bluffs import CALLERS, FOLDERS, second_trick, the_raise
from tests.support.kuhn import GAME_VALUE, Kuhn

FAST = 12
"""Playouts per card search in the many-position tests (the search is the same)."""


def decide(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """The expert's choice with a small deterministic budget and the time cap far away."""
    return choose_with(partial(choose_expert, playouts=FAST), view, random.Random(seed),
                       budget_ms=60_000)


def uniform(key: str, n: int) -> list[float]:
    return [1.0 / n] * n


def kuhn_solver(iterations: int) -> Solver[Any]:
    solver: Solver[Any] = Solver(Kuhn())
    rng = random.Random(7)
    for _ in range(iterations):
        solver.iterate(rng)
    return solver


def nash_conv(strategy: Any) -> float:
    game = Kuhn()
    return sum(best_response(game, strategy, p, game.roots())[0] for p in (0, 1))


# --- the solver, checked against a known small game -----------------------------------------

def test_cfr_finds_the_value_of_kuhn_poker() -> None:
    solver = kuhn_solver(20_000)
    assert expected_value(Kuhn(), solver.average, Kuhn().roots()) == pytest.approx(GAME_VALUE,
                                                                                  abs=0.01)


def test_the_trained_kuhn_strategy_is_hardly_exploitable_and_uniform_play_is() -> None:
    assert nash_conv(kuhn_solver(20_000).average) < 0.03
    assert nash_conv(uniform) > 0.5


def test_a_best_response_beats_the_game_value_against_a_weak_strategy() -> None:
    game = Kuhn()
    value, response = best_response(game, uniform, 0, game.roots())
    assert value > GAME_VALUE + 0.3 and response


# --- the abstract game is the real game's betting ----------------------------------------------

def hand_pair(ruleset: str, rng: random.Random) -> tuple[list[list[str]], str | None]:
    cards = rng.sample(engine.DECK, 7)
    return [cards[0:3], cards[3:6]], cards[6] if ruleset == "paulista" else None


@pytest.mark.parametrize("card_play", CARD_PLAYS)
@pytest.mark.parametrize("ruleset", ["paulista", "mineiro"])
def test_the_abstract_game_reads_each_real_decision_as_the_engine_plays_it(
        ruleset: str, card_play: str) -> None:
    rng = random.Random(ruleset)
    game = TrucoBetting(card_play)
    for _ in range(150):
        hands, vira = hand_pair(ruleset, rng)
        score = (rng.randrange(RULESETS[ruleset].special_at), rng.randrange(
            RULESETS[ruleset].special_at))
        state, _ = engine.new_match(players=2, ruleset=ruleset, seed=1, start_score=list(score),
                                    deals=[{"vira": vira, "hands": hands}],
                                    options={"first_dealer": 1})
        course = deal_course(ruleset, (hands[0], hands[1]), vira, score, card_play)
        node = settle(course, 0, 0, RULESETS[ruleset].base, -1)
        while state.hand.number == 1 and state.status == "active":
            seat = state.to_act[0]
            legal = engine.legal_actions(state, seat)
            calling = any(a["type"] == "raise" for a in legal) or state.hand.pending
            if calling:
                assert game.player(node) == seat
                structure = determinize(engine.view(state, seat), random.Random(0))
                _, now = replay(structure.hand.calls, ruleset)
                h = structure.hand
                assert key_at(structure, seat, len(h.tricks) - 1, len(h.tricks[-1].plays),
                              now) == game.infoset(node)
                names = game.actions(node)
                pick = rng.randrange(len(names))
                node = game.child(node, pick)
                if names[pick] != "play":
                    body = {"type": names[pick]}
                    state, _ = engine.apply(state, seat, next(a for a in legal
                                                              if a["type"] == body["type"]))
                    continue
            h = state.hand
            card = course.tricks[len(h.tricks) - 1].cards[len(h.tricks[-1].plays)]
            state, _ = engine.apply(state, seat, {"type": "play", "card": card})
        assert game.player(node) == TERMINAL
        last = state.last_hand
        assert last is not None
        winner, points = node[2], node[3]
        if last["reason"] == "void":
            assert winner == -1
        else:
            assert (last["winner_team"], last["points"]) == (winner, points)


def engine_result(state: engine.MatchState) -> int:
    """The hand's result for seat 0 (1 won, 0 void, -1 lost) when both seats play the rest of it
    seeing each other's cards, searched move by move through the engine's own rules."""
    if state.hand.number != 1:
        last = state.last_hand
        assert last is not None
        return 0 if last["reason"] == "void" else 1 if last["winner_team"] == 0 else -1
    seat = state.to_act[0]
    results = [engine_result(engine.apply(state, seat, action)[0])
               for action in engine.legal_actions(state, seat) if action["type"] == "play"]
    return max(results) if seat == 0 else min(results)


@pytest.mark.parametrize("ruleset", ["paulista", "mineiro"])
def test_the_abstract_card_play_is_the_engines_perfect_information_result(ruleset: str) -> None:
    rng = random.Random(f"perfect {ruleset}")
    cheapest_leads = 0
    for _ in range(40):
        hands, vira = hand_pair(ruleset, rng)
        state, _ = engine.new_match(players=2, ruleset=ruleset, seed=1,
                                    deals=[{"vira": vira, "hands": hands}],
                                    options={"first_dealer": 1, "face_down": False})
        expected = engine_result(state)
        table = strengths(ruleset, vira)
        result, line = perfect_play(hands, table, [], 0)
        assert result == expected
        course = deal_course(ruleset, (hands[0], hands[1]), vira, (0, 0))
        assert course.winner == (None if expected == 0 else 0 if expected == 1 else 1)
        assert tuple(t.cards for t in course.tricks) == line
        lead = line[0][0]
        cheapest_leads += lead == min(hands[0], key=table.__getitem__)
    assert 0 < cheapest_leads < 40  # the cheapest lead is often, not always, the best


def test_the_abstract_card_play_is_one_of_the_known_ones() -> None:
    assert TrucoBetting().card_play == "perfect"
    with pytest.raises(ValueError, match="card_play"):
        TrucoBetting("search")


# --- the table -------------------------------------------------------------------------------

def test_the_shipped_table_is_a_well_formed_strategy() -> None:
    table = shipped_table()
    assert table.meta["iterations"] > 0 and table.meta["seed"] is not None
    assert len(table.strategy) > 1000
    for key, probs in table.strategy.items():
        assert key[0] in "pm" and len(probs) in (len(BET), len(ANSWER) - 1, len(ANSWER)), key
        assert all(p >= 0.0 for p in probs) and sum(probs) == pytest.approx(1.0, abs=1e-3), key


def test_the_table_is_less_exploitable_than_uniform_play_in_the_abstract_game() -> None:
    game = TrucoBetting()
    rng = random.Random(4)
    deals = [(game.sample_root(rng), 1.0 / 150) for _ in range(150)]

    def gains(strategy: Any) -> float:
        value = expected_value(game, strategy, deals)
        return (best_response(game, strategy, 0, deals)[0] - value
                + best_response(game, strategy, 1, deals)[0] + value)

    assert 0.0 <= gains(shipped_table().mixed) < 0.8 * gains(uniform)


def test_a_table_file_depends_only_on_its_content() -> None:
    strategy = {"b": [0.25, 0.75], "a": [1 / 3, 2 / 3]}
    data = encode({"seed": 1}, strategy)
    assert encode({"seed": 1}, dict(reversed(list(strategy.items())))) == data
    assert decode(data).probabilities("a") == [0.3333, 0.6667]


def test_training_is_reproducible() -> None:
    def train() -> dict[str, list[float]]:
        solver: Solver[Any] = Solver(TrucoBetting())
        rng = random.Random(3)
        for _ in range(200):
            solver.iterate(rng)
        return solver.totals

    assert train() == train()


# --- decisions ---------------------------------------------------------------------------------

CONFIGS = [(players, ruleset, options) for players in (2, 4, 6)
           for ruleset in ("paulista", "mineiro")
           for options in ({}, {"raise_cap": "needed_points", "face_down": False})]


def positions(count: int) -> list[engine.MatchState]:
    out = []
    for i in range(count):
        players, ruleset, options = CONFIGS[i % len(CONFIGS)]
        config = {"players": players, "ruleset": ruleset, "options": options, "seed": i,
                  "start_score": [[0, 0], [5, 8], [9, 3], [11, 4], [10, 10]][i % 5]}
        out.append(position(config, 1000 + i))
    return out


def test_every_decision_is_a_legal_action() -> None:
    decisions = 0
    for i, state in enumerate(positions(120)):
        for seat in state.to_act:
            view = engine.view(state, seat)
            action = decide(view, i)
            assert action in view["legal_actions"]
            engine.apply(state, seat, action)
            decisions += 1
    assert decisions >= 120


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("ruleset", ["paulista", "mineiro"])
def test_the_expert_plays_whole_hands_legally(players: int, ruleset: str) -> None:
    state, _ = engine.new_match(players=players, ruleset=ruleset, seed=players)
    rng = random.Random(players)
    for _ in range(60):
        if not state.to_act:
            break
        seat = state.to_act[0]
        view = engine.view(state, seat)
        action = decide(view, rng.randrange(10**6))
        assert action in view["legal_actions"]
        state, _ = engine.apply(state, seat, action)


def test_the_expert_cannot_see_hidden_cards() -> None:
    for i, state in enumerate(positions(60)):
        for seat in state.to_act:
            other = hide_differently(state, seat, random.Random(i))
            view = engine.view(state, seat)
            assert engine.view(other, seat) == view
            assert decide(view, i) == decide(engine.view(other, seat), i)


def test_the_same_view_and_seed_give_the_same_action() -> None:
    for i, state in enumerate(positions(40)):
        for seat in state.to_act:
            view = engine.view(state, seat)
            assert decide(view, i) == decide(view, i)


def test_third_trick_betting_follows_the_table_mixed_strategy() -> None:
    # seat 1 wins trick 1, seat 0 trick 2 and leads trick 3 with nothing called
    deal = {"vira": "2d", "hands": [["4c", "7h", "4d"], ["5c", "6h", "Qs"]]}  # 4d: a bluff spot
    state, _ = engine.new_match(players=2, seed=5, deals=[deal], options={"first_dealer": 1})
    for seat, card in ((0, "4c"), (1, "5c"), (1, "6h"), (0, "7h")):
        state, _ = engine.apply(state, seat, {"type": "play", "card": card})
    assert state.to_act == [0] and len(state.hand.tricks) == 3
    view = engine.view(state, 0)
    structure = determinize(view, random.Random(0))
    _, now = replay(structure.hand.calls, "paulista")
    probs = shipped_table().probabilities(key_at(structure, 0, 2, 0, now))
    assert probs is not None and 0.1 < probs[1] < 0.9
    raises = sum(choose_expert(view, random.Random(s), playouts=FAST)["type"] == "raise"
                 for s in range(300))
    assert raises / 300 == pytest.approx(probs[1], abs=0.1)


def assert_decided_by_hard(view: dict[str, Any], seeds: int = 3) -> None:
    """The expert's choice at `view` is `choose_hard`'s for each of `seeds` random seeds."""
    for seed in range(seeds):
        assert choose_expert(view, random.Random(seed), playouts=FAST, budget_ms=60_000) == \
            choose_hard(view, random.Random(seed), playouts=FAST, budget_ms=60_000)


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("ruleset", ["paulista", "mineiro"])
def test_a_call_is_answered_by_the_hard_search(players: int, ruleset: str) -> None:
    answered = 0
    for deal_seed in range(3):
        state, _ = engine.new_match(players=players, ruleset=ruleset, seed=deal_seed)
        caller = state.to_act[0]
        call = next(a for a in engine.legal_actions(state, caller) if a["type"] == "raise")
        state, _ = engine.apply(state, caller, call)
        for seat in state.to_act:
            view = engine.view(state, seat)
            assert covers(view) and view["hand"]["pending"] is not None
            assert_decided_by_hard(view)
            answered += 1
    assert answered >= 3


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("ruleset", ["paulista", "mineiro"])
def test_a_first_trick_spot_that_may_raise_is_the_hard_searchs(players: int,
                                                               ruleset: str) -> None:
    for deal_seed in range(3):
        state, _ = engine.new_match(players=players, ruleset=ruleset, seed=deal_seed)
        view = engine.view(state, state.to_act[0])
        assert covers(view) and any(a["type"] == "raise" for a in view["legal_actions"])
        assert_decided_by_hard(view)


@pytest.mark.parametrize(("history", "kind"), [(CALLERS, "play"), (FOLDERS, "raise")])
def test_the_hard_search_reads_the_match_so_far_for_the_expert(
        history: LateAnswers, kind: str, monkeypatch: Any) -> None:
    # hard's search settles on its raise; against callers the weak one is dropped (0036)
    monkeypatch.setattr(hard, "hide_dump", the_raise)
    view = engine.view(second_trick(["6h", "7s"]), 0)
    assert covers(view)
    chosen = choose_expert(view, random.Random(5), playouts=60, budget_ms=60_000,
                           history=history)
    assert chosen["type"] == kind


@pytest.mark.parametrize("config", [
    {"start_score": [11, 3]}, {"start_score": [11, 11]},
    {"options": {"first_dealer": 1, "raise_cap": "no_raise_if_accept_wins"}},
    {"players": 4, "options": {"first_dealer": 3, "response_mode": "designated"}}])
def test_uncovered_hands_fall_back_to_hard(config: dict[str, Any]) -> None:
    state, _ = engine.new_match(**{"players": 2, "seed": 5, "options": {"first_dealer": 1},
                                   **config})
    view = engine.view(state, state.to_act[0])
    assert not covers(view)
    assert_decided_by_hard(view, seeds=5)


def test_a_normal_hand_with_default_options_is_covered() -> None:
    for players in (2, 4, 6):
        state, _ = engine.new_match(players=players, seed=5)
        assert covers(engine.view(state, state.to_act[0]))


def test_decisions_take_under_250_ms_at_the_99th_percentile() -> None:
    times = []
    for i, state in enumerate(positions(80)):
        for seat in state.to_act:
            view = engine.view(state, seat)
            if len(view["legal_actions"]) < 2:
                continue
            start = time.perf_counter()
            choose_expert(view, random.Random(i), playouts=60, budget_ms=60_000)
            times.append(time.perf_counter() - start)
    times.sort()
    assert len(times) >= 50
    assert times[int(0.99 * len(times))] < 0.25


def test_a_partners_call_lifts_the_weakest_card_of_the_bucket_in_4_players() -> None:
    deal = {"vira": "4d", "hands": [["5c", "3h", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                                    ["Ah", "Jc", "7c"]]}
    state, _ = engine.new_match(players=4, seed=1, deals=[deal], options={"first_dealer": 3})
    state, _ = engine.apply(state, 0, {"type": "raise", "to": 3})
    state, _ = engine.apply(state, 1, {"type": "accept"})
    for seat, card in ((0, "5c"), (1, "2c")):
        state, _ = engine.apply(state, seat, {"type": "play", "card": card})
    structure = determinize(engine.view(state, 2), random.Random(0))
    _, now = replay(structure.hand.calls, "paulista")
    signalled = key_at(structure, 2, 0, 2, now)
    structure.hand.calls = []
    assert signalled.endswith("2112") and key_at(structure, 2, 0, 2, now).endswith("1102")
