#!/usr/bin/env python3
"""Arena: the built-in bot levels against each other, in duplicate matches.

    python3 bench/arena.py                 # full run (default hard budget), 2 jobs
    python3 bench/arena.py --quick         # a few minutes: fewer matches, reduced hard budget
    python3 bench/arena.py --pairs hard_vs_frozen_hard --players 2 --duplicates 40 --jobs 1

Every pairing plays, for 2 and 4 players (6 with --players 6) and both rulesets, matches in
duplicate: each match seed is played twice with the levels' seats swapped (level A on team 0,
then on team 1). The seed fixes the first dealer and every deal (a deal is a function of the
seed and the hand number), so both teams hold the same cards in the same hands as long as the
two matches run alike, and luck largely cancels. Matches are single games to 12 with default
options, played through the engine directly (`engine.view` for the seat, then the level's
bot).

Pairings: each level against the ones below it; `hard` against `frozen_hard` (the hard level of
the engine pinned in bench/lib/frozen.py, or of any commit given with --frozen) and against the
exploiters of bench/lib/exploiters.py; the `expert` candidate (engine/bots/expert.py, not
offered by the service: docs/bots.md) against `hard`, `medium`, `easy` and the exploiters
(under --quick, `hard` and `medium` only).
For each pairing it prints the match win rate of the first level with a Wilson 95% interval,
per configuration and overall. Before the matches it times each searching level in
the run (hard, frozen_hard, expert) at its default budget on a sample of decisions against
easy and reports the p50 and p99.

Under --quick the hard levels (hard, frozen_hard) search QUICK_HARD_PLAYOUTS playouts per
decision instead of their default (stated in the output); decision times are still measured at
the default. The last line of output is one JSON object with every figure.
"""
from __future__ import annotations

import os
import platform
import random
import sys
import time
from collections.abc import Callable
from functools import cache, partial
from typing import Any, NamedTuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import engine  # noqa: E402  (after the path is set)
from bench.lib.exploiters import EXPLOITERS  # noqa: E402
from bench.lib.frozen import (  # noqa: E402
    FROZEN_COMMIT,
    add_frozen_option,
    frozen_bot,
    frozen_commit,
)
from bench.lib.pool import run_all  # noqa: E402
from bench.lib.report import last_line, log, options  # noqa: E402
from bench.lib.stats import percentile, rounded, wilson  # noqa: E402
from engine.bots import (  # noqa: E402
    BOTS,
    DEFAULT_BUDGET_MS,
    DEFAULT_PLAYOUTS,
    READING_LEVELS,
    SEARCHING_LEVELS,
    choose_with,
    late_answers,
)
from engine.bots.expert import choose_expert  # noqa: E402
from engine.bots.hard import choose_hard  # noqa: E402
from engine.state import MatchState  # noqa: E402

LADDER = (("easy", "random"), ("medium", "easy"), ("hard", "medium"), ("hard", "easy"),
          ("hard", "random"))
"""Each level against the ones below it: the pairings of every run."""
HARD_CHECKS = (("hard", "frozen_hard"),) + tuple(("hard", e) for e in EXPLOITERS)
EXPERT_PAIRS = (("expert", "hard"), ("expert", "medium"), ("expert", "easy")) + tuple(
    ("expert", e) for e in EXPLOITERS)
SEARCHERS = (*SEARCHING_LEVELS, "frozen_hard", "expert")
"""Levels that search: their pairings play fewer matches (each match costs more)."""
READERS = (*READING_LEVELS, "expert")
"""The levels handed the match so far (the expert reads it as `hard` does)."""
CONFIGS = ((2, "paulista"), (2, "mineiro"), (4, "paulista"), (4, "mineiro"))
SIX_PLAYER_CONFIGS = ((6, "paulista"), (6, "mineiro"))
"""Only with --players 6: issue 24's measures are 2- and 4-player, and 6-player matches are
the slowest."""
QUICK_HARD_PLAYOUTS = 120
MAX_ACTIONS = 5000
FAR_CAP_MS = 100_000.0
"""A clock cap per decision far enough that only the searching levels' work budget decides
(the diagnostic tools' matches)."""

Bot = Callable[..., dict[str, Any]]


QUICK_EXPERT_PAIRS = (("expert", "hard"), ("expert", "medium"))
"""The expert's pairings of a --quick run."""


def all_pairs(quick: bool = False) -> tuple[tuple[str, str], ...]:
    """Every pairing a run plays (a --quick one, with `quick`)."""
    return LADDER + HARD_CHECKS + (QUICK_EXPERT_PAIRS if quick else EXPERT_PAIRS)


@cache
def bot_for(level: str, hard_playouts: int | None, frozen: str = FROZEN_COMMIT) -> Bot:
    """The bot of `level` (built-in, frozen_hard: the hard level of commit `frozen`, or an
    exploiter), hard levels at `hard_playouts` (None: their default)."""
    if level == "hard":
        return partial(choose_hard, playouts=hard_playouts)
    if level == "frozen_hard":
        return frozen_bot("hard", frozen, playouts=hard_playouts)
    if level == "expert":
        return partial(choose_expert, playouts=hard_playouts)
    if level in EXPLOITERS:
        return EXPLOITERS[level]
    return BOTS[level]


