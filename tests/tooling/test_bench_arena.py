"""bench/arena.py and what it plays: the frozen engine's bots, the exploiters, the pairings."""
from __future__ import annotations

import random
import subprocess
from functools import partial
from typing import Any

import pytest

import engine
from bench import arena
from bench.lib import frozen, git_archive
from bench.lib.exploiters import always_truco, bluff_caller, late_folder, never_fold
from engine.bots import BOTS


def opening(players: int = 2, **kw: Any) -> engine.MatchState:
    state, _ = engine.new_match(players=players, seed=1,
                                options={"first_dealer": players - 1}, **kw)
    return state


def test_the_frozen_engine_is_imported_beside_todays_and_plays_in_its_matches() -> None:
    bots = frozen.load()
    assert bots.__name__ == f"{frozen.PACKAGE}.bots" and bots is not engine.bots
    assert bots.BOTS["hard"] is not BOTS["hard"]
    view = engine.view(opening(), 0)
    action = frozen.frozen_bot("hard", playouts=12)(view, random.Random(0), budget_ms=60_000)
    assert action in view["legal_actions"]


def test_a_missing_commit_is_a_clear_failure(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(frozen, "CACHE", str(tmp_path))
    with pytest.raises(frozen.FrozenUnavailable, match="cannot read engine/ at commit"):
        frozen.load("0" * 40)


def test_any_commit_can_play_as_frozen_hard_named_by_any_ref() -> None:
    head = subprocess.run(["git", "-C", git_archive.ROOT, "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    assert git_archive.commit_of("HEAD") == head and git_archive.commit_of(head[:10]) == head
    assert head.startswith(git_archive.commit_of("HEAD", short=True))
    bot = frozen.frozen_bot("hard", head, playouts=12)
    assert isinstance(bot, partial)
    assert bot.func.__module__ == f"{frozen.package_for(head)}.bots.hard"
    view = engine.view(opening(), 0)
    assert bot(view, random.Random(0), budget_ms=60_000) in view["legal_actions"]


def test_an_unknown_ref_is_refused_before_any_match(capsys: Any) -> None:
    with pytest.raises(git_archive.ArchiveUnavailable, match="no commit 'no-such-ref'"):
        git_archive.commit_of("no-such-ref")
    with pytest.raises(SystemExit) as exited:
        arena.main(["--frozen", "no-such-ref", "--pairs", "hard_vs_frozen_hard"])
    assert exited.value.code == 2 and "no commit 'no-such-ref'" in capsys.readouterr().err


def test_every_tool_refuses_an_unknown_frozen_ref_before_any_match(capsys: Any) -> None:
    from bench import betting_profile, headroom

    runs = ((betting_profile.main, ["--level", "hard", "--against", "frozen_hard"]),
            (headroom.main, ["--against", "frozen_hard"]))
    for main, args in runs:
        with pytest.raises(SystemExit) as exited:
            main([*args, "--frozen", "no-such-ref"])
        assert exited.value.code == 2 and "no commit 'no-such-ref'" in capsys.readouterr().err


def test_always_truco_raises_whenever_it_may_and_accepts_every_raise() -> None:
    state = opening()
    assert always_truco(engine.view(state, 0), random.Random(0)) == {"type": "raise", "to": 3}
    state, _ = engine.apply(state, 0, {"type": "raise", "to": 3})
    assert always_truco(engine.view(state, 1), random.Random(0)) == {"type": "raise", "to": 6}
    state, _ = engine.apply(state, 1, {"type": "raise", "to": 6})
    state, _ = engine.apply(state, 0, {"type": "raise", "to": 9})
    state, _ = engine.apply(state, 1, {"type": "raise", "to": 12})
    assert always_truco(engine.view(state, 0), random.Random(0)) == {"type": "accept"}


def weak_hands(**kw: Any) -> engine.MatchState:
    """Seat 1 holds 4s, 5h, 6d under vira Kd (the aces are manilhas): nothing of strength 7."""
    return engine.new_match(players=2, seed=1, options={"first_dealer": 1},
                            deals=[{"vira": "Kd", "hands": [["3c", "2c", "Kc"],
                                                            ["4s", "5h", "6d"]]}], **kw)[0]


def test_never_fold_accepts_what_easy_refuses() -> None:
    state, _ = engine.apply(weak_hands(), 0, {"type": "raise", "to": 3})
    view = engine.view(state, 1)
    assert BOTS["easy"](view, random.Random(0)) == {"type": "refuse"}
    assert never_fold(view, random.Random(0)) == {"type": "accept"}
    eleven = engine.view(weak_hands(start_score=[3, 11]), 1)
    assert never_fold(eleven, random.Random(0)) == {"type": "accept"}


def test_bluff_caller_accepts_late_raises_and_early_ones_only_on_a_good_card() -> None:
    early, _ = engine.apply(weak_hands(), 0, {"type": "raise", "to": 3})
    assert bluff_caller(engine.view(early, 1), random.Random(0)) == {"type": "refuse"}
    late = weak_hands()
    for seat, card in ((0, "Kc"), (1, "4s")):
        late, _ = engine.apply(late, seat, {"type": "play", "card": card})
    late, _ = engine.apply(late, 0, {"type": "raise", "to": 3})
    assert bluff_caller(engine.view(late, 1), random.Random(0)) == {"type": "accept"}


def raised_after_trick_one(seat_one: list[str], dumped: str) -> engine.MatchState:
    """Seat 0 wins trick 1 with Kc over seat 1's `dumped` (vira Kd) and raises to 3."""
    state = engine.new_match(players=2, seed=1, options={"first_dealer": 1},
                             deals=[{"vira": "Kd", "hands": [["3c", "2c", "Kc"], seat_one]}])[0]
    for seat, card in ((0, "Kc"), (1, dumped)):
        state, _ = engine.apply(state, seat, {"type": "play", "card": card})
    return engine.apply(state, 0, {"type": "raise", "to": 3})[0]


def test_late_folder_refuses_late_raises_on_one_good_thing_where_easy_accepts() -> None:
    one_good = engine.view(raised_after_trick_one(["3s", "5h", "6d"], "5h"), 1)
    assert BOTS["easy"](one_good, random.Random(0)) == {"type": "accept"}
    assert late_folder(one_good, random.Random(0)) == {"type": "refuse"}
    two_good = engine.view(raised_after_trick_one(["3s", "2h", "6d"], "6d"), 1)
    assert late_folder(two_good, random.Random(0)) == {"type": "accept"}
    early = engine.new_match(players=2, seed=1, options={"first_dealer": 1},
                             deals=[{"vira": "Kd", "hands": [["3c", "2c", "Kc"],
                                                             ["3s", "5h", "6d"]]}])[0]
    early, _ = engine.apply(early, 0, {"type": "raise", "to": 3})
    assert late_folder(engine.view(early, 1), random.Random(0)) == {"type": "accept"}


def test_every_run_measures_the_expert_candidate_against_hard_and_medium() -> None:
    full = {f"{a}_vs_{b}" for a, b in arena.all_pairs()}
    quick = {f"{a}_vs_{b}" for a, b in arena.all_pairs(quick=True)}
    assert {"hard_vs_frozen_hard", "hard_vs_always_truco", "hard_vs_never_fold",
            "hard_vs_bluff_caller", "hard_vs_late_folder", "hard_vs_easy",
            "medium_vs_easy"} <= quick <= full
    assert {"expert_vs_hard", "expert_vs_medium"} <= quick
    assert {"expert_vs_easy", "expert_vs_always_truco", "expert_vs_never_fold",
            "expert_vs_bluff_caller", "expert_vs_late_folder"} <= full - quick


def test_a_duplicate_match_of_a_level_against_an_exploiter_counts_both_halves() -> None:
    key, players, ruleset, wins = arena.duplicate(("easy", "never_fold", 2, "mineiro", 7, None,
                                                        None, frozen.FROZEN_COMMIT))
    assert (key, players, ruleset) == ("easy_vs_never_fold", 2, "mineiro") and 0 <= wins <= 2


def test_six_players_are_played_only_when_asked_for() -> None:
    assert {p for p, _ in arena.configs_for(None)} == {2, 4}
    assert arena.configs_for(6) == ((6, "paulista"), (6, "mineiro"))
    assert arena.configs_for(4) == ((4, "paulista"), (4, "mineiro"))
    key, players, ruleset, wins = arena.duplicate(("easy", "random", 6, "paulista", 3, None,
                                                        None, frozen.FROZEN_COMMIT))
    assert (key, players, ruleset) == ("easy_vs_random", 6, "paulista") and 0 <= wins <= 2
