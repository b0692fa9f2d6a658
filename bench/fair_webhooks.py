#!/usr/bin/env python3
"""One account's silent webhook endpoints against another's: how long after its change a
victim's `match_started` webhook arrives, unloaded and while an attacker has ten endpoints
that accept and never answer, on a commit's code (default `main`) and on this tree's.

    .venv/bin/python bench/fair_webhooks.py            # 20 samples a phase, waits up to 90 s
    .venv/bin/python bench/fair_webhooks.py --quick    # 8 samples a phase, waits up to 40 s

Each side is served by its own tree: gunicorn (2 gevent workers) and `python -m app.worker`,
TRUCO_ENV=development (http and private addresses allowed for webhooks), on a database of its
own (BENCH_DATABASE_URL's server, or an embedded PostgreSQL). The victim's endpoint is a
local HTTP server that answers 204 at once; the attacker's ten are a local server that reads
each request and never answers. A sample: the victim creates a match against a `random` bot
(and resigns it); latency = the webhook's arrival minus the moment the creation was sent.
Unloaded: one sample at a time. Loaded: the attacker first creates two matches against a bot
and resigns them (every event to each of its ten endpoints), then the victim makes its
samples half a second apart; a sample not arrived when the wait ends counts as the wait.
Target (the issue): unloaded p50 under 100 ms; loaded p99 under 2 s. The last line is JSON.
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib.calls import call_json, register  # noqa: E402
from bench.lib.database import Postgres  # noqa: E402
from bench.lib.report import log, options  # noqa: E402
from bench.lib.stats import percentile, percentiles, rounded  # noqa: E402
from bench.lib.trees import Side, bench_run, report_sides  # noqa: E402
from tests.support.webhook_receiver import black_hole  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = options(__doc__, "8 samples a phase, 40 s waits")
    ap.add_argument("--ref", default="main", help="the commit of the `before` side (main)")
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--wait", type=float, default=None, help="longest wait for a sample")
    ap.add_argument("--sides", default="before,after")
    args = ap.parse_args(argv)
    args.samples = args.samples or (8 if args.quick else 20)
    args.wait = args.wait or (40.0 if args.quick else 90.0)
    return args


class Arrivals:
    """A receiver answering 204 at once, keeping when each match's webhook arrived."""

    def __init__(self) -> None:
        self.at: dict[str, float] = {}
        arrivals = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                arrivals.at.setdefault(body["data"]["match_id"], time.time())
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def hook(port: int, token: str, url: str, events: list[str] | None = None) -> None:
    body: dict[str, Any] = {"url": url}
    if events:
        body["events"] = events
    call_json(port, "POST", "/v1/me/webhooks", body, token=token, expect=201)


def bot_match(port: int, token: str) -> tuple[str, float]:
    """A match against a `random` bot, resigned at once: (its id, when it was asked for)."""
    sent = time.time()
    view = call_json(port, "POST", "/v1/matches",
                         {"bots": [{"seat": 1, "level": "random"}]}, token=token,
                         expect=201)[0]
    call_json(port, "POST", f"/v1/matches/{view['id']}/resign", {}, token=token)
    return view["id"], sent


def latencies(arrivals: Arrivals, made: list[tuple[str, float]], wait: float) -> list[float]:
    deadline = time.time() + wait
    while time.time() < deadline and not all(m in arrivals.at for m, _ in made):
        time.sleep(0.01)
    return [min(arrivals.at.get(m, sent + wait), sent + wait) - sent for m, sent in made]


def figures(values: list[float], wait: float) -> dict[str, Any]:
    return {**percentiles(values), "max": rounded(percentile(values, 1.0), 3),
            "not_arrived": sum(v >= wait for v in values), "n": len(values)}


def run_side(name: str, tree: Path, pg: Postgres, tmp: Path,
             args: argparse.Namespace) -> dict[str, Any]:
    arrivals = Arrivals()
    with black_hole() as hole:
        return _measure(name, tree, pg, tmp, args, arrivals, hole)


def _measure(name: str, tree: Path, pg: Postgres, tmp: Path, args: argparse.Namespace,
             arrivals: Arrivals, hole: Any) -> dict[str, Any]:
    side = Side(name, tree, pg, tmp, {"TRUCO_RATE_CREATE": "", "TRUCO_RATE_ACTION": ""})
    try:
        _, victim = register(side.port, "victim")
        hook(side.port, victim, f"http://127.0.0.1:{arrivals.port}/hook", ["match_started"])
        bot_match(side.port, victim)  # warm-up
        unloaded = []
        for _ in range(args.samples):
            unloaded += latencies(arrivals, [bot_match(side.port, victim)], args.wait)
        _, attacker = register(side.port, "attacker")
        for i in range(10):
            hook(side.port, attacker, hole.url(f"/a{i}"))
        for _ in range(2):
            bot_match(side.port, attacker)
        made = []
        for _ in range(args.samples):
            made.append(bot_match(side.port, victim))
            time.sleep(0.5)
        loaded = latencies(arrivals, made, args.wait)
        return {"unloaded": figures(unloaded, args.wait), "loaded": figures(loaded, args.wait),
                "unloaded_p50_under_100ms": (percentiles(unloaded)["p50"] or 0) < 0.1,
                "loaded_p99_under_2s": (percentiles(loaded)["p99"] or 0) < 2.0}
    finally:
        side.stop()
        arrivals.server.shutdown()


def phase_line(side: str, phase: str, f: dict[str, Any], wait: float) -> str:
    """One side's delivery delays in one phase, as the log shows them."""
    return (f"{side:6} {phase:8} p50 {f['p50']} p90 {f['p90']} p99 {f['p99']} max {f['max']} s;"
            f" not arrived within {wait:g} s: {f['not_arrived']} of {f['n']}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results: dict[str, Any] = {}
    title = f"bench/fair_webhooks.py: {args.samples} samples a phase"
    with bench_run("truco-bench-fair-hooks-", args.ref, title) as (pg, tmp, before):
        trees = {"before": before, "after": ROOT}
        for name in args.sides.split(","):
            results[name] = r = run_side(name, trees[name], pg, tmp, args)
            for phase in ("unloaded", "loaded"):
                log(phase_line(name, phase, r[phase], args.wait))
    return report_sides(args.ref, args.quick, results)


if __name__ == "__main__":
    raise SystemExit(main())