class Decision(NamedTuple):
    """One decision of a match as `play_match` made it."""

    seat: int
    level: str
    bot: Bot
    view: dict[str, Any]
    action: dict[str, Any]
    ms: float
    """How long the bot took."""


def play_match(team_levels: tuple[str, str], players: int, ruleset: str, seed: int,
               hard_playouts: int | None, budget_ms: float | None = None,
               frozen: str = FROZEN_COMMIT,
               on_decision: Callable[[Decision], None] | None = None,
               stand_in: Callable[[MatchState, int, str], Bot | None] | None = None
               ) -> int:
    """The winning team of one match; `budget_ms` caps every decision (None: each level's
    default); frozen_hard is the hard level of commit `frozen`; `on_decision` sees every
    decision as it is made; `stand_in(state, seat, level)` may return a bot to decide the
    turn instead of the level's own (a diagnostic's bot that sees the true `state`)."""
    state, events = engine.new_match(players=players, ruleset=ruleset, seed=seed)
    rngs = [random.Random(f"arena:{seed}:{seat}") for seat in range(players)]
    for _ in range(MAX_ACTIONS):
        if not state.to_act:
            break
        seat = state.to_act[0]
        level = team_levels[seat % 2]
        bot = stand_in and stand_in(state, seat, level)
        if not bot:
            bot = bot_for(level, hard_playouts, frozen)
            if level in READERS:  # the match so far, as the worker hands it
                bot = partial(bot, history=late_answers(events, seat % 2))
        view = engine.view(state, seat)
        start = time.perf_counter()
        action = choose_with(bot, view, rngs[seat], budget_ms=budget_ms)
        if on_decision is not None:
            on_decision(Decision(seat, level, bot, view, action,
                                 (time.perf_counter() - start) * 1000))
        state, more = engine.apply(state, seat, action)
        events += more
    assert state.winner_team is not None, "a match did not end"
    return state.winner_team


Job = tuple[str, str, int, str, int, int | None, float | None, str]
"""(level A, level B, players, ruleset, seed, hard playouts, decision cap in ms, frozen_hard's
commit)."""


def duplicate(job: Job) -> tuple[str, int, str, int]:
    """Both halves of one duplicate match: how many the first level won (0, 1 or 2)."""
    a, b, players, ruleset, seed, hard_playouts, cap, frozen = job
    wins = int(play_match((a, b), players, ruleset, seed, hard_playouts, cap, frozen) == 0)
    wins += int(play_match((b, a), players, ruleset, seed, hard_playouts, cap, frozen) == 1)
    return f"{a}_vs_{b}", players, ruleset, wins


def time_level(level: str, decisions: int, seed: int, configs: tuple[tuple[int, str], ...],
               frozen: str = FROZEN_COMMIT) -> list[float]:
    """Decision times (ms) of `level` at its default budget, against easy (decisions with more
    than one legal action)."""
    times: list[float] = []

    def timed(decision: Decision) -> None:
        if decision.level == level and len(decision.view["legal_actions"]) > 1:
            times.append(decision.ms)

    s = seed
    while len(times) < decisions:
        players, ruleset = configs[s % len(configs)]
        play_match((level, "easy"), players, ruleset, s, None, None, frozen, timed)
        s += 1
    return times


def pair_duplicates(pair: tuple[str, str], dups: int, quick: bool) -> int:
    """Duplicate pairs per configuration for `pair`: halved for each searching level in it,
    and halved again under --quick for the pairings beyond the ladder."""
    count: int = dups // 2 ** sum(level in SEARCHERS for level in pair)
    if quick and pair not in LADDER:
        count //= 2
    return max(2, count)


def run_jobs(jobs: list[Job], workers: int) -> dict[str, dict[tuple[int, str], list[int]]]:
    """Every duplicate job played (in this process when `workers` is 1): wins and matches per
    pairing and configuration."""
    results: dict[str, dict[tuple[int, str], list[int]]] = {}
    for key, players, ruleset, wins in run_all(duplicate, jobs, workers,
                                               "duplicate pairs played"):
        cell = results.setdefault(key, {}).setdefault((players, ruleset), [0, 0])
        cell[0] += wins
        cell[1] += 2
    return results


def configs_for(players: int | None) -> tuple[tuple[int, str], ...]:
    """The (players, ruleset) configurations a run plays: 2 and 4 players unless one count is
    asked for (6 is played only when asked)."""
    if players is None:
        return CONFIGS
    return tuple(c for c in CONFIGS + SIX_PLAYER_CONFIGS if c[0] == players)


