#!/usr/bin/env python3
"""Benchmark the HTTP API against a baseline server, both under gunicorn on one PostgreSQL.

    .venv/bin/python bench/api.py                  # about three minutes, 2,000 long polls
    .venv/bin/python bench/api.py --quick          # about a minute, 500 long polls
    .venv/bin/python bench/api.py --waiters 10000  # the full long-poll measurement

The script starts everything it measures and stops it at the end (also on Ctrl-C or an error):

- PostgreSQL: an embedded server (devtools.embedded_pg) in a temporary directory, or the server
  named by BENCH_DATABASE_URL (its role needs CREATEDB; the two databases made there are
  dropped at the end). Our database is migrated to head, as tests/support/database.py does.
- Ours: ``gunicorn -c gunicorn.conf.py wsgi:app`` with TRUCO_ENV=testing (no rate limits),
  WEB_CONCURRENCY=2, bound to 127.0.0.1 on a free port.
- The baseline: ``gunicorn -c gunicorn.conf.py bench._baseline_app:app``, the same config and
  worker class (gevent, psycopg2 made cooperative), on its own database of the same server.
  See bench/_baseline_app.py: a static JSON body, one ``SELECT ... FOR UPDATE`` + ``UPDATE``
  transaction, a sleeping long poll. It is the floor of each kind of request.

Both servers get ``--graceful-timeout 3`` (GUNICORN_CMD_ARGS) so that held long polls do not
delay the teardown, and GUNICORN_WORKER_CONNECTIONS of max(2000, N + 500) for N long polls (one
worker may take them all); nothing else differs from gunicorn.conf.py. The script raises its
soft RLIMIT_NOFILE to the hard limit (the servers inherit it; it warns when that is below
N + 500) and prints the workers' limit.

The load clients (each measurement is split into slices that alternate ours and the baseline,
in ABBA order, so that a slow spell of the machine hits both; the JSON line names them in
``client`` and ``action_client``):

- GET and conditional-GET phases, both sides: wrk (``-t2 -c32`` by default: --wrk-threads,
  --connections) with a Lua script made by bench/lib/wrk.py, when ``wrk`` is on PATH. There are
  as many seated players as connections, each reading its own match: the script holds their
  path + Authorization (+ If-None-Match) and each wrk thread hands out its share in turn
  (the baseline's script holds its one static path). ``response()`` counts the statuses, so
  any answer but the phase's one status (200, or 304) is an error, and ``done()`` prints the
  figures as JSON (requests, duration, wrk's latency percentiles, which include wrk's
  correction for coordinated omission). wrk takes whole seconds: slices are rounded up.
  Without wrk (or with --no-wrk) these phases fall back to the Python client below, which says
  so: on 2 cores that client tops out near 4,000 req/s and is then the baseline's bottleneck,
  which flatters our ratios.
- Action phase: Python ``http.client`` threads (keep-alive; --clients, 8 by default) spread
  over --client-procs processes (2 by default, so that the GIL does not hold the client to
  one core), because each step parses the view's ``legal_actions``, which wrk's Lua can't do
  well. The client's CPU per action is printed beside the workers': it is what shows that
  this client is not the bottleneck.

What it measures:

1. GET: each player reads its own match as its seated player
   (``GET /v1/matches/{id}`` with a bearer token: token lookup, match load, the engine's view,
   JSON) against the baseline's ``GET /view/<size>``, a static body of the same size.
2. Conditional GETs: the same reads with ``If-None-Match`` of the current ETag (a 304)
   against the same static body (a 200).
3. Actions: each client thread has two players who play their own matches against each
   other (bots move in a background worker, which this benchmark does not run), one
   action of the seat to act per step, one of the ``legal_actions`` of its view, with
   ``If-Match`` and an ``Idempotency-Key`` as the README tells bot authors to; when the seat
   to act changed it first reads that seat's view (a GET), and when a match ends it creates
   the next one (creations and reads are counted apart, their time is inside the slice).
   Baseline: a ``GET /view/<size>`` then ``POST /counter/<k>/<size>``, a one-row
   ``SELECT ... FOR UPDATE`` + ``UPDATE`` transaction (a row per client thread, as each of
   our clients locks only its own match) answering a body of the mean size of our action
   answers.
   Requests per second, p50 and p99 latency, and ours / baseline.
4. Long polls: N idle ``GET /v1/matches/{id}?wait=60`` with ``If-None-Match`` held by a
   selectors-based raw HTTP client, a tenth of them on one match and the rest spread over nine
   others. While they wait: latency of fresh requests (a new connection each) to ``/healthz``
   and to a match view, PostgreSQL backends of our database (pg_stat_activity: they must not
   grow with N, a waiter holds no connection), the workers' memory per waiter
   (``kb_per_waiter``) and connections per worker; then a thread plays actions on another
   match (one step every 50 ms at most) from 3 s before the wake until after it, so that
   actions are served while they wait and during the wake. Then one action on the first
   match; ``wake_all_ms`` is the time from sending that POST to the last of its waiters'
   complete 200 answers, ``wake_p99_ms`` their 99th percentile; ``longpoll_waiters`` is N
   when every waiter was held (none failed, none answered early) and that p99 is within
   250 ms with the new version (else 0). The baseline holds the same number of
   ``GET /wait?wait=60`` requests (a sleeping greenlet) while its ``/healthz`` is timed: its
   memory per waiter is ``kb_per_waiter_baseline``, and ``kb_per_waiter_ratio`` ours / that
   (the target is at most 1.5).

Ratios are ours / baseline: below 1 for throughput means slower than the floor, above 1 for
latency means slower too. The client runs on the same two cores as the servers and
PostgreSQL, so the CPU used by the client, by the gunicorn workers and (embedded server only)
by every PostgreSQL process is printed beside each figure, also per request: CPU per request
is steadier than requests per second on a shared machine. The last line of output is one
JSON object with every figure; the exit status is 1 when a phase failed or saw errors.
``--logs DIR`` keeps the two servers' logs; lines that look like trouble are printed anyway.
"""
from __future__ import annotations

