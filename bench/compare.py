#!/usr/bin/env python3
"""Compare the action throughput of this working tree with a git commit's, each against the
baseline, in one run.

    .venv/bin/python bench/compare.py                 # the working tree against HEAD
    .venv/bin/python bench/compare.py 456e81d         # ... against that commit
    .venv/bin/python bench/compare.py HEAD --rounds 6 --seconds 4
    .venv/bin/python bench/compare.py --quick         # 2 rounds of 3 s

A change to the request path is worth a few percent at a time, and one run of bench/api.py
moves by more than that from one minute to the next on a shared machine. This serves both
trees at once instead: the commit, checked out in a temporary git worktree, and the working
tree, each under gunicorn on a database of its own (migrated by that tree's code), beside
bench/api.py's baseline server, all three on one embedded PostgreSQL (or
BENCH_DATABASE_URL's server); each is driven by bench/lib/clients.py's action client (8
threads over 2 processes, two players per thread playing their own match: views, actions
with If-Match and an Idempotency-Key, a new match when one ends) or, for the baseline, its
counter client
(answering as many bytes as the working tree's actions answer, measured first), in
slices that alternate the three (A B base, then base B A, ...), so that the machine's swings
hit all three alike. A run of the same tree against itself comes out near 1.00.

Printed per side: actions per second, CPU per action of the workers, of PostgreSQL (embedded
server only) and of the client; then each tree against the baseline and the working tree
against the commit. The last line is JSON (`tree_vs_ref` is the figure to read).
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib.calls import register  # noqa: E402
from bench.lib.clients import ActionClient, CounterClient  # noqa: E402
from bench.lib.database import Postgres, libpq_url, make_counters  # noqa: E402
from bench.lib.load import ClientProcs, Load, SliceResult  # noqa: E402
from bench.lib.processes import MeasuredServer  # noqa: E402
from bench.lib.report import last_line, log, options  # noqa: E402
from bench.lib.git_archive import commit_of  # noqa: E402

MIGRATE = """import sys
sys.path.insert(0, sys.argv[1])
try:
    from bench.lib.database import migrate_to_head
except ImportError:  # a commit from before bench/lib
    from bench.api import migrate_to_head
migrate_to_head(sys.argv[2])
"""
"""Run in a tree: migrates the database of argv[2] with that tree's own code."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = options(__doc__, "2 rounds of 3 s slices")
    ap.add_argument("ref", nargs="?", default="HEAD", help="the commit to compare with (HEAD)")
    ap.add_argument("--rounds", type=int, default=None, help="slices of each side (4)")
    ap.add_argument("--seconds", type=float, default=None, help="seconds per slice (4)")
    ap.add_argument("--clients", type=int, default=8, help="client threads per side (8)")
    ap.add_argument("--seed", type=int, default=7)
    return ap.parse_args(argv)


def _our_server(name: str, tree: Path, pg: Postgres, tmp: Path) -> MeasuredServer:
    """`tree`'s app on a database of its own, migrated by `tree`'s code."""
    url = pg.create_database(f"compare_{name}")
    subprocess.run([sys.executable, "-c", MIGRATE, str(tree), url], cwd=tree, check=True)
    server = MeasuredServer(name, {"DATABASE_URL": url, "TRUCO_ENV": "testing"}, tmp,
                            root=tree)
    server.wait_healthy()
    return server


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rounds = args.rounds or (2 if args.quick else 4)
    seconds = args.seconds or (3.0 if args.quick else 4.0)
    commit = commit_of(args.ref, short=True)
    tmp = Path(tempfile.mkdtemp(prefix="truco-bench-compare-"))
    worktree = tmp / "ref"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(worktree), commit],
                   cwd=ROOT, check=True)
    pg = None
    servers: list[MeasuredServer] = []
    clients: list[ClientProcs] = []
    try:
        pg = Postgres(tmp)
        pg_cpu = pg.cpu_seconds if pg.cpu_seconds() is not None else None
        log(f"bench/compare.py: the working tree against {commit}, {rounds} x {seconds:g} s"
            f" slices each, PostgreSQL {pg.version()} ({pg.kind})")
        trees = {"ref": worktree, "tree": ROOT}
        loads: dict[str, Load] = {}
        for name, tree in trees.items():
            server = _our_server(name, tree, pg, tmp)
            servers.append(server)
            players = [(register(server.port, f"a{i}", bot=True)[1],
                        register(server.port, f"b{i}", bot=True)[1])
                       for i in range(args.clients)]
            procs = ClientProcs(server.port, [ActionClient(p, args.seed + i)
                                              for i, p in enumerate(players)], 2)
            clients.append(procs)
            loads[name] = Load(server, procs, pg_cpu)
        probe = loads["tree"].run(2.0)  # (also its warm-up)
        size = round(probe.bytes / probe.count) if probe.count else 1800
        base_url = pg.create_database("compare_base")
        make_counters(base_url, args.clients)
        base = MeasuredServer("base", {"BASELINE_DSN": libpq_url(base_url),
                                       "TRUCO_ENV": "testing"}, tmp,
                              app_spec="bench._baseline_app:app")
        servers.append(base)
        base.wait_healthy()
        procs = ClientProcs(base.port, [CounterClient(i, size, args.seed + i)
                                        for i in range(args.clients)], 2)
        clients.append(procs)
        loads["base"] = Load(base, procs, pg_cpu)
        for name in ("ref", "base"):
            loads[name].run(2.0)  # warm-up
        totals = {name: SliceResult() for name in loads}
        order = ["ref", "tree", "base"]
        for r in range(rounds):
            line = []
            for name in (order if r % 2 == 0 else order[::-1]):
                res = loads[name].run(seconds)
                totals[name].add(res)  # (requests, time and CPU add up)
                line.append(f"{name} {res.ok / res.elapsed:,.0f}/s")
            log(f"  round {r + 1}: " + ", ".join(line))
        out: dict[str, Any] = {"commit": commit, "rounds": rounds, "seconds_per_slice": seconds}
        for name, t in totals.items():
            rps = t.ok / t.elapsed if t.elapsed else 0.0

            def per(cpu: float | None) -> float | None:
                return round(1000 * cpu / t.ok, 3) if t.ok and cpu is not None else None

            out[name] = {"rps": round(rps, 1), "errors": t.errors,
                         "worker_cpu_ms": per(t.server_cpu), "pg_cpu_ms": per(t.pg_cpu),
                         "client_cpu_ms": per(t.client_cpu)}
            log(f"{name:5} {rps:8,.1f} actions/s, errors {t.errors}; CPU per action:"
                f" workers {out[name]['worker_cpu_ms']} ms, PostgreSQL"
                f" {out[name]['pg_cpu_ms']} ms, client {out[name]['client_cpu_ms']} ms")
        for name in ("ref", "tree"):
            out[f"{name}_ratio"] = round(out[name]["rps"] / out["base"]["rps"], 3)
        out["tree_vs_ref"] = round(out["tree"]["rps"] / out["ref"]["rps"], 3)
        log(f"against the baseline: {commit} {out['ref_ratio']:.3f}x, working tree"
            f" {out['tree_ratio']:.3f}x; the working tree against {commit}:"
            f" {out['tree_vs_ref']:.3f}x")
        last_line(out)
        return 1 if any(out[n]["errors"] for n in loads) else 0
    finally:
        for procs in clients:
            procs.close()
        for server in servers:
            server.stop()
        if pg is not None:
            pg.stop()
        subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=ROOT,
                       check=False)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
