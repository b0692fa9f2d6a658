#!/usr/bin/env python3
"""Built-in bots under load: a 4-player match of three `hard` bots and one client, played to
the end through the background worker while long polls are held on the same server, and a
probe timing the requests of another match with and without the bots thinking.

    .venv/bin/python bench/bots_load.py            # 1,000 long polls, 3 matches, 15 s baselines
    .venv/bin/python bench/bots_load.py --quick    # 500 long polls, 1 match, 8 s baselines

What it starts (and stops at the end, also on Ctrl-C or an error; each in its own process
group):

- PostgreSQL: an embedded server (devtools.embedded_pg) in a temporary directory, or the server of
  BENCH_DATABASE_URL (its role needs CREATEDB; the database made there is dropped at the end).
  A fresh database, migrated to head.
- The server as ``scripts/dev.py serve`` runs it: ``gunicorn -c gunicorn.conf.py wsgi:app``
  (2 gevent workers) and one ``python -m app.worker``, on 127.0.0.1 and a free port,
  TRUCO_ENV=development with the per-client long-poll cap and the rate limits turned off
  (TRUCO_MAX_POLLS_PER_CLIENT=0, TRUCO_RATE_*=''): this client holds all the polls from one
  address with a few tokens.

What it does:

1. Holds N long polls (``--waiters``): ``GET /v1/matches/{id}?wait=60`` with
   ``If-None-Match``, on ten 4-player matches waiting for players (they never change), from a
   selectors-based raw-socket client in a thread. A poll whose 60 s run out (304 after the
   full wait) is sent again at once and counted as re-armed; any other answer is "answered
   early", a connection error or EOF is "dropped".
2. A probe plays a 2-player human-against-human match (two tokens; a new match when one ends)
   at a steady pace, one request every ``--probe-ms`` on a fresh connection, in turn:
   ``GET /v1/matches/{id}`` as the seat to act, ``POST .../actions`` with one of its
   ``legal_actions`` (``If-Match``, ``Idempotency-Key``), ``GET /healthz``. Each request's
   latency is recorded with the phase it started in.
3. Phases: baseline (waiters held, probe running, no bot match) for ``--baseline`` seconds;
   bots: the client creates the 4-player match (seat 0; seats 1-3 ``hard``; ``seed`` fixed)
   and plays it to the end (``--matches`` of them, one after the other), each of its actions a
   ``POST .../actions?wait=30`` (answered when it must act again), a ``GET ...?wait=30`` with
   ``If-None-Match`` when a bot acts first; then a second baseline of the same length. Probe
   latency in the bots phase is compared with both baselines together; "thinking" is the
   subset of probe requests that started while the worker was inside a bot move that searched
   (from the ``actions.at`` timestamps of consecutive bot moves, each the start of the
   worker's transaction).
4. Bot moves: the ``actions`` rows of the match without a player (bots), their events (the
   events of the same transactions), and the worker's pace: the time between the starts of
   two consecutive bot moves (the first one's thinking, commit and the next claim).
5. While the waiters are held: PostgreSQL backends of the database (pg_stat_activity: total,
   in use, LISTEN), the web workers' memory per waiter, CPU of the web workers, the bot
   worker and (embedded server only) PostgreSQL in each phase.

The last line of output is one JSON object with every figure; the exit status is 1 when a
phase failed, the bot match did not finish, a waiter was answered early or dropped, or the
probe saw errors.
"""
from __future__ import annotations

import argparse
import collections
import itertools
import json
import os
import platform
import random
import shutil
import sys
import tempfile
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib.calls import call_json, fresh_request, register  # noqa: E402
from bench.lib.database import Postgres, libpq_url, migrate_to_head  # noqa: E402
from bench.lib.held import WAIT_SECONDS, HeldRequests, raw_get  # noqa: E402
from bench.lib.processes import MeasuredServer  # noqa: E402
from bench.lib.report import Run, fmt, last_line, log, options, trouble_lines  # noqa: E402
from bench.lib.stats import percent, ratio, rounded, summary_ms  # noqa: E402

