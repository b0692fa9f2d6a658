#!/usr/bin/env python3
"""One account's bots against another's: how long a victim's built-in bot takes to answer
while an attacker keeps six-player matches of five `hard` bots moving, on a commit's code
(default `main`, before the fair share) and on this tree's.

    .venv/bin/python bench/fair_bots.py             # 20 attacker matches, 30 / 8 samples
    .venv/bin/python bench/fair_bots.py --quick     # 10 attacker matches, 12 / 4 samples
    .venv/bin/python bench/fair_bots.py --ref 88cb707

Each side is served by its own tree: gunicorn (2 gevent workers) and `python -m app.worker`,
TRUCO_ENV=development (the rate limits on), on a database of its own (BENCH_DATABASE_URL's
server, or an embedded PostgreSQL). Sides: `before` (the commit; the attacker creates
--matches matches), `fair` (this tree with the bot caps lifted: the same attacker, so only
the scheduling differs) and `capped` (this tree as configured: the attacker creates matches
until refused, i.e. at every limit).

Per side: the victim plays a 2-player match against a `random` bot, then one against a `hard`
bot; a sample is the time from the victim's action's 200 to the bot's answer (a long poll on
the view with If-None-Match), first unloaded, then while the attacker's matches move (the
attacker acts at once whenever it is its turn). Target (the issue): loaded p99 within 1.5x
the unloaded p99 plus one decision (the `hard` bot's cap, engine.bots.DEFAULT_BUDGET_MS).
The last line is JSON.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib.calls import fresh_request, register  # noqa: E402
from bench.lib.database import Postgres  # noqa: E402
from bench.lib.report import log, options  # noqa: E402
from bench.lib.stats import percentiles  # noqa: E402
from bench.lib.trees import Side, bench_run, report_sides  # noqa: E402
from engine.bots import DEFAULT_BUDGET_MS  # noqa: E402

WAIT = 30


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = options(__doc__, "10 attacker matches, fewer samples")
    ap.add_argument("--ref", default="main", help="the commit of the `before` side (main)")
    ap.add_argument("--matches", type=int, default=None, help="attacker matches (20; 10)")
    ap.add_argument("--samples", type=int, default=None, help="random-bot samples (30; 12)")
    ap.add_argument("--hard-samples", type=int, default=None, help="hard-bot samples (8; 4)")
    ap.add_argument("--sides", default="before,fair,capped")
    args = ap.parse_args(argv)
    args.matches = args.matches or (10 if args.quick else 20)
    args.samples = args.samples or (12 if args.quick else 30)
    args.hard_samples = args.hard_samples or (4 if args.quick else 8)
    return args


def call(port: int, method: str, path: str, token: str, body: object = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], dict[str, Any]]:
    data = None if body is None else json.dumps(body).encode()
    extra = {"Authorization": f"Bearer {token}", **(headers or {})}
    if data is not None:
        extra["Content-Type"] = "application/json"
    status, hdrs, raw = fresh_request(port, method, path, data, extra, timeout=WAIT + 10)
    return status, hdrs, (json.loads(raw) if raw else {})


def bot_answers(port: int, token: str, level: str, count: int, rng: random.Random) -> list[float]:
    """`count` times from the victim's action to its `level` bot's answer."""
    samples: list[float] = []
    match = None
    while len(samples) < count:
        if match is None:
            status, _, view = call(port, "POST", "/v1/matches", token,
                                   {"bots": [{"seat": 1, "level": level}],
                                    "options": {"first_dealer": 1}})
            assert status == 201, view
            match = view["id"]
        status, hdrs, view = call(port, "GET", f"/v1/matches/{match}", token)
        if view["status"] != "active":
            match = None
            continue
        if 0 not in view["hand"]["to_act"]:
            call(port, "GET", f"/v1/matches/{match}?wait={WAIT}", token,
                 headers={"If-None-Match": hdrs["etag"]})
            continue
        status, hdrs, view = call(port, "POST", f"/v1/matches/{match}/actions", token,
                                  rng.choice(view["legal_actions"]))
        if status == 429:
            time.sleep(1)
            continue
        assert status == 200, view
        if view["status"] == "active" and 1 in view["hand"]["to_act"]:
            began = time.perf_counter()
            call(port, "GET", f"/v1/matches/{match}?wait={WAIT}", token,
                 headers={"If-None-Match": hdrs["etag"]})
            samples.append(time.perf_counter() - began)
    return samples


class Attacker:
    """One player keeping as many six-player, five-`hard`-bot matches moving as it may
    (at most `matches`): it acts at once whenever it is its turn."""

    def __init__(self, port: int, token: str, matches: int) -> None:
        self.port, self.token, self.stop = port, token, threading.Event()
        self.created = self.refused = self.actions = 0
        self.threads = [threading.Thread(target=self._play, args=(i,), daemon=True)
                        for i in range(matches)]

    def _create(self) -> str | None:
        status, _, view = call(self.port, "POST", "/v1/matches", self.token,
                               {"players": 6, "bots": [{"seat": s, "level": "hard"}
                                                       for s in range(1, 6)]})
        if status != 201:
            self.refused += 1
            return None
        self.created += 1
        match_id: str = view["id"]
        return match_id

    def _play(self, index: int) -> None:
        rng = random.Random(index)
        match = self._create()
        while match is not None and not self.stop.is_set():
            status, hdrs, view = call(self.port, "GET", f"/v1/matches/{match}", self.token)
            if view.get("status") != "active":
                match = self._create()
                continue
            if 0 in view["hand"]["to_act"] and view["legal_actions"]:
                status, _, _ = call(self.port, "POST", f"/v1/matches/{match}/actions",
                                    self.token, rng.choice(view["legal_actions"]))
                self.actions += status == 200
                if status == 429:
                    time.sleep(1)
                continue
            call(self.port, "GET", f"/v1/matches/{match}?wait=5", self.token,
                 headers={"If-None-Match": hdrs["etag"]})

    def start(self) -> None:
        for t in self.threads:
            t.start()
            time.sleep(0.05)

    def finish(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(WAIT + 15)


def figures(values: list[float]) -> dict[str, Any]:
    return {**percentiles(values), "n": len(values)}


def run_side(name: str, tree: Path, pg: Postgres, tmp: Path, env: dict[str, str],
             args: argparse.Namespace) -> dict[str, Any]:
    side = Side(name, tree, pg, tmp, env)
    try:
        rng = random.Random(7)
        _, victim = register(side.port, "victim")
        _, attacker_token = register(side.port, "attacker")
        out: dict[str, Any] = {}
        bot_answers(side.port, victim, "random", 3, rng)  # warm-up, not counted
        for level, count in (("random", args.samples), ("hard", args.hard_samples)):
            out[f"{level}_unloaded"] = figures(bot_answers(side.port, victim, level, count, rng))
        attacker = Attacker(side.port, attacker_token, args.matches)
        attacker.start()
        time.sleep(3)  # the attacker's bots are busy
        for level, count in (("random", args.samples), ("hard", args.hard_samples)):
            out[f"{level}_loaded"] = figures(bot_answers(side.port, victim, level, count, rng))
        attacker.finish()
        out.update(attacker_matches=attacker.created, attacker_refused=attacker.refused,
                   attacker_actions=attacker.actions)
        decision = DEFAULT_BUDGET_MS / 1000  # the longest one hard decision may take
        for level in ("random", "hard"):
            bound = 1.5 * (out[f"{level}_unloaded"]["p99"] or 0) + decision
            out[f"{level}_bound_s"] = round(bound, 3)
            out[f"{level}_meets_target"] = (out[f"{level}_loaded"]["p99"] or 0) <= bound
        return out
    finally:
        side.stop()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results: dict[str, Any] = {}
    title = f"bench/fair_bots.py: attacker up to {args.matches} matches of five hard bots"
    with bench_run("truco-bench-fair-bots-", args.ref, title) as (pg, tmp, before):
        sides = {"before": (before, {}),
                 "fair": (ROOT, {"TRUCO_MAX_BOT_MATCHES": "0", "TRUCO_MAX_HARD_BOTS": "0"}),
                 "capped": (ROOT, {})}
        for name in args.sides.split(","):
            tree, env = sides[name]
            results[name] = r = run_side(name, tree, pg, tmp, env, args)
            log(f"{name:7} attacker {r['attacker_matches']} matches"
                f" ({r['attacker_refused']} refused), {r['attacker_actions']} actions")
            for level in ("random", "hard"):
                u, lo = r[f"{level}_unloaded"], r[f"{level}_loaded"]
                log(f"        {level:6} bot: unloaded p50 {u['p50']} p99 {u['p99']} s;"
                    f" loaded p50 {lo['p50']} p90 {lo['p90']} p99 {lo['p99']} s"
                    f" (target <= {r[f'{level}_bound_s']} s:"
                    f" {'met' if r[f'{level}_meets_target'] else 'missed'})")
    return report_sides(args.ref, args.quick, results)


if __name__ == "__main__":
    raise SystemExit(main())
