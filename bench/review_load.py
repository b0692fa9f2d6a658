#!/usr/bin/env python3
"""Match reviews beside the games: how long a player's built-in bot takes to answer while
other accounts' reviews keep the workers busy, against the same bot with no review queued, in
one run of this tree (gunicorn, 2 gevent workers, and `python -m app.worker`, which runs a
loop per core; TRUCO_ENV=development; BENCH_DATABASE_URL's server or an embedded PostgreSQL).

    .venv/bin/python bench/review_load.py            # 4 reviewing accounts, 30 / 8 samples
    .venv/bin/python bench/review_load.py --quick    # 2 accounts, 12 / 4 samples

Each reviewing account plays three 4-player matches against `random` bots to the end, then
asks for their reviews at once (the most one account may have waiting); the victim's samples
are taken while those reviews are worked out. A sample is the time from the victim's action's
200 to its bot's answer (a long poll on the view). The worker gives way to a game between two
reviewed decisions, so the target is: loaded p99 within 1.5x the unloaded p99 plus one
reviewed decision (a `hard` search, engine.bots.DEFAULT_BUDGET_MS at most). The last line is
JSON: both sides' figures, their p99 ratio, how many reviews were still waiting when the last
sample was taken (above 0: the load covered the samples) and the reviews' throughput.
"""
from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fair_bots import bot_answers, call, figures  # noqa: E402
from bench.lib.calls import register  # noqa: E402
from bench.lib.database import Postgres  # noqa: E402
from bench.lib.report import last_line, log, options  # noqa: E402
from bench.lib.stats import ratio  # noqa: E402
from bench.lib.trees import Side  # noqa: E402
from engine.bots import DEFAULT_BUDGET_MS  # noqa: E402

MATCHES_PER_ACCOUNT = 3  # (app/play/reviews.MAX_PENDING)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = options(__doc__, "2 reviewing accounts, fewer samples")
    ap.add_argument("--accounts", type=int, default=None, help="reviewing accounts (4; 2)")
    ap.add_argument("--samples", type=int, default=None, help="random-bot samples (30; 12)")
    ap.add_argument("--hard-samples", type=int, default=None, help="hard-bot samples (8; 4)")
    args = ap.parse_args(argv)
    args.accounts = args.accounts or (2 if args.quick else 4)
    args.samples = args.samples or (12 if args.quick else 30)
    args.hard_samples = args.hard_samples or (4 if args.quick else 8)
    return args


def played_match(port: int, token: str, seed: int) -> str:
    """A 4-player match of `token` and three `random` bots, played to its end at random."""
    rng = random.Random(seed)
    status, _, view = call(port, "POST", "/v1/matches", token,
                           {"players": 4, "visibility": "private",
                            "bots": [{"seat": s, "level": "random"} for s in (1, 2, 3)]})
    assert status == 201, view
    match: str = view["id"]
    while view["status"] == "active":
        if view["legal_actions"]:
            status, _, view = call(port, "POST", f"/v1/matches/{match}/actions?wait=20",
                                   token, rng.choice(view["legal_actions"]))
            if status == 429:
                time.sleep(1)
                status, _, view = call(port, "GET", f"/v1/matches/{match}", token)
            assert status == 200, view
        else:
            _, _, view = call(port, "GET", f"/v1/matches/{match}?wait=5", token)
    return match


def reviews_waiting(port: int, asked: list[tuple[str, str]]) -> tuple[int, int]:
    """(reviews not done, decisions reviewed so far) of `asked` ((match, token) pairs)."""
    waiting = decisions = 0
    for match, token in asked:
        _, _, review = call(port, "GET", f"/v1/matches/{match}/review", token)
        waiting += review["status"] != "done"
        decisions += len(review["decisions"])
    return waiting, decisions


def run(args: argparse.Namespace, pg: Postgres, tmp: Path) -> dict[str, Any]:
    side = Side("reviews", ROOT, pg, tmp, {})
    try:
        rng = random.Random(7)
        _, victim = register(side.port, "victim")
        out: dict[str, Any] = {}
        bot_answers(side.port, victim, "random", 3, rng)  # warm-up, not counted
        for level, count in (("random", args.samples), ("hard", args.hard_samples)):
            out[f"{level}_unloaded"] = figures(bot_answers(side.port, victim, level, count, rng))
        tokens = [register(side.port, f"reviewer {i}")[1] for i in range(args.accounts)]
        finished: list[tuple[str, str]] = []
        lock = threading.Lock()

        def play(index: int, token: str) -> None:
            made = played_match(side.port, token, index)
            with lock:
                finished.append((made, token))
        threads = [threading.Thread(target=play, args=(a * MATCHES_PER_ACCOUNT + m, token))
                   for a, token in enumerate(tokens) for m in range(MATCHES_PER_ACCOUNT)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        log(f"{len(finished)} matches played to the end by {args.accounts} accounts")
        began = time.perf_counter()
        for match, token in finished:
            status, _, _ = call(side.port, "POST", f"/v1/matches/{match}/review", token)
            assert status == 202, status
        time.sleep(1.0)  # (the workers are at it)
        for level, count in (("random", args.samples), ("hard", args.hard_samples)):
            out[f"{level}_loaded"] = figures(bot_answers(side.port, victim, level, count, rng))
        out["reviews_waiting_after_samples"], _ = reviews_waiting(side.port, finished)
        while (left := reviews_waiting(side.port, finished))[0]:
            time.sleep(0.5)
        seconds = time.perf_counter() - began
        out.update(reviews=len(finished), reviewed_decisions=left[1],
                   reviews_seconds=round(seconds, 1),
                   decisions_per_s=round(left[1] / seconds, 1))
        decision = DEFAULT_BUDGET_MS / 1000
        for level in ("random", "hard"):
            loaded, unloaded = out[f"{level}_loaded"]["p99"], out[f"{level}_unloaded"]["p99"]
            found = ratio(loaded, unloaded)
            out[f"{level}_p99_ratio"] = None if found is None else round(found, 2)
            out[f"{level}_bound_s"] = round(1.5 * (unloaded or 0) + decision, 3)
            out[f"{level}_meets_target"] = (loaded or 0) <= out[f"{level}_bound_s"]
        return out
    finally:
        side.stop()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="truco-bench-reviews-"))
    pg = None
    try:
        pg = Postgres(tmp)
        log(f"bench/review_load.py: {args.accounts} accounts' reviews beside a player's bots;"
            f" PostgreSQL {pg.version()}")
        out = run(args, pg, tmp)
    finally:
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    for level in ("random", "hard"):
        u, lo = out[f"{level}_unloaded"], out[f"{level}_loaded"]
        log(f"{level:6} bot: no review p50 {u['p50']} p99 {u['p99']} s; reviews running p50"
            f" {lo['p50']} p99 {lo['p99']} s (ratio {out[f'{level}_p99_ratio']}; target <="
            f" {out[f'{level}_bound_s']} s: {'met' if out[f'{level}_meets_target'] else 'missed'})")
    log(f"{out['reviews']} reviews, {out['reviewed_decisions']} decisions in"
        f" {out['reviews_seconds']} s ({out['decisions_per_s']} a second); still waiting after"
        f" the samples: {out['reviews_waiting_after_samples']}")
    last_line({"quick": args.quick, **out})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