perf_counter = time.perf_counter
CLIENT_WAIT = 30
"""`wait` of the bot match client's requests."""
MATCH_TIMEOUT = 900.0
"""The bot match must end within this many seconds."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = options(__doc__, "a minute or less: 500 long polls, 8 s baselines")
    ap.add_argument("--waiters", type=int, default=None,
                    help="held long polls (default 1000, or 500 with --quick)")
    ap.add_argument("--baseline", type=float, default=None,
                    help="seconds of each baseline phase (default 15, or 8 with --quick)")
    ap.add_argument("--probe-ms", type=float, default=50.0,
                    help="one probe request every this many ms (default 50)")
    ap.add_argument("--matches", type=int, default=None,
                    help="bot matches played one after the other in the bots phase, seeds"
                         " SEED, SEED+1, ... (default 3, or 1 with --quick)")
    ap.add_argument("--seed", type=int, default=20261201,
                    help="seed of the bot match's deals (and the probe's choices)")
    ap.add_argument("--logs", type=Path, default=None,
                    help="copy the server's and the worker's logs into this directory")
    args = ap.parse_args(argv)
    if args.waiters is None:
        args.waiters = 500 if args.quick else 1000
    if args.matches is None:
        args.matches = 1 if args.quick else 3
    if args.baseline is None:
        args.baseline = 8.0 if args.quick else 15.0
    if args.waiters < 0 or args.baseline <= 0 or args.probe_ms <= 0 or args.matches < 1:
        ap.error("--waiters must be >= 0, --matches >= 1, --baseline and --probe-ms > 0")
    return args


# --------------------------------------------------------------------------------------------
# The probe: another match, at a steady pace
# --------------------------------------------------------------------------------------------

class Probe:
    """A 2-player match between two tokens, played one request per tick in a thread:
    GET the view of the seat to act, POST one of its legal actions, GET /healthz."""

    def __init__(self, port: int, tokens: list[str], period_s: float, seed: int) -> None:
        self.port = port
        self.tokens = tokens
        self.period_s = period_s
        self.rng = random.Random(seed)
        self.phase = "setup"
        self.samples: list[tuple[str, str, float, float, int]] = []
        """(phase, kind, wall-clock start, seconds, status) per request."""
        self.errors: list[str] = []
        self.matches_played = 0
        self.late_ticks = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.match_id = ""
        self.view: dict[str, Any] | None = None
        self.etag = ""
        self.actor = tokens[0]  # the token whose view we hold
        self.seat_token: dict[int, str] = {}

    def new_match(self) -> None:
        view, _, _ = call_json(self.port, "POST", "/v1/matches",
                               {"players": 2, "visibility": "private"}, token=self.tokens[0],
                               expect=201)
        joined, _, _ = call_json(self.port, "POST", f"/v1/matches/{view['id']}/join",
                                 {"invite_code": view["invite_code"]}, token=self.tokens[1])
        self.seat_token = {view["you"]["seat"]: self.tokens[0],
                           joined["you"]["seat"]: self.tokens[1]}
        self.match_id = view["id"]
        self.matches_played += 1

    def start(self) -> None:
        self.new_match()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=15)

    def _request(self, kind: str, method: str, path: str, body: object = None,
                 headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        phase, wall, t0 = self.phase, time.time(), perf_counter()
        try:
            status, hdrs, data = fresh_request(self.port, method, path,
                                               json.dumps(body).encode() if body else None,
                                               headers)
        except OSError as exc:
            self.samples.append((phase, kind, wall, perf_counter() - t0, -1))
            self.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
            return -1, {}, b""
        self.samples.append((phase, kind, wall, perf_counter() - t0, status))
        return status, hdrs, data

    def _step(self, k: int) -> None:
        kind = ("view", "action", "healthz")[k % 3]
        if kind == "healthz":
            status, _, _ = self._request("healthz", "GET", "/healthz")
            if status != 200:
                self.errors.append(f"healthz {status}")
            return
        if kind == "view" or self.view is None:
            # the seat to act: the last view says who it is (seat i is token i)
            to_act = (self.view or {}).get("hand", {}).get("to_act") or [0]
            self.actor = self.seat_token.get(to_act[0], self.tokens[0])
            status, hdrs, data = self._request(
                "view", "GET", f"/v1/matches/{self.match_id}",
                headers={"Authorization": f"Bearer {self.actor}"})
            if status != 200:
                self.errors.append(f"view {status}: {data[:200]!r}")
                self.view = None
                return
            self.view, self.etag = json.loads(data), hdrs.get("etag", "")
            return
        view = self.view
        if view.get("status") != "active":
            self.view = None
            self.new_match()  # not timed: a creation and a join, outside the probe's kinds
            return
        legal = view.get("legal_actions") or []
        if not legal:  # not this seat's turn: the next view tick reads the other seat
            to_act = view.get("hand", {}).get("to_act") or [0]
            self.view = {"hand": {"to_act": to_act}, "status": "active"}
            return
        status, hdrs, data = self._request(
            "action", "POST", f"/v1/matches/{self.match_id}/actions", self.rng.choice(legal),
            {"Authorization": f"Bearer {self.actor}",
             "Content-Type": "application/json", "If-Match": self.etag,
             "Idempotency-Key": uuid.uuid4().hex})
        if status != 200:
            self.errors.append(f"action {status}: {data[:200]!r}")
            self.view = None
            return
        self.view, self.etag = json.loads(data), hdrs.get("etag", "")

    def _run(self) -> None:
        next_at = perf_counter()
        k = 0
        while not self._stop.is_set():
            try:
                self._step(k)
            except Exception as exc:  # noqa: BLE001 - record and go on
                self.errors.append(f"probe step: {type(exc).__name__}: {exc}")
                self.view = None
            k += 1
            next_at += self.period_s
            delay = next_at - perf_counter()
            if delay > 0:
                self._stop.wait(delay)
            else:
                self.late_ticks += 1
                next_at = perf_counter()


# --------------------------------------------------------------------------------------------
# The bot match's client
# --------------------------------------------------------------------------------------------

def play_bot_match(port: int, token: str, seed: int, result: dict[str, Any]) -> None:
    """Create the 4-player match (seat 0 this client, seats 1-3 hard bots) and play it to the
    end: each action with ?wait=CLIENT_WAIT, reading legal_actions from the answer."""
    auth = {"Authorization": f"Bearer {token}"}
    rng = random.Random(seed)
    t0 = perf_counter()
    result["started_wall"] = time.time()
    view, hdrs, _ = call_json(port, "POST", "/v1/matches", {
        "players": 4, "seat": 0, "visibility": "private", "seed": seed,
        "bots": [{"seat": s, "level": "hard"} for s in (1, 2, 3)]}, token=token, expect=201)
    match_id, etag = view["id"], hdrs.get("etag", "")
    result["match_id"] = match_id
    posts, gets, conflicts = [], [], 0
    conflict_walls: list[float] = []
    deadline = perf_counter() + MATCH_TIMEOUT
    while view["status"] == "active" and perf_counter() < deadline:
        legal = view.get("legal_actions") or []
        if 0 in view["hand"]["to_act"] and legal:
            action = rng.choice(legal)
            t1 = perf_counter()
            status, hdrs, data = fresh_request(
                port, "POST", f"/v1/matches/{match_id}/actions?wait={CLIENT_WAIT}",
                json.dumps(action).encode(),
                {**auth, "Content-Type": "application/json", "If-Match": etag,
                 "Idempotency-Key": uuid.uuid4().hex}, timeout=CLIENT_WAIT + 15)
            if status == 200:
                posts.append(perf_counter() - t1)
                view, etag = json.loads(data), hdrs.get("etag", "")
                continue
            if status == 412:  # a bot partner answered a raise first
                conflicts += 1
                conflict_walls.append(time.time())
                view, etag = json.loads(data)["current"], hdrs.get("etag", "")
                continue
            raise RuntimeError(f"action {action}: {status} {data[:300]!r}")
        t1 = perf_counter()
        status, hdrs, data = fresh_request(
            port, "GET", f"/v1/matches/{match_id}?wait={CLIENT_WAIT}",
            headers={**auth, "If-None-Match": etag}, timeout=CLIENT_WAIT + 15)
        gets.append(perf_counter() - t1)
        if status == 200:
            view, etag = json.loads(data), hdrs.get("etag", "")
        elif status != 304:
            raise RuntimeError(f"view: {status} {data[:300]!r}")
    result.update(status=view["status"], score=view.get("score"), seconds=perf_counter() - t0,
                  client_actions=len(posts), client_waits=len(gets), conflicts=conflicts,
                  post_wait_s=posts, conflict_walls=conflict_walls,
                  winner_team=view.get("winner_team"), ended_wall=time.time())


def bot_moves(database_url: str, match_id: str) -> dict[str, Any]:
    """The match's actions and events from the database: bot moves, their events, the pace."""
    import psycopg2

    with psycopg2.connect(libpq_url(database_url)) as conn, conn.cursor() as cur:
        cur.execute("SELECT n, seat, player_id IS NULL, extract(epoch FROM at) FROM actions "
                    "WHERE match_id = %s ORDER BY n", (match_id,))
        actions = cur.fetchall()
        cur.execute("SELECT extract(epoch FROM at), count(*) FROM events WHERE match_id = %s "
                    "GROUP BY at", (match_id,))
        events_at = {float(at): n for at, n in cur.fetchall()}
    conn.close()
    bot = [(n, float(at)) for n, seat, is_bot, at in actions if is_bot]
    pace, thinking = [], []
    for a, b in itertools.pairwise(actions):
        if a[2] and b[2]:  # two bot moves in a row: the first one's step, start to start
            gap = float(b[3]) - float(a[3])
            pace.append(gap)
            thinking.append((float(a[3]), float(b[3])))
    return {
        "actions": len(actions),
        "bot_moves": len(bot),
        "bot_events": sum(events_at.get(at, 0) for _, at in bot),
        "events": sum(events_at.values()),
        "pace_s": pace,
        "intervals": thinking,
    }