import argparse
import collections
import http.client
import json
import math
import os
import platform
import shutil
import sys
import tempfile
import threading
import time
import traceback
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib import procfs, wrk as wrk_client  # noqa: E402
from bench.lib.calls import (REQUEST_TIMEOUT, call_json, create_bot_match,  # noqa: E402
                             fresh_request, register)
from bench.lib.clients import ActionClient, CounterClient, GetClient  # noqa: E402
from bench.lib.database import Postgres, libpq_url, make_counters, migrate_to_head  # noqa: E402
from bench.lib.held import WAIT_SECONDS, HeldRequests, raw_get, wait_until_idle  # noqa: E402
from bench.lib.load import (PY_CLIENT, ClientProcs, Conn, Load, SliceResult,  # noqa: E402
                            WrkLoad, measure_pair, step_once)
from bench.lib.processes import MeasuredServer, raise_nofile  # noqa: E402
from bench.lib.report import Run, fmt, last_line, log, options, trouble_lines  # noqa: E402
from bench.lib.stats import ms, percent, percentile, ratio, rounded  # noqa: E402

perf_counter = time.perf_counter
WAKE_TARGET_MS = 250
"""`longpoll_waiters` counts the held long polls only when the waiters of the changed match
were all answered (with the new version) within this, at the 99th percentile."""


def phase_figures(name: str, ours: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """The JSON figures of one measured phase (`summarise`'s dicts of ours and the
    baseline's), each named `<name>_<figure>`, the baseline's with `_baseline` after it."""
    figures = {f"{name}_ratio": rounded(ratio(ours["rps"], base["rps"]), 3)}
    for figure, key, digits in (("rps", "rps", 1), ("p50_ms", "p50_ms", 2),
                                ("p99_ms", "p99_ms", 2), ("errors", "errors", None),
                                ("server_cpu_ms", "server_cpu_ms_per_request", 3),
                                ("pg_cpu_ms", "pg_cpu_ms_per_request", 3),
                                ("client_cpu_ms", "client_cpu_ms_per_request", 3)):
        for suffix, side in (("", ours), ("_baseline", base)):
            value = side[key]
            figures[f"{name}_{figure}{suffix}"] = value if digits is None else rounded(value,
                                                                                      digits)
    return figures


def probe_latencies(port: int, path: str, headers: dict[str, str], count: int,
                    until: float, gap: float = 0.02) -> tuple[list[float], int]:
    """`count` sequential requests on fresh connections (stops early at `until`)."""
    out, errors = [], 0
    for _ in range(count):
        if perf_counter() >= until:
            break
        t0 = perf_counter()
        try:
            status, _, _ = fresh_request(port, "GET", path, headers=headers)
            if status != 200:
                errors += 1
        except (OSError, http.client.HTTPException):
            errors += 1
        out.append(perf_counter() - t0)
        time.sleep(gap)
    return out, errors


class ActionProbe:
    """Actions served while the long polls are held: two players playing their own match
    (an ActionClient, one keep-alive connection) in a thread of this process, one step every
    `gap` seconds. Records when each action's answer came and how long it took."""

    def __init__(self, port: int, tokens: tuple[str, str], seed: int, gap: float = 0.05):
        self.port, self.gap = port, gap
        self.client = ActionClient(tokens, seed)
        self.res = SliceResult()
        self.actions: list[tuple[float, float]] = []  # (answered at, seconds), status 200 only
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=REQUEST_TIMEOUT + 5)

    def _run(self) -> None:
        conn = Conn(self.port)
        try:
            while not self._stop.is_set():
                ok0 = self.res.ok
                t0 = perf_counter()
                step_once(self.client, conn, self.res)
                if self.res.ok > ok0:
                    # the step's POST is its last request: its answer came just now
                    now = perf_counter()
                    self.actions.append((now, self.client.last_post_s))
                spent = perf_counter() - t0
                self._stop.wait(max(0.0, self.gap - spent))
        finally:
            conn.close()

    def between(self, t0: float, t1: float) -> list[float]:
        """Seconds taken by the actions answered between t0 and t1."""
        return [s for at, s in self.actions if t0 <= at < t1]


