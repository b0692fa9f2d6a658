#!/usr/bin/env python3
"""Train the expert level's betting strategy and write its table.

    python3 scripts/train_expert.py --seed 1 --iterations 1200000 --minutes 25

External-sampling MCCFR (engine/bots/cfr.py) over the abstract betting game of a 2-player
hand, both rulesets (engine/bots/abstraction.py), its cards played by --card-play (perfect,
the default and the shipped table's; easy, the table before docs/decisions/0029), in one
process; writes the average strategy to --out (default engine/bots/data/expert_table.json.gz),
every --checkpoint iterations and at the end. `meta` records the seed, the iterations done, the
card play and the declared budget (--minutes, the cap on one core). The same seed, iterations
and cap give the same bytes, as long as the cap is not what stopped the run (then
`meta.iterations` holds how many were done; pass that number to reproduce the file). Prints
progress to stderr and the elapsed time at the end.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from engine.bots.abstraction import (  # noqa: E402  (after the path is set)
    BAND_FLOORS,
    CARD_PLAYS,
    CLASS_FLOORS,
    State,
    TrucoBetting,
)
from engine.bots.cfr import Solver, normalized  # noqa: E402
from engine.bots.strategy_table import TABLE_PATH, encode  # noqa: E402


def write(solver: Solver[State], path: Path, seed: int, minutes: float | None,
          card_play: str) -> None:
    meta = {"algorithm": "external-sampling MCCFR, average strategy",
            "game": "2-player hand betting, paulista and mineiro (engine/bots/abstraction.py)",
            "card_play": card_play,
            "class_floors": list(CLASS_FLOORS), "band_floors": list(BAND_FLOORS),
            "seed": seed, "iterations": solver.iterations, "minutes_one_core": minutes,
            "infosets": len(solver.totals),
            "command": f"scripts/train_expert.py --seed {seed} --iterations {solver.iterations}"
                       + ("" if minutes is None else f" --minutes {minutes:g}")
                       + ("" if card_play == CARD_PLAYS[0] else f" --card-play {card_play}")}
    strategy = {k: normalized(v) for k, v in solver.totals.items() if sum(v) > 0.0}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(encode(meta, strategy))
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=1_500_000)
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop after this many minutes even if iterations remain")
    ap.add_argument("--checkpoint", type=int, default=250_000,
                    help="write the table every this many iterations")
    ap.add_argument("--out", type=Path, default=TABLE_PATH)
    ap.add_argument("--card-play", choices=CARD_PLAYS, default=CARD_PLAYS[0],
                    help="how the abstract game plays the cards (default %(default)s)")
    args = ap.parse_args(argv)
    solver: Solver[State] = Solver(TrucoBetting(args.card_play))
    rng = random.Random(args.seed)
    start = time.perf_counter()
    deadline = None if args.minutes is None else start + 60.0 * args.minutes
    while solver.iterations < args.iterations:
        solver.iterate(rng)
        done = solver.iterations
        if done % 10_000 == 0:
            elapsed = time.perf_counter() - start
            print(f"{done} iterations, {len(solver.totals)} infosets, {elapsed:.0f} s",
                  file=sys.stderr, flush=True)
            if deadline is not None and time.perf_counter() >= deadline:
                print("minutes cap reached", file=sys.stderr)
                break
        if done % args.checkpoint == 0:
            write(solver, args.out, args.seed, args.minutes, args.card_play)
    write(solver, args.out, args.seed, args.minutes, args.card_play)
    elapsed = time.perf_counter() - start
    print(f"wrote {args.out}: {solver.iterations} iterations, {len(solver.totals)} infosets, "
          f"{elapsed / 60:.1f} minutes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