# --------------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------------

class PhaseMeter:
    """CPU and wall time of a phase, and its pg_stat_activity samples."""

    def __init__(self, server: MeasuredServer, pg: Postgres) -> None:
        self.server, self.pg = server, pg
        self.t0 = perf_counter()
        self.web0, self.bot0 = server.cpu_seconds(), server.worker_cpu_seconds()
        self.pg0 = pg.cpu_seconds()
        self.cli0 = time.process_time()

    def done(self) -> dict[str, float | None]:
        wall = perf_counter() - self.t0
        pg1 = self.pg.cpu_seconds()
        return {"seconds": round(wall, 1),
                "web_cpu": round((self.server.cpu_seconds() - self.web0) / wall, 3),
                "worker_cpu": round((self.server.worker_cpu_seconds() - self.bot0) / wall, 3),
                "pg_cpu": None if pg1 is None or self.pg0 is None
                else round((pg1 - self.pg0) / wall, 3),
                "client_cpu": round((time.process_time() - self.cli0) / wall, 3)}


def db_sample(pg: Postgres, db: str) -> dict[str, int]:
    rows = pg.backends(db)
    return {"total": len(rows),
            "in_use": sum(1 for s, _, q in rows if s != "idle" and not q.startswith("LISTEN")),
            "listen": sum(1 for _, _, q in rows if q.startswith("LISTEN"))}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    t_run = perf_counter()
    log(f"bench/bots_load.py: {args.waiters:,} held long polls, {args.baseline:g} s baselines,"
        f" a probe request every {args.probe_ms:g} ms; Python {platform.python_version()},"
        f" {os.cpu_count()} CPUs{' (--quick)' if args.quick else ''}")
    out: dict[str, Any] = {}
    run = Run()
    pg = server = waiters = probe = None
    tmp = Path(tempfile.mkdtemp(prefix="truco-bench-bots-"))
    with run.guarded():
        t0 = perf_counter()
        pg = Postgres(tmp)
        db = f"bench_bots_{os.getpid()}"
        url = pg.create_database(db)
        migrate_to_head(url)
        log(f"PostgreSQL {pg.version()} ({pg.kind}), database {db} migrated in"
            f" {perf_counter() - t0:.1f} s")
        env = {"DATABASE_URL": url, "TRUCO_ENV": "development",
               "TRUCO_MAX_POLLS_PER_CLIENT": "0", "TRUCO_RATE_REGISTER": "",
               "TRUCO_RATE_ACTION": "", "TRUCO_RATE_CREATE": ""}
        server = MeasuredServer("server", env, tmp, worker=True)
        server.wait_healthy()
        if not server.worker_alive():
            raise RuntimeError(f"the worker exited:\n{server.worker_log_text()[-3000:]}")
        port = server.port
        log(f"gunicorn on :{port} (workers {server.workers}), app.worker pid"
            f" {server.worker_pid()}")

        def token(name: str) -> str:
            return register(port, name)[1]

        # ten 4-player matches waiting for players: they never change while polled
        owners = [token(f"host{g}") for g in range(2)]
        idle = []
        for g in range(10):
            tok = owners[g % 2]
            view, hdrs, _ = call_json(port, "POST", "/v1/matches", {"players": 4},
                                      token=tok, expect=201)
            idle.append((view["id"], tok, hdrs["etag"]))
        reqs = [raw_get(f"/v1/matches/{m}?wait={WAIT_SECONDS}",
                        {"Authorization": f"Bearer {tok}", "If-None-Match": tag})
                for m, tok, tag in (idle[i % len(idle)] for i in range(args.waiters))]
        probe = Probe(port, [token("probe0"), token("probe1")], args.probe_ms / 1000,
                      args.seed)
        client = token("client")

        db_before = db_sample(pg, db)
        rss0 = server.rss_kb()
        waiters = HeldRequests(port, reqs, max_seconds=None, rearm_after=WAIT_SECONDS)
        t_open = perf_counter()
        waiters.start()
        while waiters.sent + sum(waiters.failed.values()) < args.waiters \
                and perf_counter() < t_open + 30:
            time.sleep(0.05)
        opened_s = perf_counter() - t_open
        while perf_counter() < t_open + 40:  # until the server is idle: all first checks done
            c0, w0 = server.cpu_seconds(), perf_counter()
            time.sleep(0.25)
            if (server.cpu_seconds() - c0) / (perf_counter() - w0) < 0.10:
                break
        rss1 = server.rss_kb()
        log(f"{waiters.sent:,} long polls sent in {opened_s:.1f} s; held {waiters.held:,};"
            f" answered early {sum(waiters.answers.values())}, dropped"
            f" {sum(waiters.failed.values())}")
        out.update(waiters=args.waiters, waiters_open_s=round(opened_s, 2),
                   kb_per_waiter=rounded((rss1 - rss0) / args.waiters, 1) if args.waiters
                   else None)

        db_samples: dict[str, list[dict[str, int]]] = collections.defaultdict(list)
        held_min = [waiters.held]
        phases: dict[str, dict[str, float | None]] = {}

        def run_phase(name: str, seconds: float | None,
                      body: Callable[[], None] | None = None) -> None:
            probe.phase = name
            meter = PhaseMeter(server, pg)
            end = perf_counter() + (seconds or 0)
            thread = None
            if body is not None:
                thread = threading.Thread(target=body, daemon=True)
                thread.start()
            while (thread is not None and thread.is_alive()) or perf_counter() < end:
                db_samples[name].append(db_sample(pg, db))
                held_min.append(waiters.held)
                time.sleep(0.5)
            phases[name] = meter.done()

        probe.start()
        log(f"phase 1: baseline, {args.baseline:g} s (waiters held, probe running, no bots)")
        run_phase("before", args.baseline)
        log("phase 2: the 4-player match, three hard bots and this client, to the end")
        played: list[dict[str, Any]] = []

        def play() -> None:
            for k in range(args.matches):
                result: dict[str, Any] = {}
                played.append(result)
                try:
                    play_bot_match(port, client, args.seed + k, result)
                except Exception:  # noqa: BLE001 - reported below
                    result["error"] = traceback.format_exc()
                    return
                log(f"  match {result.get('match_id')}: {result.get('status')} in"
                    f" {fmt(result.get('seconds'), '{:.1f}')} s, score {result.get('score')}")

        run_phase("bots", None, play)
        match: dict[str, Any] = {
            "status": "finished" if len(played) == args.matches
            and all(r.get("status") == "finished" for r in played) else "unfinished",
            "seconds": sum(r.get("seconds", 0) for r in played),
            "score": [r.get("score") for r in played],
            "client_actions": sum(r.get("client_actions", 0) for r in played),
            "conflicts": sum(r.get("conflicts", 0) for r in played),
            "post_wait_s": [x for r in played for x in r.get("post_wait_s", [])],
            "conflict_walls": [x for r in played for x in r.get("conflict_walls", [])],
        }
        for r in played:
            if "error" in r:
                log(r["error"])
                run.failed = True
        log(f"phase 3: baseline again, {args.baseline:g} s")
        run_phase("after", args.baseline)
        probe.phase = "end"
        probe.stop()
        held_end = waiters.held
        waiters_early = sum(waiters.answers.values())
        waiters_dropped = sum(waiters.failed.values())
        rearmed = waiters.rearmed
        waiters.stop()

        moves: dict[str, Any] = collections.defaultdict(int)
        for r in played:
            if r.get("match_id"):
                for key, value in bot_moves(url, r["match_id"]).items():
                    moves[key] = (moves.get(key) or type(value)()) + value
        intervals = moves.get("intervals", [])
        # a probe request "during thinking" started inside a bot move that searched
        searching = [(a, b) for a, b in intervals if b - a >= 0.02]

        def thinking(wall: float) -> bool:
            return any(a <= wall < b for a, b in searching)

        lat = collections.defaultdict(list)
        statuses: collections.Counter[int] = collections.Counter()
        for phase, kind, wall, secs, status in probe.samples:
            statuses[status] += 1
            if phase in ("before", "after"):
                lat["baseline"].append(secs)
                lat[f"baseline_{kind}"].append(secs)
            elif phase == "bots":
                lat["bots"].append(secs)
                lat[f"bots_{kind}"].append(secs)
                if thinking(wall):
                    lat["thinking"].append(secs)
        base, bots, think = (summary_ms(lat[k]) for k in ("baseline", "bots", "thinking"))
        pace = summary_ms(moves.get("pace_s", []))
        # steps far over the hard bot's 250 ms cap: did a 412 of the client fall inside?
        slow = [(a, b) for a, b in intervals if b - a > 0.5]
        slow_412 = sum(1 for a, b in slow
                       if any(a <= w <= b for w in match.get("conflict_walls", [])))
        post_wait = summary_ms(match.get("post_wait_s", []))
        pg_max = {name: {k: max(s[k] for s in samples) for k in ("total", "in_use", "listen")}
                  for name, samples in db_samples.items()}
        bot_phase = phases.get("bots", {})

        log("")
        log(f"{'probe requests (other match)':30}{'n':>6}{'p50 ms':>8}{'p99 ms':>8}"
            f"{'max ms':>8}   {'web CPU':>8}{'worker CPU':>11}{'PG CPU':>8}")
        for label, s, ph in (("baseline (before + after)", base, None),
                             ("  before", summary_ms(lat_phase(probe, "before")), "before"),
                             ("  after", summary_ms(lat_phase(probe, "after")), "after"),
                             ("bots playing", bots, "bots"),
                             ("  while a bot searched", think, None)):
            p = phases.get(ph, {}) if ph else {}
            log(f"{label:30}{s['n']:>6}{fmt(s['p50'], '{:.1f}'):>8}{fmt(s['p99'], '{:.1f}'):>8}"
                f"{fmt(s['max'], '{:.1f}'):>8}   {fmt(percent(p.get('web_cpu')), '{:.0f}%'):>8}"
                f"{fmt(percent(p.get('worker_cpu')), '{:.0f}%'):>11}"
                f"{fmt(percent(p.get('pg_cpu')), '{:.0f}%'):>8}")
        for kind in ("view", "action", "healthz"):
            b, t = summary_ms(lat[f"baseline_{kind}"]), summary_ms(lat[f"bots_{kind}"])
            log(f"  {kind:8} p50 {fmt(b['p50'], '{:.1f}')} -> {fmt(t['p50'], '{:.1f}')} ms,"
                f" p99 {fmt(b['p99'], '{:.1f}')} -> {fmt(t['p99'], '{:.1f}')} ms")
        log(f"bot matches: {args.matches}, {match.get('status')} in"
            f" {fmt(match.get('seconds'), '{:.1f}')} s;"
            f" {moves.get('bot_moves')} bot moves ({moves.get('bot_events')} events of"
            f" {moves.get('events')}), {match.get('client_actions')} client actions;"
            f" worker pace per bot move p50 {fmt(pace['p50'], '{:.0f}')} ms, p99"
            f" {fmt(pace['p99'], '{:.0f}')}, max {fmt(pace['max'], '{:.0f}')} (n={pace['n']});"
            f" the client's POST ?wait answered after p50 {fmt(post_wait['p50'], '{:.0f}')} ms,"
            f" max {fmt(post_wait['max'], '{:.0f}')}")
        if slow:
            log(f"  {len(slow)} bot steps over 500 ms"
                f" ({', '.join(f'{(b - a) * 1000:.0f}' for a, b in slow)}"
                f" ms); {slow_412} of them around a 412 of the client (the worker skipped the"
                f" match it held locked, and slept until its next poll)")
        log(f"waiters: {args.waiters:,}; held at the end {held_end:,} (lowest seen"
            f" {min(held_min):,}); answered early {waiters_early} {dict(waiters.answers)};"
            f" dropped {waiters_dropped} {dict(waiters.failed)}; re-armed after their"
            f" {WAIT_SECONDS} s {rearmed}")
        log(f"PostgreSQL backends of the database: before the waiters {db_before}; max while"
            f" held {pg_max}; web workers' memory +{out['kb_per_waiter']} KB per waiter")
        log("(CPU: share of one core over the phase; the machine's 2 cores also run this"
            " client, PostgreSQL and other work.)")

        out.update(
            probe_baseline_p50_ms=base["p50"], probe_baseline_p99_ms=base["p99"],
            probe_baseline_max_ms=base["max"], probe_baseline_n=base["n"],
            probe_bots_p50_ms=bots["p50"], probe_bots_p99_ms=bots["p99"],
            probe_bots_max_ms=bots["max"], probe_bots_n=bots["n"],
            probe_thinking_p50_ms=think["p50"], probe_thinking_p99_ms=think["p99"],
            probe_thinking_n=think["n"],
            probe_p50_ratio=rounded(ratio(bots["p50"], base["p50"]), 2),
            probe_p99_ratio=rounded(ratio(bots["p99"], base["p99"]), 2),
            probe_thinking_p99_ratio=rounded(ratio(think["p99"], base["p99"]), 2),
            probe_by_kind={kind: {"baseline": summary_ms(lat[f"baseline_{kind}"]),
                                  "bots": summary_ms(lat[f"bots_{kind}"])}
                           for kind in ("view", "action", "healthz")},
            probe_errors=len(probe.errors), probe_statuses=dict(statuses),
            probe_late_ticks=probe.late_ticks, probe_matches=probe.matches_played,
            bot_matches=args.matches, bot_match_status=match.get("status"),
            bot_match_seconds=rounded(match.get("seconds"), 1),
            bot_match_score=match.get("score"), bot_moves=moves.get("bot_moves"),
            bot_events=moves.get("bot_events"), match_events=moves.get("events"),
            client_actions=match.get("client_actions"), client_conflicts=match.get("conflicts"),
            bot_move_ms_p50=pace["p50"], bot_move_ms_p99=pace["p99"],
            bot_move_ms_max=pace["max"], bot_move_pace_n=pace["n"],
            bot_moves_searching=len(searching), bot_steps_over_500ms=len(slow),
            bot_steps_over_500ms_at_412=slow_412,
            client_post_wait_ms_p50=post_wait["p50"], client_post_wait_ms_max=post_wait["max"],
            waiters_held_end=held_end, waiters_held_min=min(held_min),
            waiters_answered_early=waiters_early, waiters_dropped=waiters_dropped,
            waiters_rearmed=rearmed,
            waiters_all_held=waiters_early == 0 and waiters_dropped == 0
            and held_end == args.waiters,
            db_backends_before=db_before, db_backends_max=pg_max,
            phases=phases, worker_rss_mb=round(server.worker_rss_kb() / 1024, 1),
            web_rss_mb=round(server.rss_kb() / 1024, 1),
        )
        if probe.errors:
            for line in probe.errors[:5]:
                log(f"  probe error: {line}")
        if match.get("status") != "finished" or not out["waiters_all_held"] or probe.errors:
            run.failed = True
        if bot_phase and not server.worker_alive():
            run.failed = True
    with run.teardown():
        try:
            for thing in (probe, waiters):
                if thing is not None:
                    try:
                        thing.stop()
                    except Exception as exc:  # noqa: BLE001 - teardown goes on
                        log(f"warning: stopping {type(thing).__name__}: {exc}")
            if server is not None:
                server.stop()
                problems = trouble_lines(server.worker_log_text(),
                                         ("error", "traceback", "failed"))
                out["worker_log_problems"] = len(problems)
                for line in problems[:5]:
                    log(f"  worker | {line[:300]}")
                lines = trouble_lines(server.log_text())
                out["server_log_problems"] = len(lines)
                for line in lines[:5]:
                    log(f"  server | {line[:300]}")
            if args.logs is not None:
                args.logs.mkdir(parents=True, exist_ok=True)
                for name in ("server.log", "worker.log"):
                    if (tmp / name).exists():
                        shutil.copy(tmp / name, args.logs / name)
            if pg is not None:
                pg.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    out.update(quick=bool(args.quick), baseline_s=args.baseline, probe_ms=args.probe_ms,
               seed=args.seed, python=platform.python_version(),
               wall_s=round(perf_counter() - t_run, 1), ok=not run.failed)
    log("")
    last_line(out)
    return 1 if run.failed else 0


def lat_phase(probe: Probe, phase: str) -> list[float]:
    return [secs for ph, _, _, secs, _ in probe.samples if ph == phase]


if __name__ == "__main__":
    sys.exit(main())
