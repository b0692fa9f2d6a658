"""bench/headroom.py: its rows give the hard level's search the true cards for the decisions
they name, and nothing else."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from bench import arena, headroom
from engine.bots.beliefs import world_weight
from engine.bots.hard import search

FAR = headroom.FAR_CAP_MS


def advance(players: int, seed: int, until: Any) -> engine.MatchState:
    """A match of `players` played by easy from `seed` until `until(state)` holds."""
    state, _ = engine.new_match(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(500):
        if until(state):
            return state
        seat = state.to_act[0]
        action = engine.bots.choose("easy", engine.view(state, seat), rng)
        state, _ = engine.apply(state, seat, action)
    raise AssertionError("the position never came")


@pytest.mark.parametrize("players", [4, 6])
def test_a_partners_world_holds_its_true_cards_and_still_fits_the_view(players: int) -> None:
    for seed in range(12):
        state = advance(players, seed, lambda s: s.hand.special is None
                        and len(s.hand.tricks) == 2 and s.to_act and s.hand.pending is None)
        seat = state.to_act[0]
        view = engine.view(state, seat)
        world = headroom.partners_dealt(state)(view, random.Random(seed), 5)
        for partner in range(seat % 2, players, 2):
            assert world.hand.hands[partner] == state.hand.hands[partner]
        assert engine.view(world, seat) == view
        placed = [c for held in world.hand.hands for c in held]
        placed += [c for t in world.hand.tricks for _, c, _ in t.plays]
        assert len(placed) == len(set(placed))


def test_each_decision_is_told_as_the_rows_read_it() -> None:
    state, _ = engine.new_match(players=2, seed=3, options={"first_dealer": 1})
    assert headroom.spot(engine.view(state, 0)) == "bet"
    state, _ = engine.apply(state, 0, {"type": "raise", "to": 3})
    assert headroom.spot(engine.view(state, 1)) == "answer"
    state, _ = engine.apply(state, 1, {"type": "accept"})
    assert headroom.spot(engine.view(state, 0)) == "card"  # its side called last


def test_only_the_named_kind_of_decision_is_searched_on_the_true_deal() -> None:
    state, _ = engine.new_match(players=2, seed=4, options={"first_dealer": 1})
    state, _ = engine.apply(state, 0, {"type": "raise", "to": 3})
    view = engine.view(state, 1)
    assert state.hand.hands == [["2c", "Ks", "Jh"], ["4d", "Jd", "3h"]]

    def decided(know: str, seed: int) -> dict[str, Any]:
        bot = headroom.knowing(know, state, 12)
        return bot(view, random.Random(seed))

    differ = 0
    for seed in range(6):
        truth = search(view, view["legal_actions"], random.Random(seed), world_weight,
                       budget_ms=FAR, playouts=12, draw=headroom.true_deal(state))
        drawn = search(view, view["legal_actions"], random.Random(seed), world_weight,
                       budget_ms=FAR, playouts=12)
        assert decided("answers", seed) == decided("all", seed) == truth
        assert decided("cards", seed) == decided("none", seed) == drawn
        assert truth == {"type": "refuse"}  # 2c Ks Jh against 4d Jd 3h: the raise wins
        differ += truth != drawn
    assert differ  # drawn worlds cannot see it


def test_the_none_row_is_the_hard_level_as_the_arena_plays_it() -> None:
    for ruleset, seed in (("paulista", 7100), ("mineiro", 7101)):
        _, _, _, wins = headroom.duplicate(("none", "easy", 2, ruleset, seed, 24,
                                            arena.FROZEN_COMMIT))
        _, _, _, arena_wins = arena.duplicate(("hard", "easy", 2, ruleset, seed, 24, FAR,
                                               arena.FROZEN_COMMIT))
        assert wins == arena_wins


def test_a_run_reports_every_row_and_the_partner_row_is_none_with_two_players(
        capsys: Any) -> None:
    assert headroom.main(["--players", "2", "--pairs", "1", "--playouts", "24",
                          "--know", "none,partner,all", "--jobs", "1"]) == 0
    rows = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["rows"]
    assert set(rows) == {"none", "partner", "all"}
    assert all(row["matches"] == 4 for row in rows.values())
    assert rows["partner"]["win_rate"] == rows["none"]["win_rate"]


def test_a_read_world_gives_the_raiser_cards_of_its_true_strength_only() -> None:
    state, _ = engine.new_match(players=2, seed=4, options={"first_dealer": 1})
    state, _ = engine.apply(state, 0, {"type": "raise", "to": 3})
    view = engine.view(state, 1)
    read = headroom.raiser_read(state)
    worlds = [read(view, random.Random(seed), seed) for seed in range(8)]
    truth = headroom.raiser_strength(state)
    assert truth == (2, True)  # 2c Ks Jh under a Qs vira: a 2 and Jh, a top manilha
    assert all(headroom.raiser_strength(w) == truth for w in worlds)
    assert all(engine.view(w, 1) == view for w in worlds)
    assert any(w.hand.hands[0] != state.hand.hands[0] for w in worlds)  # not the true cards
