#!/usr/bin/env python3
"""Background work two ways: our queue (the `matches` table, `due_at` + FOR UPDATE SKIP
LOCKED) against procrastinate (a PostgreSQL job library: its own tables, a job deferred per
unit), on one scratch PostgreSQL database, in the same run, alternating.

    /tmp/jobsvenv/bin/python bench/jobs.py           # 2,000 units per side and worker count
    /tmp/jobsvenv/bin/python bench/jobs.py --quick   # 400 units, about a minute

It needs procrastinate and psycopg 3, which the project does not use: install
bench/requirements.txt in a throw-away venv (python3 -m venv /tmp/jobsvenv &&
/tmp/jobsvenv/bin/pip install -r bench/requirements.txt). The database server is
BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres; its role needs
CREATEDB); a database `bench_jobs_<pid>` is made there and dropped at the end.

One unit of work is what a bot's move costs the queue: a row of `bench_matches` (id, status,
version, due_at with the partial index `WHERE due_at IS NOT NULL`, a JSONB engine state of
~3 KB) is stored by a "move", and a worker then takes it and stores the next state.

- enqueue: the move's transaction (lock the row, UPDATE state and version, commit) three ways:
  `plain` (no background work), `ours` (the same UPDATE also sets due_at, plus
  pg_notify('truco_due')), `procrastinate` (plain, plus a job deferred on the same
  connection, inside the same transaction: `task.configure(connection=...)` with the
  SQLAlchemyPsycopg2Connector, as the app (SQLAlchemy + psycopg2) would).
- work: `ours` claims the most overdue row (FOR UPDATE SKIP LOCKED ORDER BY due_at LIMIT 1),
  reads its state, UPDATEs state/version/due_at=NULL, commits; `procrastinate` runs a
  procrastinate worker (PsycopgConnector, psycopg 3) whose sync task locks the row, reads
  it and does the same UPDATE (on a psycopg2 connection, as app code would) and commits;
  procrastinate then marks the job done in a transaction of its own (delete_jobs=successful,
  so the jobs table does not grow with every move).
- throughput: N units enqueued, then 1 or 2 worker processes started at once: units/s from
  the go to the last done_at (server clock).
- latency: units enqueued at a steady rate while one worker waits (ours: LISTEN truco_due
  with a 1 s poll, as app/worker.py; procrastinate: its LISTEN/NOTIFY): done_at - enq_at.
- check: after every phase each unit's row moved exactly one version (no lost or doubled
  work).

The last line of output is one JSON object with every figure.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib.database import execute_autocommit, with_database  # noqa: E402
from bench.lib.report import last_line, options  # noqa: E402
from bench.lib.stats import percentile, ratio, rounded  # noqa: E402

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
SIDES = ("ours", "procrastinate")
TASK = "bench_step"
QUEUE = "bench"
STATE_BYTES = 3000


# ---------------------------------------------------------------- options and summaries

def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = options(__doc__, "fewer units: about a minute")
    p.add_argument("--units", type=int, help="units per side and worker count "
                   "(default 2000, 400 with --quick)")
    p.add_argument("--rounds", type=int, help="alternations of the two sides "
                   "(default 2, 1 with --quick)")
    p.add_argument("--rate", type=float, default=50.0, help="units/s in the latency phase")
    p.add_argument("--latency-seconds", type=float,
                   help="length of each side's latency phase (default 10, 4 with --quick)")
    p.add_argument("--workers", default="1,2", help="worker process counts, comma-separated")
    p.add_argument("--worker", choices=SIDES, help=argparse.SUPPRESS)  # a worker process
    p.add_argument("--db", help=argparse.SUPPRESS)
    p.add_argument("--wait", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    a.units = a.units if a.units is not None else (400 if a.quick else 2000)
    a.rounds = a.rounds if a.rounds is not None else (1 if a.quick else 2)
    if a.latency_seconds is None:
        a.latency_seconds = 4.0 if a.quick else 10.0
    try:
        a.workers = [int(w) for w in str(a.workers).split(",")]
    except ValueError:
        p.error("--workers: integers separated by commas")
    if a.units < 1 or a.rounds < 1 or a.rate <= 0 or a.latency_seconds <= 0 \
            or not a.workers or min(a.workers) < 1:
        p.error("--units, --rounds, --rate, --latency-seconds and --workers must be positive")
    return a


def latency_ms(pairs: list[tuple[float, float]]) -> dict[str, Any]:
    """p50 / p99 / max in ms of done - enqueued (seconds), rounded to 0.1 ms."""
    lat = [(done - enq) * 1000 for enq, done in pairs]
    return {"n": len(lat), "p50": rounded(percentile(lat, 0.50), 1),
            "p99": rounded(percentile(lat, 0.99), 1), "max": rounded(max(lat) if lat else None, 1)}


# ---------------------------------------------------------------- the database

def state_json() -> str:
    """A real engine state (4 players, a few moves in), padded to ~3 KB."""
    import random

    import engine

    rng = random.Random(1)
    st, _ = engine.new_match(players=4, seed=7)
    for _ in range(6):
        seat = rng.choice(list(st.to_act))
        st, _ = engine.apply(st, seat, rng.choice(engine.legal_actions(st, seat)))
    doc = st.to_json()
    doc["pad"] = ""
    doc["pad"] = "x" * max(0, STATE_BYTES - len(json.dumps(doc)))
    return json.dumps(doc)


SCHEMA = """
CREATE TABLE bench_matches (
    id text PRIMARY KEY,
    status text NOT NULL DEFAULT 'active',
    version integer NOT NULL DEFAULT 1,
    due_at timestamptz,
    state jsonb,
    enq_at timestamptz,
    done_at timestamptz
);
CREATE INDEX ix_bench_matches_due_at ON bench_matches (due_at) WHERE due_at IS NOT NULL;
"""


def unit_id(i: int) -> str:
    return f"m{i:07d}"


# ---------------------------------------------------------------- worker processes

def _ours_worker(url: str, wait: bool, state: str) -> None:
    import psycopg2
    import psycopg2.extensions

    conn = psycopg2.connect(url, application_name="bench-ours")
    cur = conn.cursor()
    listener = None
    if wait:
        listener = psycopg2.connect(url)
        listener.set_isolation_level(psycopg2.extensions.ISOLATION_LEVEL_AUTOCOMMIT)
        listener.cursor().execute("LISTEN truco_due")
    print("ready", flush=True)
    sys.stdin.readline()
    while True:
        cur.execute("SELECT id FROM bench_matches WHERE due_at <= now() AND status = 'active' "
                    "ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED")
        row = cur.fetchone()
        if row is None:
            conn.rollback()
            if listener is None:
                return
            if select.select([listener], [], [], 1.0) != ([], [], []):
                listener.poll()
                listener.notifies.clear()
            continue
        cur.execute("SELECT version, state FROM bench_matches WHERE id = %s", row)
        cur.fetchone()
        cur.execute("UPDATE bench_matches SET state = %s::jsonb, version = version + 1, "
                    "due_at = NULL, done_at = clock_timestamp() WHERE id = %s",
                    (state, row[0]))
        conn.commit()


def _procrastinate_worker(url: str, wait: bool, state: str) -> None:
    import asyncio

    import procrastinate
    import psycopg2

    conn = psycopg2.connect(url, application_name="bench-procrastinate-task")
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=url))

    @app.task(name=TASK, queue=QUEUE)
    def step(match_id: str) -> None:
        with conn.cursor() as cur:
            cur.execute("SELECT version, state FROM bench_matches WHERE id = %s FOR UPDATE",
                        (match_id,))
            cur.fetchone()
            cur.execute("UPDATE bench_matches SET state = %s::jsonb, version = version + 1, "
                        "done_at = clock_timestamp() WHERE id = %s", (state, match_id))
        conn.commit()

    async def main() -> None:
        async with app.open_async():
            print("ready", flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            await app.run_worker_async(queues=[QUEUE], wait=wait, concurrency=1,
                                       delete_jobs="successful")

    asyncio.run(main())


def worker_main(args: argparse.Namespace) -> None:
    state = state_json()
    (_ours_worker if args.worker == "ours" else _procrastinate_worker)(args.db, args.wait, state)


class Workers:
    """n worker processes of one side, started, then released together by `go`."""

    def __init__(self, side: str, n: int, url: str, wait: bool = False) -> None:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", side, "--db", url]
        if wait:
            cmd.append("--wait")
        self.procs = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True) for _ in range(n)]
        for p in self.procs:
            assert p.stdout is not None  # (stdout=PIPE)
            line = p.stdout.readline()
            if line.strip() != "ready":
                raise RuntimeError(f"{side} worker did not start: {line!r}")

    def go(self) -> None:
        for p in self.procs:
            assert p.stdin is not None  # (stdin=PIPE)
            p.stdin.write("go\n")
            p.stdin.flush()

    def join(self, timeout: float = 300) -> None:
        for p in self.procs:
            p.wait(timeout=timeout)

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


# ---------------------------------------------------------------- the parent

class Bench:
    def __init__(self, url: str, units: int) -> None:
        import procrastinate
        import sqlalchemy
        from procrastinate.contrib.sqlalchemy import SQLAlchemyPsycopg2Connector

        self.url = url
        self.units = units
        self.state = state_json()
        self.engine = sqlalchemy.create_engine(
            url.replace("postgresql://", "postgresql+psycopg2://", 1), pool_size=2)
        self.text = sqlalchemy.text
        with self.engine.begin() as c:
            c.exec_driver_sql(SCHEMA)
            c.execute(self.text("INSERT INTO bench_matches (id, state) "
                                "SELECT 'm' || lpad(g::text, 7, '0'), CAST(:s AS jsonb) "
                                "FROM generate_series(0, :n - 1) g"),
                      {"s": self.state, "n": units})
        # The app side: defers jobs on its own SQLAlchemy (psycopg2) connection.
        self.papp = procrastinate.App(connector=SQLAlchemyPsycopg2Connector())
        self.papp.open(self.engine)
        # procrastinate's own schema (`procrastinate schema --apply` does the same); through
        # this connector apply_schema() fails in 3.10 (psycopg2 reads the % of its RAISE
        # statements as parameters), so it is run as one plain statement.
        execute_autocommit(url, procrastinate.schema.SchemaManager.get_schema())

        @self.papp.task(name=TASK, queue=QUEUE)
        def step(match_id: str) -> None:  # runs in the worker processes, not here
            raise AssertionError

        self.task = step
        self.conn = self.engine.connect()
        self.procrastinate_tables = [r[0] for r in self.conn.execute(self.text(
            "SELECT tablename FROM pg_tables WHERE tablename LIKE 'procrastinate%' "
            "ORDER BY 1")).all()]
        self.procrastinate_functions = self.conn.execute(self.text(
            "SELECT count(*) FROM pg_proc WHERE proname LIKE 'procrastinate%'")).scalar()
        self.conn.rollback()

    def close(self) -> None:
        self.conn.close()
        self.papp.close()
        self.engine.dispose()

    def now(self) -> float:
        t = self.conn.execute(
            self.text("SELECT extract(epoch FROM clock_timestamp())")).scalar_one()
        self.conn.rollback()
        return float(t)

    def reset(self) -> None:
        c = self.conn
        c.execute(self.text("UPDATE bench_matches SET due_at = NULL, version = 1, "
                            "enq_at = NULL, done_at = NULL"))
        c.execute(self.text("TRUNCATE procrastinate_jobs CASCADE"))
        c.commit()
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as ac:
            ac.exec_driver_sql("VACUUM ANALYZE bench_matches")
            ac.exec_driver_sql("VACUUM ANALYZE procrastinate_jobs")

    def enqueue(self, kind: str, i: int) -> None:
        """One move's transaction on unit i: `plain`, `ours` or `procrastinate`."""
        c, mid = self.conn, unit_id(i)
        c.execute(self.text("SELECT id FROM bench_matches WHERE id = :id FOR UPDATE"),
                  {"id": mid})
        due = ", due_at = clock_timestamp()" if kind == "ours" else ""
        c.execute(self.text("UPDATE bench_matches SET state = CAST(:s AS jsonb), "
                            f"version = version + 1, enq_at = clock_timestamp(){due} "
                            "WHERE id = :id"), {"s": self.state, "id": mid})
        if kind == "ours":
            c.execute(self.text("SELECT pg_notify('truco_due', :id)"), {"id": mid})
        elif kind == "procrastinate":
            self.task.configure(connection=c).defer(match_id=mid)
        c.commit()

    def check(self, n: int, moves: int) -> int:
        """Units among the first n whose row did not move exactly `moves` versions."""
        bad = self.conn.execute(self.text(
            "SELECT count(*) FROM bench_matches WHERE id < :hi AND version <> :v"),
            {"hi": unit_id(n), "v": 1 + moves}).scalar_one()
        self.conn.rollback()
        return int(bad)

    # ---- phases

    def enqueue_cost(self, rounds: int, slice_: int = 50) -> dict[str, Any]:
        kinds = ("plain", "ours", "procrastinate")
        spent = {k: 0.0 for k in kinds}
        done = {k: 0 for k in kinds}
        self.reset()
        for r in range(rounds):
            for start in range(0, self.units, slice_):
                order = kinds if (start // slice_ + r) % 2 == 0 else kinds[::-1]
                for k in order:
                    t = time.perf_counter()
                    for i in range(start, min(self.units, start + slice_)):
                        self.enqueue(k, i)
                    spent[k] += time.perf_counter() - t
                    done[k] += min(self.units, start + slice_) - start
        us = {k: round(spent[k] / done[k] * 1e6, 1) for k in kinds}
        bad = self.check(self.units, 3 * rounds)
        return {"units": done["plain"], "us": us,
                "extra_us": {"ours": round(us["ours"] - us["plain"], 1),
                             "procrastinate": round(us["procrastinate"] - us["plain"], 1)},
                "ratio_procrastinate_to_ours": rounded(ratio(us["procrastinate"], us["ours"]), 2),
                "extra_ratio": rounded(ratio(us["procrastinate"] - us["plain"],
                                             us["ours"] - us["plain"]), 2),
                "rows_not_moved_once_per_move": bad}

    def throughput(self, side: str, workers: int) -> dict[str, Any]:
        self.reset()
        for i in range(self.units):
            self.enqueue(side, i)
        pool = Workers(side, workers, self.url)
        try:
            t0 = self.now()
            pool.go()
            pool.join()
        finally:
            pool.stop()
        last = self.conn.execute(self.text(
            "SELECT extract(epoch FROM max(done_at)), count(done_at) FROM bench_matches")).one()
        self.conn.rollback()
        done = int(last[1])
        secs = float(last[0]) - t0 if last[0] is not None else None
        return {"units": done, "seconds": secs,
                "bad": self.check(self.units, 2) + (self.units - done)}

    def latency(self, side: str, rate: float, seconds: float) -> dict[str, Any]:
        self.reset()
        n = min(self.units, int(rate * seconds))
        pool = Workers(side, 1, self.url, wait=True)
        try:
            pool.go()
            time.sleep(0.5)  # the worker is waiting before the first unit
            t0 = time.perf_counter()
            for i in range(n):
                pause = t0 + i / rate - time.perf_counter()
                if pause > 0:
                    time.sleep(pause)
                self.enqueue(side, i)
            deadline = time.time() + 30
            while time.time() < deadline:
                left = self.conn.execute(self.text(
                    "SELECT count(*) FROM bench_matches WHERE id < :hi AND done_at IS NULL"),
                    {"hi": unit_id(n)}).scalar()
                self.conn.rollback()
                if not left:
                    break
                time.sleep(0.1)
        finally:
            pool.stop()
        rows = self.conn.execute(self.text(
            "SELECT extract(epoch FROM enq_at), extract(epoch FROM done_at) FROM bench_matches "
            "WHERE id < :hi AND done_at IS NOT NULL"), {"hi": unit_id(n)}).all()
        self.conn.rollback()
        got = [(float(a), float(b)) for a, b in rows]
        out = latency_ms(got)
        out["bad"] = self.check(n, 2) + (n - len(rows))
        out["pairs"] = got
        return out


def installed(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        worker_main(args)
        return 0
    missing = [m for m in ("procrastinate", "psycopg", "psycopg2", "sqlalchemy")
               if importlib.util.find_spec(m) is None]
    if missing:  # e.g. `scripts/dev.py bench` in the project's venv: skipped, not failed
        print(f"bench/jobs.py needs {', '.join(missing)}: install bench/requirements.txt in "
              "a separate venv (see the top of bench/jobs.py); skipped")
        print(json.dumps({"bench": "jobs", "skipped": True, "missing": missing}))
        return 0
    server = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    name = f"bench_jobs_{os.getpid()}"
    execute_autocommit(server, f"CREATE DATABASE {name}")
    url = with_database(server, name)
    result: dict[str, Any] = {"bench": "jobs", "quick": args.quick, "units": args.units,
                              "rounds": args.rounds, "python": platform.python_version(),
                              "procrastinate": installed("procrastinate"),
                              "psycopg": installed("psycopg"),
                              "psycopg2": installed("psycopg2-binary") or installed("psycopg2"),
                              "sqlalchemy": installed("sqlalchemy"),
                              "load_before": round(os.getloadavg()[0], 2)}
    bench = None
    failed = False
    try:
        bench = Bench(url, args.units)
        result["state_bytes"] = len(bench.state)
        result["postgresql"] = bench.conn.execute(bench.text("SHOW server_version")).scalar()
        bench.conn.rollback()
        result["procrastinate_schema"] = {"tables": bench.procrastinate_tables,
                                          "functions": bench.procrastinate_functions}

        print(f"enqueue: {args.units} units x {args.rounds} rounds, each way, alternating",
              flush=True)
        enq = bench.enqueue_cost(args.rounds)
        result["enqueue"] = enq
        print(f"  plain {enq['us']['plain']} us   ours {enq['us']['ours']} us "
              f"(+{enq['extra_us']['ours']})   procrastinate {enq['us']['procrastinate']} us "
              f"(+{enq['extra_us']['procrastinate']})", flush=True)

        tput: dict[str, Any] = {}
        for w in args.workers:
            acc = {s: {"units": 0, "seconds": 0.0, "bad": 0} for s in SIDES}
            for r in range(args.rounds):
                for side in (SIDES if r % 2 == 0 else SIDES[::-1]):
                    got = bench.throughput(side, w)
                    acc[side]["units"] += got["units"]
                    acc[side]["seconds"] += got["seconds"] or 0.0
                    acc[side]["bad"] += got["bad"]
                    print(f"  throughput {side:13} workers={w}: {got['units']} units in "
                          f"{got['seconds']:.2f} s", flush=True)
            row: dict[str, Any] = {s: {"units_per_s": round(acc[s]["units"] / acc[s]["seconds"], 1)
                       if acc[s]["seconds"] else None, "bad": acc[s]["bad"]} for s in SIDES}
            row["ratio_ours_to_procrastinate"] = rounded(ratio(
                row["ours"]["units_per_s"], row["procrastinate"]["units_per_s"]), 2)
            tput[str(w)] = row
        result["throughput"] = tput

        lat: dict[str, Any] = {"rate_per_s": args.rate, "seconds": args.latency_seconds}
        pairs: dict[str, list[dict[str, Any]]] = {s: [] for s in SIDES}
        for r in range(args.rounds):
            for side in (SIDES if r % 2 == 0 else SIDES[::-1]):
                got = bench.latency(side, args.rate, args.latency_seconds)
                pairs[side].append(got)
                print(f"  latency {side:13}: p50 {got['p50']} ms  p99 {got['p99']} ms  "
                      f"max {got['max']} ms  (n={got['n']})", flush=True)
        for side in SIDES:
            runs = pairs[side]
            lat[side] = latency_ms([p for x in runs for p in x["pairs"]])  # all rounds
            lat[side]["bad"] = sum(x["bad"] for x in runs)
        lat["p50_ratio_procrastinate_to_ours"] = rounded(ratio(lat["procrastinate"]["p50"],
                                                               lat["ours"]["p50"]), 2)
        result["latency_ms"] = lat
        failed = bool(enq["rows_not_moved_once_per_move"]) or any(
            tput[w][s]["bad"] for w in tput for s in SIDES) or any(
            lat[s]["bad"] for s in SIDES)
    finally:
        if bench is not None:
            bench.close()
        execute_autocommit(server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    result["load_after"] = round(os.getloadavg()[0], 2)
    result["ok"] = not failed

    e = result["enqueue"]
    print()
    print("| | ours | procrastinate | ratio (procrastinate / ours) |")
    print("|---|---|---|---|")
    print(f"| enqueue, whole move transaction (µs; plain UPDATE {e['us']['plain']}) | "
          f"{e['us']['ours']} | {e['us']['procrastinate']} | {e['ratio_procrastinate_to_ours']} |")
    print(f"| enqueue, extra over the plain UPDATE (µs) | {e['extra_us']['ours']} | "
          f"{e['extra_us']['procrastinate']} | {e['extra_ratio']} |")
    for w, row in result["throughput"].items():
        rr = rounded(ratio(row["procrastinate"]["units_per_s"], row["ours"]["units_per_s"]), 2)
        print(f"| throughput, {w} worker(s) (units/s) | {row['ours']['units_per_s']} | "
              f"{row['procrastinate']['units_per_s']} | {rr} |")
    la = result["latency_ms"]
    for q in ("p50", "p99"):
        print(f"| latency at {la['rate_per_s']:g}/s, 1 worker, {q} (ms) | {la['ours'][q]} | "
              f"{la['procrastinate'][q]} |"
              f" {rounded(ratio(la['procrastinate'][q], la['ours'][q]), 2)} |")
    last_line(result, separators=(",", ":"))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
