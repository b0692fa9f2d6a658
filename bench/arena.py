#!/usr/bin/env python3
"""Arena: the built-in bot levels against each other, in duplicate matches.

    python3 bench/arena.py            # full run (default hard budget), about 10 minutes on 2 cores
    python3 bench/arena.py --quick    # about 2 minutes: fewer matches, reduced hard budget

Every pairing plays, for 2 and 4 players and both rulesets, matches in duplicate: each match
seed is played twice with the levels' seats swapped (level A on team 0, then on team 1). The
seed fixes the first dealer and every deal (a deal is a function of the seed and the hand
number), so both teams hold the same cards in the same hands as long as the two matches run
alike, and luck largely cancels. Matches are single games to 12 with default options, played
through the engine directly (`engine.view` for the seat, then `engine.bots.choose`).

For each pairing it prints the match win rate of the stronger level with a Wilson 95%
interval, per configuration and overall. Before the matches it times the hard bot at its
default budget on a sample of decisions (alone, one process) and reports the p50 and p99.

Under --quick the hard level searches QUICK_HARD_PLAYOUTS playouts per decision instead of its
default (stated in the output); its decision time is still measured at the default.
The last line of output is one JSON object with every figure.
"""
from __future__ import annotations

import multiprocessing
import os
import platform
import random
import sys
import time
from functools import partial
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import engine
from bench.lib.report import last_line, log, options
from bench.lib.stats import percentile, wilson
from engine.bots import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS, choose, choose_with
from engine.bots.hard import choose_hard

PAIRS = (("easy", "random"), ("medium", "easy"), ("hard", "medium"), ("hard", "easy"),
         ("hard", "random"))
CONFIGS = ((2, "paulista"), (2, "mineiro"), (4, "paulista"), (4, "mineiro"))
QUICK_HARD_PLAYOUTS = 120
MAX_ACTIONS = 5000



def decide(level: str, view: dict[str, Any], rng: random.Random,
           hard_playouts: int | None) -> dict[str, Any]:
    if level == "hard":
        return choose_with(partial(choose_hard, playouts=hard_playouts), view, rng)
    return choose(level, view, rng)


def play_match(team_levels: tuple[str, str], players: int, ruleset: str, seed: int,
               hard_playouts: int | None,
               timings: list[float] | None = None) -> int:
    """The winning team of one match; `timings` collects the hard bot's decision times."""
    state, _ = engine.new_match(players=players, ruleset=ruleset, seed=seed)
    rngs = [random.Random(f"arena:{seed}:{seat}") for seat in range(players)]
    for _ in range(MAX_ACTIONS):
        if not state.to_act:
            break
        seat = state.to_act[0]
        level = team_levels[seat % 2]
        view = engine.view(state, seat)
        start = time.perf_counter()
        action = decide(level, view, rngs[seat], hard_playouts)
        if timings is not None and level == "hard" and len(view["legal_actions"]) > 1:
            timings.append((time.perf_counter() - start) * 1000)
        state, _ = engine.apply(state, seat, action)
    assert state.winner_team is not None, "a match did not end"
    return state.winner_team


def duplicate(job: tuple[str, str, int, str, int, int | None]) -> tuple[str, int, str, int]:
    """Both halves of one duplicate match: how many the first level won (0, 1 or 2)."""
    a, b, players, ruleset, seed, hard_playouts = job
    wins = int(play_match((a, b), players, ruleset, seed, hard_playouts) == 0)
    wins += int(play_match((b, a), players, ruleset, seed, hard_playouts) == 1)
    return f"{a}_vs_{b}", players, ruleset, wins


def time_hard(decisions: int, seed: int) -> list[float]:
    """Decision times (ms) of the hard bot at its default budget, against easy."""
    timings: list[float] = []
    s = seed
    while len(timings) < decisions:
        players, ruleset = CONFIGS[s % len(CONFIGS)]
        play_match(("hard", "easy"), players, ruleset, s, None, timings)
        s += 1
    return timings


def main(argv: list[str] | None = None) -> int:
    ap = options(__doc__, "a few minutes: fewer matches, "
                 f"hard at {QUICK_HARD_PLAYOUTS} playouts per decision")
    ap.add_argument("--duplicates", type=int, default=None,
                    help="duplicate pairs per pairing and configuration "
                         "(default 30, or 16 with --quick; hard pairings take half)")
    ap.add_argument("--timing-decisions", type=int, default=None,
                    help="hard decisions timed at the default budget (default 300, 120 quick)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--pairs", default=None,
                    help="only these pairings, e.g. hard_vs_easy,medium_vs_easy")
    args = ap.parse_args(argv)
    pairs = [p for p in PAIRS if args.pairs is None or f"{p[0]}_vs_{p[1]}" in args.pairs]
    dups = args.duplicates or (16 if args.quick else 30)
    hard_playouts = QUICK_HARD_PLAYOUTS if args.quick else None
    t_run = time.perf_counter()
    log(f"bench/arena.py: Python {platform.python_version()}, {args.workers} workers, "
        f"seed {args.seed}, {dups} duplicate pairs per pairing and configuration")
    log(f"hard bot: default budget {DEFAULT_PLAYOUTS} playouts, cap {DEFAULT_BUDGET_MS:g} ms; "
        + (f"QUICK RUN: matches use a reduced budget of {QUICK_HARD_PLAYOUTS} playouts"
           if args.quick else "matches use the default budget"))

    timings = time_hard(args.timing_decisions or (120 if args.quick else 300), args.seed)
    p50, p99 = percentile(timings, 0.5), percentile(timings, 0.99)
    log(f"hard decision time at the default budget over {len(timings)} decisions: "
        f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(timings):.1f} ms")

    jobs = []
    for a, b in pairs:
        count = max(2, dups // 2) if a == "hard" else dups
        for players, ruleset in CONFIGS:
            for i in range(count):
                jobs.append((a, b, players, ruleset, args.seed + i, hard_playouts))
    jobs.sort(key=lambda j: j[0] != "hard")  # the long jobs first
    results: dict[str, dict[tuple[int, str], list[int]]] = {}
    with multiprocessing.Pool(args.workers) as pool:
        for key, players, ruleset, wins in pool.imap_unordered(duplicate, jobs):
            cell = results.setdefault(key, {}).setdefault((players, ruleset), [0, 0])
            cell[0] += wins
            cell[1] += 2

    summary: dict[str, Any] = {}
    log("\nmatch win rate of the first level (duplicate pairs x 2 matches), Wilson 95%:")
    for a, b in pairs:
        key = f"{a}_vs_{b}"
        wins = sum(c[0] for c in results[key].values())
        n = sum(c[1] for c in results[key].values())
        lo, hi = wilson(wins, n)
        cells = ", ".join(f"{p}p {r[:4]} {c[0]}/{c[1]}"
                          for (p, r), c in sorted(results[key].items()))
        log(f"  {key:<17} {wins / n:6.1%} [{lo:.1%}, {hi:.1%}] of {n:4d}   ({cells})")
        summary[key] = round(wins / n, 4)
        summary[f"{key}_ci95"] = [round(lo, 4), round(hi, 4)]
        summary[f"{key}_matches"] = n
    elapsed = time.perf_counter() - t_run
    log(f"\n{elapsed:.0f} s in all")
    summary.update({"hard_decision_ms_p50": round(p50, 1), "hard_decision_ms_p99": round(p99, 1),
                    "hard_decisions_timed": len(timings), "quick": args.quick,
                    "hard_playouts_in_matches": hard_playouts or DEFAULT_PLAYOUTS,
                    "seconds": round(elapsed)})
    last_line(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