def main(argv: list[str] | None = None) -> int:
    ap = options(__doc__, "a few minutes: fewer matches, "
                 f"hard levels at {QUICK_HARD_PLAYOUTS} playouts per decision")
    ap.add_argument("--duplicates", type=int, default=None,
                    help="duplicate pairs per pairing and configuration (default 30, or 16 "
                         "with --quick; halved for each searching level in the pairing)")
    ap.add_argument("--timing-decisions", type=int, default=None,
                    help="decisions timed per searching level at its default budget "
                         "(default 300, 120 quick; 0: none)")
    ap.add_argument("--jobs", "--workers", dest="jobs", type=int,
                    default=min(2, os.cpu_count() or 1),
                    help="processes playing matches (1: this process only)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--players", type=int, choices=(2, 4, 6), default=None,
                    help="only this player count (default: 2 and 4; 6 only when asked)")
    ap.add_argument("--budget-ms", type=float, default=None,
                    help="time cap per decision in the matches (default: each level's own; "
                         "a far cap plays the searching levels at their work budget alone)")
    add_frozen_option(ap)
    ap.add_argument("--pairs", default=None,
                    help="only these pairings, e.g. hard_vs_frozen_hard,expert_vs_hard")
    args = ap.parse_args(argv)
    known = {f"{a}_vs_{b}": (a, b) for a, b in all_pairs()}
    wanted = ([f"{a}_vs_{b}" for a, b in all_pairs(args.quick)] if args.pairs is None
              else args.pairs.split(","))
    unknown = [k for k in wanted if k not in known]
    if unknown:
        ap.error(f"unknown pairing(s) {', '.join(unknown)}; known: {', '.join(known)}")
    pairs = [known[k] for k in wanted]
    uses_frozen = any("frozen_hard" in pair for pair in pairs)
    # other runs need neither git nor the history
    frozen = frozen_commit(ap, args.frozen) if uses_frozen else args.frozen
    configs = configs_for(args.players)
    dups = args.duplicates or (16 if args.quick else 30)
    hard_playouts = QUICK_HARD_PLAYOUTS if args.quick else None
    t_run = time.perf_counter()
    log(f"bench/arena.py: Python {platform.python_version()}, {args.jobs} jobs, "
        f"seed {args.seed}, {dups} duplicate pairs per pairing and configuration "
        f"(halved for each searching level), players {args.players or '2 and 4'}")
    log(f"hard bot: default budget {DEFAULT_PLAYOUTS} playouts, cap {DEFAULT_BUDGET_MS:g} ms; "
        + (f"QUICK RUN: hard levels play matches at {QUICK_HARD_PLAYOUTS} playouts"
           if args.quick else "matches use the default budget"))
    if args.budget_ms is not None:
        log(f"matches cap every decision at {args.budget_ms:g} ms (timings use the default)")
    if uses_frozen:
        log(f"frozen_hard: the hard level of engine/ at commit {frozen}"
            + ("" if frozen == FROZEN_COMMIT else f" (--frozen {args.frozen})"))

    summary: dict[str, Any] = {}
    timed = [lv for lv in SEARCHERS if any(lv in p for p in pairs)]
    decisions = args.timing_decisions
    for level in timed if decisions != 0 else []:
        timings = time_level(level, decisions or (120 if args.quick else 300), args.seed,
                             configs, frozen)
        p50, p99 = percentile(timings, 0.5), percentile(timings, 0.99)
        log(f"{level} decision time at the default budget over {len(timings)} decisions: "
            f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(timings):.1f} ms")
        summary.update({f"{level}_decision_ms_p50": rounded(p50, 1),
                        f"{level}_decision_ms_p99": rounded(p99, 1),
                        f"{level}_decisions_timed": len(timings)})

    jobs: list[Job] = [(a, b, players, ruleset, args.seed + i, hard_playouts, args.budget_ms,
                        frozen)
            for a, b in pairs for players, ruleset in configs
            for i in range(pair_duplicates((a, b), dups, args.quick))]
    jobs.sort(key=lambda j: -sum(level in SEARCHERS for level in j[:2]))  # long jobs first
    results = run_jobs(jobs, args.jobs)

    log("\nmatch win rate of the first level (duplicate pairs x 2 matches), Wilson 95%:")
    for a, b in pairs:
        key = f"{a}_vs_{b}"
        wins = sum(c[0] for c in results[key].values())
        n = sum(c[1] for c in results[key].values())
        lo, hi = wilson(wins, n)
        cells = ", ".join(f"{p}p {r[:4]} {c[0]}/{c[1]}"
                          for (p, r), c in sorted(results[key].items()))
        log(f"  {key:<24} {wins / n:6.1%} [{lo:.1%}, {hi:.1%}] of {n:4d}   ({cells})")
        summary[key] = round(wins / n, 4)
        summary[f"{key}_ci95"] = [round(lo, 4), round(hi, 4)]
        summary[f"{key}_matches"] = n
        for (p, r), c in sorted(results[key].items()):
            summary[f"{key}_{p}p_{r}"] = [c[0], c[1]]
    elapsed = time.perf_counter() - t_run
    log(f"\n{elapsed:.0f} s in all")
    summary.update({"quick": args.quick, "seed": args.seed, "budget_ms": args.budget_ms,
                    "frozen_commit": frozen,
                    "hard_playouts_in_matches": hard_playouts or DEFAULT_PLAYOUTS,
                    "seconds": round(elapsed)})
    last_line(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