def long_poll_phase(ours: MeasuredServer, base: MeasuredServer, pg: Postgres, our_db: str, n: int,
                    get_match: tuple[str, str], out: dict[str, Any], seed: int = 0) -> None:
    """Held long polls on ours, fresh requests and actions meanwhile, one wake; then the
    baseline's sleeping requests."""
    groups = 10
    players = [register(ours.port, f"waiter{g}", bot=True)[1] for g in range(groups)]
    matches = [create_bot_match(ours.port, tok) for tok in players]
    actors = (register(ours.port, "lp_actor_a", bot=True)[1],
              register(ours.port, "lp_actor_b", bot=True)[1])
    # waiter i waits on match i % groups: a tenth on each; group 0's match is the one that changes
    reqs, group_of = [], []
    for i in range(n):
        g = i % groups
        view, tag = matches[g]
        reqs.append(raw_get(f"/v1/matches/{view['id']}?wait={WAIT_SECONDS}",
                            {"Authorization": f"Bearer {players[g]}",
                             "If-None-Match": str(tag)}))
        group_of.append(g)
    group0 = [i for i in range(n) if group_of[i] == 0]
    others = [i for i in range(n) if group_of[i] != 0]
    view_path, view_token = get_match
    view_headers = {"Authorization": f"Bearer {view_token}"}
    probes = 25

    idle_h, _ = probe_latencies(ours.port, "/healthz", {}, probes, perf_counter() + 10)
    idle_v, _ = probe_latencies(ours.port, view_path, view_headers, probes, perf_counter() + 10)
    fds0 = {p: procfs.open_fds(p) for p in ours.workers}
    rss0 = ours.rss_kb()
    db_idle = pg.backends(our_db)

    log(f"  ours: opening {n:,} long polls (wait={WAIT_SECONDS}, If-None-Match),"
        f" {len(group0):,} on the match that will change")
    waiters = HeldRequests(ours.port, reqs)
    prober = ActionProbe(ours.port, actors, seed)
    t_open = perf_counter()
    # every figure below must be taken before the first waiters' wait runs out
    phase_deadline = t_open + WAIT_SECONDS - 4
    waiters.start()
    woken: list[int] = []
    last = first = None
    try:
        settle_s = wait_until_idle(ours, waiters, t_open + WAIT_SECONDS - 20)
        opened_s = waiters.last_sent_at - t_open if waiters.last_sent_at else None
        early = waiters.finished
        log(f"    all sent in {fmt(opened_s, '{:.2f}')} s, server idle after"
            f" {settle_s:.2f} s; answered before any change: {early}"
            f" (failures: {dict(waiters.failed) or 'none'})")
        rss1 = ours.rss_kb()
        fds1 = {p: procfs.open_fds(p) for p in ours.workers}
        db_samples = [pg.backends(our_db)]
        wait_h, err_h = probe_latencies(ours.port, "/healthz", {}, probes, phase_deadline - 12)
        db_samples.append(pg.backends(our_db))
        wait_v, err_v = probe_latencies(ours.port, view_path, view_headers, probes,
                                        phase_deadline - 10)
        db_samples.append(pg.backends(our_db))

        # actions on another match, from now until after the wake
        t_act = perf_counter()
        prober.start()
        hold_until = min(perf_counter() + 3.0, phase_deadline - 8)
        while perf_counter() < hold_until:
            time.sleep(0.05)
        still_early = waiters.finished

        def in_use(rows: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
            return [r for r in rows if r[0] != "idle" and r[2] != "LISTEN truco"]

        def listeners(rows: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
            return [r for r in rows if r[2] == "LISTEN truco"]

        # the wake: one action on match 0 as its seated player
        view0, tag0 = matches[0]
        action = view0["legal_actions"][0]
        waiters.watch(group0)
        t_post = perf_counter()
        acted, _, _ = call_json(ours.port, "POST", f"/v1/matches/{view0['id']}/actions",
                                action, token=players[0],
                                extra={"If-Match": str(tag0),
                                       "Idempotency-Key": uuid.uuid4().hex})
        t_posted = perf_counter()
        waiters.watched_done.wait(max(1.0, min(15.0, phase_deadline - perf_counter())))
        t_woken = perf_counter()
        woken = [i for i in group0 if waiters.done_at[i]]
        last = max((waiters.done_at[i] for i in woken), default=None)
        first = min((waiters.done_at[i] for i in woken), default=None)
        time.sleep(0.3)
        prober.stop()
        statuses = collections.Counter(waiters.status[i] for i in group0)
        versions_ok = sum(1 for i in woken if waiters.status[i] == 200
                          and json.loads(waiters.body[i]).get("version") == acted["version"])
        others_answered = sum(1 for i in others if waiters.done_at[i])
        t_end = perf_counter()
    finally:
        prober.stop()
        waiters.stop()
    wake_all = None if len(woken) < len(group0) or last is None else last - t_post
    wake_times = [waiters.done_at[i] - t_post for i in woken]
    wake_p99 = percentile(wake_times, 0.99) if len(woken) == len(group0) else None
    held_actions = prober.between(t_act, t_post)
    wake_actions = prober.between(t_post, max(t_woken, last or t_woken))
    log(f"    one action on the first match: POST answered in {(t_posted - t_post) * 1000:.0f}"
        f" ms; {len(woken)}/{len(group0)} of its waiters answered"
        f" {dict(statuses)}, {versions_ok} with the new version; p99"
        f" {fmt(ms(wake_p99), '{:.0f}')} ms, the last {fmt(ms(wake_all), '{:.0f}')} ms after"
        f" the POST was sent; the other {len(others)} still waiting:"
        f" {len(others) - others_answered}; the waiters' client spent"
        f" {fmt(ms(waiters.watch_cpu), '{:.0f}')} ms of CPU meanwhile")
    log(f"    phase took {t_end - t_open:.1f} s (the waits are {WAIT_SECONDS} s)")
    db_max = max(db_samples, key=len)
    kb = (rss1 - rss0) / n
    out.update(
        waiters=n,
        waiters_open_s=rounded(opened_s, 2),
        waiters_settle_s=rounded(settle_s, 2),
        waiters_answered_early=still_early,
        waiters_failed=sum(waiters.failed.values()),
        waiters_per_worker=[fds1[p] - fds0.get(p, 0) for p in sorted(fds1)],
        idle_healthz_ms=rounded(ms(percentile(idle_h, 0.5)), 2),
        idle_view_ms=rounded(ms(percentile(idle_v, 0.5)), 2),
        waiting_healthz_ms=rounded(ms(percentile(wait_h, 0.5)), 2),
        waiting_healthz_max_ms=rounded(ms(max(wait_h, default=None) if wait_h else None), 2),
        waiting_view_ms=rounded(ms(percentile(wait_v, 0.5)), 2),
        waiting_view_max_ms=rounded(ms(max(wait_v) if wait_v else None), 2),
        waiting_probe_errors=err_h + err_v,
        waiting_probes=len(wait_h) + len(wait_v),
        waiting_actions=len(held_actions),
        waiting_action_p50_ms=rounded(ms(percentile(held_actions, 0.5)), 1),
        waiting_action_max_ms=rounded(ms(max(held_actions, default=None)
                                         if held_actions else None), 1),
        wake_actions_served=len(wake_actions),
        wake_action_max_ms=rounded(ms(max(wake_actions) if wake_actions else None), 1),
        waiting_action_errors=prober.res.errors,
        idle_db_connections=len(db_idle),
        waiting_db_connections=len(db_max),
        waiting_db_connections_in_use=max(len(in_use(s)) for s in db_samples),
        waiting_db_listeners=max(len(listeners(s)) for s in db_samples),
        waiting_kb_per_waiter=rounded(kb, 1),
        wake_waiters=len(group0),
        wake_woken=len(woken),
        wake_all_ms=rounded(ms(wake_all), 1),
        wake_p99_ms=rounded(ms(wake_p99), 1),
        kb_per_waiter=rounded(kb, 1),
        longpoll_waiters=n if wake_p99 is not None and ms(wake_p99) <= WAKE_TARGET_MS
        and versions_ok == len(group0) and not waiters.failed and not still_early else 0,
        wake_first_ms=rounded(ms(first - t_post) if first else None, 1),
        wake_post_ms=rounded(ms(t_posted - t_post), 1),
        wake_client_cpu_ms=rounded(ms(waiters.watch_cpu), 1),
        wake_after_post_answer_ms=rounded(ms(last - t_posted)
                                          if wake_all and last is not None else None, 1),
        wake_new_version=versions_ok,
        wake_others_answered=others_answered,
    )
    log(f"    fresh requests while {n:,} wait: /healthz p50"
        f" {fmt(out['waiting_healthz_ms'], '{:.1f}')}"
        f" ms (max {fmt(out['waiting_healthz_max_ms'], '{:.1f}')}; idle before:"
        f" {fmt(out['idle_healthz_ms'], '{:.1f}')}), match view p50"
        f" {fmt(out['waiting_view_ms'], '{:.1f}')} ms"
        f" (max {fmt(out['waiting_view_max_ms'], '{:.1f}')};"
        f" idle before: {fmt(out['idle_view_ms'], '{:.1f}')}); {err_h + err_v} errors")
    log(f"    actions on another match meanwhile (one every {prober.gap * 1000:.0f} ms at most):"
        f" {len(held_actions)} while they wait (p50"
        f" {fmt(out['waiting_action_p50_ms'], '{:.0f}')} ms, max"
        f" {fmt(out['waiting_action_max_ms'], '{:.0f}')}), {len(wake_actions)} during the wake"
        f" (max {fmt(out['wake_action_max_ms'], '{:.0f}')} ms); {prober.res.errors} errors")
    for sample in prober.res.error_samples:
        log(f"      action error: {sample}")
    log(f"    PostgreSQL backends of our database while they wait: {len(db_max)}"
        f" ({out['waiting_db_connections_in_use']} not idle, {out['waiting_db_listeners']}"
        f" LISTEN; before: {len(db_idle)}); workers' memory +{out['waiting_kb_per_waiter']}"
        f" KB per waiter; connections per worker {out['waiters_per_worker']}")

    # the baseline: the same number of sleeping requests, /healthz timed meanwhile
    b_idle, _ = probe_latencies(base.port, "/healthz", {}, probes, perf_counter() + 10)
    rss0 = base.rss_kb()
    log(f"  baseline: opening {n:,} held GET /wait?wait={WAIT_SECONDS}")
    bw = HeldRequests(base.port, [raw_get(f"/wait?wait={WAIT_SECONDS}", {}) for _ in range(n)])
    t_open = perf_counter()
    bw.start()
    try:
        settle_b = wait_until_idle(base, bw, t_open + WAIT_SECONDS - 20)
        rss1 = base.rss_kb()
        b_wait, b_err = probe_latencies(base.port, "/healthz", {}, probes,
                                        t_open + WAIT_SECONDS - 4)
        b_early = bw.finished
        b_failed = sum(bw.failed.values())
    finally:
        bw.stop()
    kb_b = (rss1 - rss0) / n
    out.update(
        idle_healthz_ms_baseline=rounded(ms(percentile(b_idle, 0.5)), 2),
        waiting_healthz_ms_baseline=rounded(ms(percentile(b_wait, 0.5)), 2),
        waiting_healthz_max_ms_baseline=rounded(ms(max(b_wait) if b_wait else None), 2),
        waiting_kb_per_waiter_baseline=rounded(kb_b, 1),
        kb_per_waiter_baseline=rounded(kb_b, 1),
        kb_per_waiter_ratio=rounded(ratio(kb, kb_b), 2),
        waiters_answered_early_baseline=b_early,
        waiters_failed_baseline=b_failed,
    )
    out["waiting_healthz_ratio"] = rounded(ratio(out["waiting_healthz_ms"],
                                                 out["waiting_healthz_ms_baseline"]), 2)
    log(f"    all sent, idle after {settle_b:.2f} s; /healthz p50"
        f" {fmt(out['waiting_healthz_ms_baseline'], '{:.1f}')} ms (max"
        f" {fmt(out['waiting_healthz_max_ms_baseline'], '{:.1f}')}; idle before:"
        f" {fmt(out['idle_healthz_ms_baseline'], '{:.1f}')}); answered early {b_early};"
        f" {b_err} errors, {b_failed} failed; memory +{out['waiting_kb_per_waiter_baseline']}"
        f" KB per waiter")
    log(f"  memory per waiter, ours / bare gevent: {fmt(out['kb_per_waiter'], '{:.1f}')} /"
        f" {fmt(out['kb_per_waiter_baseline'], '{:.1f}')} KB ="
        f" {fmt(out['kb_per_waiter_ratio'], '{:.2f}x')} (target: at most 1.5x)")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = options(__doc__, "about a minute, 500 long polls")
    ap.add_argument("--clients", type=int, default=8,
                    help="Python client threads of the action phase (default 8)")
    ap.add_argument("--client-procs", type=int, default=2,
                    help="processes the Python client threads are spread over (default 2)")
    ap.add_argument("--connections", type=int, default=32,
                    help="wrk connections, one seated player each (default 32)")
    ap.add_argument("--wrk-threads", type=int, default=2, help="wrk threads (default 2)")
    ap.add_argument("--no-wrk", action="store_true",
                    help="drive the GET phases with the Python client even when wrk is found")
    ap.add_argument("--seconds", type=float, default=None,
                    help="seconds per slice (default 5, or 3 with --quick; whole seconds"
                    " for wrk, rounded up)")
    ap.add_argument("--rounds", type=int, default=None,
                    help="slices of each side per measurement (default 4, or 2 with --quick)")
    ap.add_argument("--waiters", type=int, default=None,
                    help="held long polls (default 2000, or 500 with --quick)")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--logs", type=Path, default=None,
                    help="copy the two servers' logs into this directory at the end")
    args = ap.parse_args(argv)
    for name in ("clients", "client_procs", "connections", "wrk_threads"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.waiters is not None and args.waiters < 10:
        ap.error("--waiters must be at least 10 (a tenth wait on the match that changes)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    slice_s = args.seconds if args.seconds is not None else (3.0 if args.quick else 5.0)
    rounds = args.rounds if args.rounds is not None else (2 if args.quick else 4)
    n_waiters = args.waiters if args.waiters is not None else (500 if args.quick else 2000)
    warmup_s = 1.0 if args.quick else 2.0
    clients_n = args.clients
    wrk = None if args.no_wrk else shutil.which("wrk")
    t_run = perf_counter()
    # a socket per held long poll here, and up to as many in one server worker
    nofile, nofile_hard = raise_nofile(n_waiters + 500)
    worker_connections = max(2000, n_waiters + 500)

    if wrk:
        get_client = (f"{wrk_client.version(wrk)} -t{args.wrk_threads} -c{args.connections}"
                      f" (Lua: {args.connections} seated players, each reading its own match)")
    else:
        get_client = f"{PY_CLIENT} x {clients_n} in {args.client_procs} processes"
    action_client = f"{PY_CLIENT} x {clients_n} in {args.client_procs} processes"
    log(f"bench/api.py: {rounds} x {slice_s:g} s slices per side, {n_waiters:,} long polls;"
        f" Python {platform.python_version()}, {os.cpu_count()} CPUs;"
        f" RLIMIT_NOFILE {nofile} (hard {nofile_hard}); worker_connections {worker_connections}")
    log(f"  GET and 304 phases: {get_client}")
    if not wrk:
        why = "--no-wrk" if args.no_wrk else "wrk not found on PATH (apt-get install wrk)"
        log(f"  ({why}: the Python client is the bottleneck of the baseline near 4,000"
            f" req/s on 2 cores, so the GET ratios come out too kind to us)")
    log(f"  action phase: {action_client} (the client CPU per action is printed beside the"
        f" servers')")

    out: dict[str, Any] = {}
    run = Run()
    pg = ours = base = None
    procs: list[ClientProcs] = []
    tmp = Path(tempfile.mkdtemp(prefix="truco-bench-api-"))
    with run.guarded():
        t0 = perf_counter()
        pg = Postgres(tmp)
        pg_cpu = pg.cpu_seconds if pg.cpu_seconds() is not None else None
        tag = f"{os.getpid()}"
        our_db, base_db = f"bench_api_{tag}", f"bench_api_base_{tag}"
        our_url = pg.create_database(our_db)
        base_url = pg.create_database(base_db)
        log(f"PostgreSQL {pg.version()} ({pg.kind}) up in {perf_counter() - t0:.1f} s;"
            f" databases {our_db}, {base_db}")
        t0 = perf_counter()
        migrate_to_head(our_url)
        make_counters(base_url, 256)
        log(f"migrations applied in {perf_counter() - t0:.1f} s")

        t0 = perf_counter()
        conns = {"GUNICORN_WORKER_CONNECTIONS": str(worker_connections)}
        ours = MeasuredServer("ours", {"DATABASE_URL": our_url, "TRUCO_ENV": "testing",
                                       **conns}, tmp)
        base = MeasuredServer("baseline", {"BASELINE_DSN": libpq_url(base_url),
                                           "TRUCO_ENV": "testing", **conns}, tmp,
                              app_spec="bench._baseline_app:app")
        ours.wait_healthy()
        base.wait_healthy()
        limits = sorted({procfs.nofile_limit(p) for p in ours.workers + base.workers})
        log(f"servers up in {perf_counter() - t0:.1f} s: ours on :{ours.port} (workers"
            f" {ours.workers}), baseline on :{base.port} (workers {base.workers});"
            f" workers' open-file limit {limits}")

        # set-up: one player per client (wrk connection or thread), each with a match to read
        readers = args.connections if wrk else clients_n
        players_n = max(readers, clients_n)
        tokens = [register(ours.port, f"bench{i}", bot=True)[1] for i in range(players_n)]
        get_matches = [create_bot_match(ours.port, tok)[0]["id"] for tok in tokens]
        sizes = [len(fresh_request(ours.port, "GET", f"/v1/matches/{m}",
                                   headers={"Authorization": f"Bearer {tok}"})[2])
                 for m, tok in zip(get_matches, tokens)]
        view_bytes = round(sum(sizes) / len(sizes))
        out["view_bytes"] = view_bytes
        log(f"set-up: {players_n} players and matches; a match view is {view_bytes} bytes")
        tags = [fresh_request(ours.port, "GET", f"/v1/matches/{m}",
                              headers={"Authorization": f"Bearer {tok}"})[1]["etag"]
                for m, tok in zip(get_matches, tokens)]
        reads = [(f"/v1/matches/{m}", {"Authorization": f"Bearer {t}"})
                 for m, t in zip(get_matches[:readers], tokens[:readers])]
        polls = [(path, {**hdrs, "If-None-Match": tag})
                 for (path, hdrs), tag in zip(reads, tags[:readers])]
        static: list[tuple[str, dict[str, str]]] = [(f"/view/{view_bytes}", {})]

        def get_loads(entries: list[tuple[str, dict[str, str]]], expect: int,
                      name: str) -> tuple[Load, Load]:
            """Ours reading `entries` (answering `expect`), the baseline its static body."""
            if wrk:
                def side(server: MeasuredServer, ents: list[tuple[str, dict[str, str]]],
                         status: int, label: str) -> Load:
                    return Load(server, WrkLoad(wrk, server.port, ents, status,
                                                args.wrk_threads, args.connections,
                                                tmp / f"{name}_{label}.lua"), pg_cpu)
                return side(ours, entries, expect, "ours"), side(base, static, 200, "base")
            o = ClientProcs(ours.port, [GetClient.with_headers(p, h, expect)
                                        for p, h in entries], args.client_procs)
            b = ClientProcs(base.port, [GetClient(static[0][0], None)
                                        for _ in range(clients_n)], args.client_procs)
            procs.extend([o, b])
            return Load(ours, o, pg_cpu), Load(base, b, pg_cpu)

        log("measuring:")
        get_o, get_b = measure_pair("GET match view vs static body",
                                    *get_loads(reads, 200, "view"), rounds, slice_s, warmup_s)
        poll_o, poll_b = measure_pair("GET match view with If-None-Match (304) vs static body",
                                      *get_loads(polls, 304, "poll"), rounds, slice_s,
                                      warmup_s)
        for p in procs:
            p.close()
        procs.clear()

        # the baseline's write answers as many bytes as our action answers (measured first)
        opponents = [register(ours.port, f"bench_b{i}", bot=True)[1] for i in range(clients_n)]
        actors = [ActionClient((t, o), args.seed + i)
                  for i, (t, o) in enumerate(zip(tokens, opponents))]
        ours_actions = ClientProcs(ours.port, actors, args.client_procs)
        procs.append(ours_actions)
        act_load_o = Load(ours, ours_actions, pg_cpu)
        probe = act_load_o.run(warmup_s)  # also the warm-up
        action_bytes = round(probe.bytes / probe.count) if probe.count else view_bytes
        out["action_bytes"] = action_bytes
        base_actions = ClientProcs(base.port, [CounterClient(i, action_bytes, args.seed + i)
                                               for i in range(clients_n)], args.client_procs)
        procs.append(base_actions)
        act_load_b = Load(base, base_actions, pg_cpu)
        act_load_b.run(warmup_s)
        act_o, act_b = measure_pair(
            "POST action (two bench players) vs SELECT FOR UPDATE + UPDATE",
            act_load_o, act_load_b, rounds, slice_s, 0.0)
        for p in procs:
            p.close()
        procs.clear()

        ex = act_o["extra"]
        finished = ex.get("matches_finished", 0)
        log("")
        log(f"{'':34}{'req/s':>7}{'p50 ms':>8}{'p99 ms':>8}{'errors':>7}"
            f"{'client':>8}{'workers':>8}{'PG':>6}{'client':>8}{'workers':>9}{'PG':>7}")
        log(f"{'':34}{'':>7}{'':>8}{'':>8}{'':>7}"
            f"{'CPU':>8}{'CPU':>8}{'CPU':>6}{'ms/req':>8}{'ms/req':>9}{'ms/req':>7}")
        for label, s in (("GET /v1/matches/{id}", get_o), ("  baseline GET static", get_b),
                         ("GET .../{id} If-None-Match: 304", poll_o),
                         ("  baseline GET static", poll_b),
                         ("POST .../actions", act_o),
                         ("  baseline POST FOR UPDATE+UPDATE", act_b)):
            log(f"{label:34}{fmt(s['rps']):>7}{fmt(s['p50_ms'], '{:.2f}'):>8}"
                f"{fmt(s['p99_ms'], '{:.2f}'):>8}{s['errors']:>7}"
                f"{fmt(percent(s['client_cpu']), '{:.0f}%'):>8}"
                f"{fmt(percent(s['server_cpu']), '{:.0f}%'):>8}"
                f"{fmt(percent(s['pg_cpu']), '{:.0f}%'):>6}"
                f"{fmt(s['client_cpu_ms_per_request'], '{:.2f}'):>8}"
                f"{fmt(s['server_cpu_ms_per_request'], '{:.2f}'):>9}"
                f"{fmt(s['pg_cpu_ms_per_request'], '{:.2f}'):>7}")
        log(f"ours / baseline: GET {fmt(ratio(get_o['rps'], get_b['rps']), '{:.2f}x')}, 304"
            f" {fmt(ratio(poll_o['rps'], poll_b['rps']), '{:.2f}x')}, action"
            f" {fmt(ratio(act_o['rps'], act_b['rps']), '{:.2f}x')} the requests per second")
        other_extra = {k: v for k, v in ex.items() if k not in ("creates", "matches_finished")}
        log(f"action load: {act_o['count']:,} actions, {ex.get('creates', 0)} matches created,"
            f" {finished} finished"
            f" ({fmt(act_o['count'] / finished if finished else None, '{:.1f}')}"
            f" actions per match); other: {other_extra or 'none'}")
        for s, label in ((get_o, "GET"), (get_b, "baseline GET"), (poll_o, "304"),
                         (poll_b, "baseline GET (304 phase)"), (act_o, "action"),
                         (act_b, "baseline POST")):
            for sample in s["error_samples"]:
                log(f"  {label} error: {sample}")
        log(f"(CPU: share of one core used by the client ({'wrk' if wrk else 'Python'} for the"
            f" GETs, Python for the actions), by both gunicorn workers, and by every PostgreSQL"
            f" process;\n ms/req: CPU milliseconds per measured request. The machine has"
            f" {os.cpu_count()} cores for all three.)")
        for label, o_or_b in (("ours", act_o), ("baseline", act_b)):
            c, s = o_or_b["client_cpu_ms_per_request"], o_or_b["server_cpu_ms_per_request"]
            log(f"action client, {label}: {fmt(c, '{:.2f}')} ms of client CPU per action against"
                f" {fmt(s, '{:.2f}')} ms in the workers ({fmt(ratio(c, s), '{:.2f}x')}); the"
                f" client used {fmt(percent(o_or_b['client_cpu']), '{:.0f}%')} of a core, over"
                f" {args.client_procs} processes")

        out.update(phase_figures("get", get_o, get_b))
        out.update(phase_figures("poll", poll_o, poll_b))
        out.update(phase_figures("action", act_o, act_b))
        out.update(
            view_ratio=out["get_ratio"],
            matches_created=ex.get("creates", 0), matches_finished=finished,
            client_cpu_get=rounded(get_o["client_cpu"], 2),
            client_cpu_get_baseline=rounded(get_b["client_cpu"], 2),
            client_cpu_action=rounded(act_o["client_cpu"], 2),
            client_cpu_action_baseline=rounded(act_b["client_cpu"], 2),
        )
        out["client"] = get_client
        out["action_client"] = action_client
        if any(s["errors"] for s in (get_o, get_b, poll_o, poll_b, act_o, act_b)):
            run.failed = True

        log("")
        log("long polls:")
        try:
            long_poll_phase(ours, base, pg, our_db, n_waiters,
                            (f"/v1/matches/{get_matches[0]}", tokens[0]), out, args.seed)
            if out.get("wake_all_ms") is None or out.get("waiters_answered_early") \
                    or out.get("waiting_probe_errors") or out.get("waiters_failed") \
                    or out.get("waiters_failed_baseline") or out.get("waiting_action_errors"):
                run.failed = True
        except Exception:
            run.failed = True
            log("long-poll phase failed:")
            log(traceback.format_exc())
    with run.teardown():
        try:
            for p in procs:
                p.close()
            for server in (ours, base):
                if server is not None:
                    server.stop()
                    lines = trouble_lines(server.log_text())
                    count = len(lines)
                    if args.logs is not None:
                        args.logs.mkdir(parents=True, exist_ok=True)
                        shutil.copy(server.log_path, args.logs / server.log_path.name)
                    out[f"{'server' if server is ours else 'baseline'}_log_problems"] = count
                    if count:
                        log(f"{server.name} server log: {count} lines look like trouble;"
                            f" the first ones:")
                        for line in lines[:8]:
                            log(f"  | {line[:300]}")
            if pg is not None:
                pg.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    out.update(client=get_client, action_client=action_client, clients=clients_n,
               client_procs=args.client_procs,
               connections=args.connections if wrk else None,
               wrk_threads=args.wrk_threads if wrk else None,
               seconds_per_slice=math.ceil(slice_s) if wrk else slice_s, rounds=rounds,
               quick=bool(args.quick), python=platform.python_version(),
               worker_connections=worker_connections, rlimit_nofile=nofile,
               date=time.strftime("%Y-%m-%d"), wall_s=round(perf_counter() - t_run, 1))
    log("")
    last_line(out)
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
