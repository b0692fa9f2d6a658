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
  --connections) with a Lua script made by bench/_wrk.py, when ``wrk`` is on PATH. There are
  as many seated players as connections, each reading its own match: the script holds their
  path + Authorization (+ If-None-Match) and each wrk thread hands out its share in turn
  (the baseline's script holds its one static path). ``response()`` counts the statuses, so
  any answer but the phase's one status (200, or 304) is an error, and ``done()`` prints the
  figures as JSON (requests, duration, wrk's latency percentiles, which include wrk's
  correction for coordinated omission). wrk takes whole seconds: slices are rounded up. Without wrk (or with --no-wrk) these phases
  fall back to the Python client below, which says so: on 2 cores that client tops out near
  4,000 req/s and is then the baseline's bottleneck, which flatters our ratios.
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
import contextlib
import http.client
import io
import json
import math
import multiprocessing
import os
import platform
import random
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

perf_counter = time.perf_counter
HOST = "127.0.0.1"
REQUEST_TIMEOUT = 10.0
"""Seconds a client waits on one plain request (socket timeout)."""
MAX_REQUESTS_PER_THREAD = 2_000_000
"""Every request loop also stops after this many requests, whatever its deadline says."""
WAIT_SECONDS = 60
"""The `wait` of the held long polls (the most the API allows): 10,000 of them take several
seconds to open and settle, and every figure of the phase is taken before the first expires."""
WAKE_TARGET_MS = 250
"""`longpoll_waiters` counts the held long polls only when the waiters of the changed match
were all answered (with the new version) within this, at the 99th percentile."""
PY_CLIENT = "python http.client threads (keep-alive)"
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") / 1024


def log(msg: str = "") -> None:
    print(msg, flush=True)


class Stop(Exception):
    """SIGTERM or SIGHUP: unwind like Ctrl-C."""


def _raise_stop(signum, frame) -> None:
    raise Stop(signum)


# --------------------------------------------------------------------------------------------
# Processes: PostgreSQL and the two gunicorn servers
# --------------------------------------------------------------------------------------------

def libpq_url(url: str) -> str:
    from sqlalchemy.engine import make_url
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def with_database(url: str, name: str) -> str:
    from sqlalchemy.engine import make_url
    return make_url(url).set(database=name).render_as_string(hide_password=False)


class Postgres:
    """An embedded PostgreSQL in `tmp` (or the server of BENCH_DATABASE_URL) and the
    databases this run creates on it."""

    def __init__(self, tmp: Path) -> None:
        from devtools.embedded_pg import normalise_database_url
        self.datadir = None
        given = os.environ.get("BENCH_DATABASE_URL")
        if given:
            self.url = normalise_database_url(given)
            self.kind = "BENCH_DATABASE_URL"
        else:
            from devtools.embedded_pg import start_embedded
            self.datadir = tmp / "pgdata"
            self.url = start_embedded(self.datadir)
            self.kind = "embedded"
        self.made: list[str] = []
        self._admin = None

    def admin(self):
        import psycopg2
        if self._admin is None or self._admin.closed:
            self._admin = psycopg2.connect(libpq_url(self.url), application_name="bench-api")
            self._admin.autocommit = True
        return self._admin

    def version(self) -> str:
        with self.admin().cursor() as cur:
            cur.execute("SHOW server_version")
            return cur.fetchone()[0]

    def create_database(self, name: str) -> str:
        with self.admin().cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            cur.execute(f'CREATE DATABASE "{name}"')
        self.made.append(name)
        return with_database(self.url, name)

    def backends(self, database: str) -> list[tuple[str, str, str]]:
        """(state, application_name, query) of the client backends of `database`."""
        with self.admin().cursor() as cur:
            cur.execute("SELECT coalesce(state, ''), coalesce(application_name, ''), query "
                        "FROM pg_stat_activity WHERE datname = %s "
                        "AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
                        (database,))
            return cur.fetchall()

    def cpu_seconds(self) -> float | None:
        """CPU time of the embedded server's processes so far: the postmaster's own, its
        children's that ended (cutime + cstime: a backend that exits takes its time with it)
        and those of its living children; None for an external server."""
        pid = self.postmaster_pid()
        if pid is None:
            return None
        return _cpu_seconds(pid, reaped=True) + sum(_cpu_seconds(c) for c in _children(pid))

    def postmaster_pid(self) -> int | None:
        """The embedded server's postmaster; None for an external server."""
        if self.datadir is None:
            return None
        try:
            return int((self.datadir / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        try:
            if self.made and self.datadir is None:  # an external server: leave it clean
                with self.admin().cursor() as cur:
                    for name in self.made:
                        cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        except Exception as exc:  # noqa: BLE001 - teardown goes on
            log(f"warning: could not drop the bench databases: {exc}")
        if self._admin is not None:
            self._admin.close()
        if self.datadir is not None:
            from devtools.embedded_pg import stop_embedded
            stop_embedded(self.datadir)


def migrate_to_head(database_url: str) -> None:
    """Apply every migration (as tests/support/database.py does)."""
    from flask_migrate import upgrade

    from app import create_app
    from app.db.extensions import db

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    chatter = io.StringIO()  # alembic's INFO lines, shown only when the upgrade fails
    try:
        with app.app_context(), contextlib.redirect_stderr(chatter):
            upgrade()
            db.engine.dispose()
    except BaseException:
        log(chatter.getvalue())
        raise


def make_counters(database_url: str, rows: int) -> None:
    """The baseline's table (bench/_baseline_app.py): `rows` counters, ids from 0."""
    import psycopg2
    with psycopg2.connect(libpq_url(database_url)) as conn, conn.cursor() as cur:
        cur.execute("CREATE TABLE counters (id integer PRIMARY KEY, n bigint NOT NULL)")
        cur.execute("INSERT INTO counters SELECT g, 0 FROM generate_series(0, %s) g",
                    (rows - 1,))
    conn.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def _cpu_seconds(pid: int, reaped: bool = False) -> float:
    """utime + stime of `pid`, and with `reaped` the cutime + cstime of its ended children."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / CLK_TCK


def _rss_kb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE_KB
    except OSError:
        return 0.0


class Gunicorn:
    """One gunicorn master and its workers, in a session (process group) of their own."""

    def __init__(self, name: str, app_spec: str, env: dict[str, str], logdir: Path,
                 root: Path = ROOT) -> None:
        """`root`: the code tree to serve (bench/compare.py serves a commit's too)."""
        self.name = name
        self.port = free_port()
        self.log_path = logdir / f"{name}.log"
        self._log = open(self.log_path, "wb")
        full_env = {**os.environ, **env, "PORT": str(self.port), "BIND_HOST": HOST,
                    "WEB_CONCURRENCY": "2", "GUNICORN_CMD_ARGS": "--graceful-timeout 3"}
        full_env.pop("GUNICORN_ACCESS_LOG", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", app_spec],
            cwd=root, env=full_env, stdout=self._log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True)
        self.workers: list[int] = []

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def wait_healthy(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} server exited {self.process.returncode}:\n"
                                   f"{self.log_text()[-3000:]}")
            try:
                status, _, _ = fresh_request(self.port, "GET", "/healthz", timeout=1.0)
                if status == 200:
                    self.workers = _children(self.process.pid)
                    if len(self.workers) >= 2:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} server not healthy after {timeout:.0f} s:\n"
                           f"{self.log_text()[-3000:]}")

    def cpu_seconds(self) -> float:
        return sum(_cpu_seconds(p) for p in self.workers)

    def rss_kb(self) -> float:
        return sum(_rss_kb(p) for p in self.workers)

    def stop(self) -> None:
        """SIGTERM to the master; SIGKILL to the whole group if anything lingers."""
        pgid = self.process.pid  # start_new_session: the group id is the master's pid
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(pgid, signal.SIGKILL)  # a worker that outlived its master
        except (ProcessLookupError, PermissionError):
            pass
        if self.process.poll() is None:
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                log(f"warning: {self.name} master {pgid} did not exit")
        self._log.close()


# --------------------------------------------------------------------------------------------
# HTTP clients
# --------------------------------------------------------------------------------------------

def fresh_request(port: int, method: str, path: str, body: bytes | None = None,
                  headers: dict[str, str] | None = None,
                  timeout: float = REQUEST_TIMEOUT) -> tuple[int, dict[str, str], bytes]:
    """One request on a new connection, closed afterwards."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
    finally:
        conn.close()


def call_json(port: int, method: str, path: str, payload=None, token: str | None = None,
              expect: int = 200, extra: dict[str, str] | None = None):
    headers = dict(extra or {})
    body = None
    if payload is not None:
        body = json.dumps(payload).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    status, hdrs, data = fresh_request(port, method, path, body, headers)
    if status != expect:
        raise RuntimeError(f"{method} {path}: {status} (wanted {expect}): {data[:500]!r}")
    return json.loads(data) if data else None, hdrs, data


class Conn:
    """A keep-alive connection that reconnects after an error."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)

    def request(self, method: str, path: str, body: bytes | None,
                headers: dict[str, str]) -> tuple[int, http.client.HTTPResponse, bytes]:
        try:
            self.conn.request(method, path, body=body, headers=headers)
            resp = self.conn.getresponse()
            return resp.status, resp, resp.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
            raise

    def close(self) -> None:
        self.conn.close()


# --------------------------------------------------------------------------------------------
# Load: client threads (in one or more processes) or wrk, for a fixed time
# --------------------------------------------------------------------------------------------

def latency_bucket_us(seconds: float) -> int:
    """Microseconds rounded to 3 significant digits (as bench/_wrk.py's histogram)."""
    us = seconds * 1e6
    if us < 1000:
        return int(us)
    scale = 10 ** (math.floor(math.log10(us)) - 2)
    return int(math.floor(us / scale + 0.5) * scale)


class SliceResult:
    def __init__(self) -> None:
        self.count = 0          # measured requests (GETs, or action POSTs)
        self.ok = 0
        self.errors = 0         # exceptions and unexpected statuses
        self.extra = collections.Counter()
        self.hist: collections.Counter = collections.Counter()  # latency µs bucket: count
        self.elapsed = 0.0
        self.end_at = 0.0       # perf_counter() when the last client stopped
        self.client_cpu = 0.0
        self.server_cpu = 0.0
        self.pg_cpu: float | None = 0.0
        self.bytes = 0
        self.error_samples: list[str] = []

    def record(self, seconds: float) -> None:
        self.hist[latency_bucket_us(seconds)] += 1

    def add(self, other: SliceResult) -> None:
        self.count += other.count
        self.ok += other.ok
        self.errors += other.errors
        self.extra.update(other.extra)
        self.hist.update(other.hist)
        self.elapsed += other.elapsed
        self.end_at = max(self.end_at, other.end_at)
        self.client_cpu += other.client_cpu
        self.server_cpu += other.server_cpu
        self.pg_cpu = None if self.pg_cpu is None or other.pg_cpu is None \
            else self.pg_cpu + other.pg_cpu
        self.bytes += other.bytes
        self.error_samples.extend(other.error_samples[:5 - len(self.error_samples)])


PG_CPU = None
"""A function giving PostgreSQL's CPU seconds so far (embedded server only), or None."""


def run_threads(port: int, clients: list, duration: float,
                start_at: float | None = None) -> SliceResult:
    """Each client's `step(conn, result)` in its own thread until `duration` passes (from
    `start_at`, a perf_counter() time, when given: the processes of ClientProcs start
    together). Client side only: `client_cpu` is this process's CPU time meanwhile."""
    n = len(clients)
    per_thread = [SliceResult() for _ in range(n)]
    ends = [0.0] * n
    clock = {}

    def set_deadline() -> None:
        clock["start"] = max(perf_counter(), start_at or 0.0)
        clock["deadline"] = clock["start"] + duration

    barrier = threading.Barrier(n, action=set_deadline)

    def run(i: int) -> None:
        res = per_thread[i]
        conn = Conn(port)
        try:
            barrier.wait(timeout=30)
            pause = clock["start"] - perf_counter()
            if pause > 0:
                time.sleep(pause)
            deadline = clock["deadline"]
            count = 0
            while perf_counter() < deadline and count < MAX_REQUESTS_PER_THREAD:
                count += 1
                try:
                    clients[i].step(conn, res)
                except (OSError, http.client.HTTPException, ValueError, KeyError) as exc:
                    res.errors += 1
                    if len(res.error_samples) < 5:
                        res.error_samples.append(f"{type(exc).__name__}: {exc}")
                    clients[i].reset_after_error()
        except threading.BrokenBarrierError:
            res.errors += 1
        finally:
            ends[i] = perf_counter()
            conn.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    cpu0 = time.process_time()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=duration + 3 * REQUEST_TIMEOUT + 30)
    total = SliceResult()
    for r in per_thread:
        total.add(r)
    total.end_at = max(ends) if any(ends) else perf_counter()
    total.elapsed = total.end_at - clock.get("start", total.end_at)
    total.client_cpu = time.process_time() - cpu0
    if any(t.is_alive() for t in threads):
        total.extra["threads_left_running"] += sum(t.is_alive() for t in threads)
    return total


def _client_process(port: int, clients: list, conn) -> None:
    """The loop of one ClientProcs process: run a slice when told, answer its result."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        while True:
            msg = conn.recv()
            if msg[0] != "run":
                break
            _, duration, start_at = msg
            conn.send(run_threads(port, clients, duration, start_at))
    except (EOFError, OSError, KeyboardInterrupt):
        pass


class ClientProcs:
    """Python client threads spread over `procs` forked processes (so that the client is not
    held to one core by the GIL), kept for the whole measurement: a client's state (an
    ActionClient's match) carries from one slice to the next. Called with a duration, runs
    one slice in every process at once and merges their results."""

    def __init__(self, port: int, clients: list, procs: int) -> None:
        ctx = multiprocessing.get_context("fork")
        self.procs = []
        self.threads = len(clients)
        for k in range(max(1, min(procs, len(clients)))):
            group = clients[k::max(1, min(procs, len(clients)))]
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(target=_client_process, args=(port, group, theirs),
                               daemon=True, name=f"bench-client-{k}")
            proc.start()
            theirs.close()
            self.procs.append((proc, ours))

    def describe(self) -> str:
        return f"{PY_CLIENT}: {self.threads} in {len(self.procs)} processes"

    def __call__(self, duration: float) -> SliceResult:
        start_at = perf_counter() + 0.05
        for _, conn in self.procs:
            conn.send(("run", duration, start_at))
        total = SliceResult()
        for proc, conn in self.procs:
            if not conn.poll(duration + 3 * REQUEST_TIMEOUT + 60):
                raise RuntimeError(f"client process {proc.name} did not answer")
            total.add(conn.recv())
        total.elapsed = total.end_at - start_at
        return total

    def close(self) -> None:
        for proc, conn in self.procs:
            try:
                conn.send(("stop",))
            except OSError:
                pass
        for proc, conn in self.procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)
            conn.close()


class WrkLoad:
    """wrk driving one server: every connection's requests are those of `entries` (path,
    headers), one seated player each (see bench/_wrk.py); `expect` is the one good status."""

    def __init__(self, wrk: str, port: int, entries: list[tuple[str, dict[str, str]]],
                 expect: int, threads: int, connections: int, script: Path) -> None:
        from bench import _wrk
        self.wrk, self.port, self.expect = wrk, port, expect
        self.threads, self.connections = threads, connections
        self.script = script
        script.write_text(_wrk.lua_script(entries, threads))
        self.last_output = ""

    def __call__(self, duration: float) -> SliceResult:
        from bench import _wrk
        seconds = max(1, math.ceil(duration))
        got, cpu, self.last_output = _wrk.run(self.wrk, f"http://{HOST}:{self.port}",
                                              self.script, self.threads, self.connections,
                                              seconds, REQUEST_TIMEOUT)
        res = SliceResult()
        res.count = got["requests"]
        res.ok = got["statuses"].get(self.expect, 0)
        unexpected = sum(n for status, n in got["statuses"].items() if status != self.expect)
        res.errors = unexpected + got["socket_errors"]
        for status, n in got["statuses"].items():
            if status != self.expect:
                res.extra[f"status_{status}"] += n
        for kind, n in got["errors"].items():
            if n and kind != "status":
                res.extra[f"socket_{kind}"] += n
        if got["text_requests"] is not None and got["text_requests"] != got["requests"]:
            res.extra["wrk_summary_mismatch"] += 1
        res.hist.update(got["histogram_us"])
        res.elapsed = got["duration_us"] / 1e6
        res.end_at = perf_counter()
        res.client_cpu = cpu
        res.bytes = got["bytes"]
        if res.errors and len(res.error_samples) < 5:
            res.error_samples.append(f"wrk statuses {got['statuses']}, errors {got['errors']}")
        return res


class Load:
    """One side of a measurement: a server and what drives it (a callable taking a duration
    and giving the client side's SliceResult); adds the server's and PostgreSQL's CPU."""

    def __init__(self, server: Gunicorn, runner) -> None:
        self.server, self.runner = server, runner

    def run(self, duration: float) -> SliceResult:
        srv0 = self.server.cpu_seconds()
        pg0 = PG_CPU() if PG_CPU else None
        res = self.runner(duration)
        res.server_cpu = self.server.cpu_seconds() - srv0
        pg1 = PG_CPU() if PG_CPU else None
        res.pg_cpu = None if pg0 is None or pg1 is None else pg1 - pg0
        return res


def in_process(port: int, clients: list):
    """A runner of `clients` as threads of this process."""
    return lambda duration: run_threads(port, clients, duration)


class GetClient:
    """GETs of one path; with `if_none_match` a conditional GET that must answer 304."""

    def __init__(self, path: str, token: str | None, if_none_match: str | None = None) -> None:
        self.path = path
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.expect = 200
        if if_none_match is not None:
            self.headers["If-None-Match"] = if_none_match
            self.expect = 304

    @classmethod
    def with_headers(cls, path: str, headers: dict[str, str], expect: int) -> GetClient:
        client = cls(path, None)
        client.headers, client.expect = dict(headers), expect
        return client

    def step(self, conn: Conn, res: SliceResult) -> None:
        t0 = perf_counter()
        status, _, data = conn.request("GET", self.path, None, self.headers)
        res.record(perf_counter() - t0)
        res.count += 1
        res.bytes += len(data)
        if status == self.expect:
            res.ok += 1
        else:
            res.errors += 1
            res.extra[f"status_{status}"] += 1

    def reset_after_error(self) -> None:
        pass


class ActionClient:
    """Two bench players playing a match against each other: each step is one action by the
    seat to act, with If-Match and an Idempotency-Key as the README tells bot authors to
    send them. Only the POST is timed; when the seat to act is not the one that acted last,
    its view is read first (a GET, inside the slice's time: the baseline does a GET before
    each POST too). Bots move in a background worker, which the benchmark does not run, so
    no seat is a bot."""

    def __init__(self, tokens: tuple[str, str], seed: int) -> None:
        self.auths = [{"Authorization": f"Bearer {t}"} for t in tokens]
        self.rng = random.Random(seed)
        self.match_id: str | None = None
        self.views: dict[int, tuple[dict, str | None]] = {}
        self.last_post_s = 0.0

    def _create(self, conn: Conn, res: SliceResult) -> None:
        self.match_id, self.views = None, {}
        json_type = {"Content-Type": "application/json"}
        body = json.dumps({"players": 2, "visibility": "private"}).encode()
        status, _, data = conn.request("POST", "/v1/matches", body,
                                          {**self.auths[0], **json_type})
        res.extra["creates"] += 1
        if status != 201:
            res.errors += 1
            res.extra[f"create_status_{status}"] += 1
            return
        view = json.loads(data)
        body = json.dumps({"invite_code": view["invite_code"]}).encode()
        status, _, data = conn.request("POST", f"/v1/matches/{view['id']}/join", body,
                                       {**self.auths[1], **json_type})
        if status != 200:
            res.errors += 1
            res.extra[f"join_status_{status}"] += 1
            return
        self.match_id = view["id"]

    def _view(self, conn: Conn, res: SliceResult, seat: int) -> tuple[dict, str | None] | None:
        if seat not in self.views:
            status, resp, data = conn.request("GET", f"/v1/matches/{self.match_id}", None,
                                              self.auths[seat])
            res.extra["views_read"] += 1
            if status != 200:
                return None
            self.views = {seat: (json.loads(data), resp.getheader("ETag"))}
        return self.views[seat]

    def step(self, conn: Conn, res: SliceResult) -> None:
        if self.match_id is None:
            self._create(conn, res)
            return
        seen = self._view(conn, res, next(iter(self.views), 0))
        if seen is None or seen[0].get("status") != "active":
            if seen is not None and seen[0].get("status") == "finished":
                res.extra["matches_finished"] += 1
            self._create(conn, res)
            return
        seat = seen[0]["hand"]["to_act"][0]
        mine = self._view(conn, res, seat)
        if mine is None or not mine[0].get("legal_actions"):
            res.extra["no_legal_action"] += 1
            self.match_id = None
            return
        view, tag = mine
        body = json.dumps(self.rng.choice(view["legal_actions"])).encode()
        headers = {**self.auths[seat], "Content-Type": "application/json",
                   "If-Match": tag or "*", "Idempotency-Key": uuid.uuid4().hex}
        t0 = perf_counter()
        status, resp, data = conn.request("POST", f"/v1/matches/{self.match_id}/actions",
                                          body, headers)
        self.last_post_s = perf_counter() - t0
        res.record(self.last_post_s)
        res.count += 1
        res.bytes += len(data)
        if status == 200:
            res.ok += 1
            self.views = {seat: (json.loads(data), resp.getheader("ETag"))}
        else:
            res.errors += 1
            res.extra[f"action_status_{status}"] += 1
            if len(res.error_samples) < 5:
                res.error_samples.append(f"action {status}: {data[:300]!r}")
            self.views = {}

    def reset_after_error(self) -> None:
        self.views = {}  # read the views again before the next action


class CounterClient:
    """The baseline's write: one row-lock transaction per request, on its own row."""

    def __init__(self, k: int, size: int, seed: int) -> None:
        self.path = f"/counter/{k}/{size}"
        self.view_path = f"/view/{size}"
        self.rng = random.Random(seed)

    def step(self, conn: Conn, res: SliceResult) -> None:
        conn.request("GET", self.view_path, None, {})  # as our client reads the seat's view
        body = json.dumps({"type": "play", "card": self.rng.choice(["7c", "Ah", "3s"])}).encode()
        headers = {"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
        t0 = perf_counter()
        status, _, data = conn.request("POST", self.path, body, headers)
        res.record(perf_counter() - t0)
        res.count += 1
        res.bytes += len(data)
        if status == 200:
            res.ok += 1
            json.loads(data)  # our action client parses its answer too
        else:
            res.errors += 1
            res.extra[f"status_{status}"] += 1

    def reset_after_error(self) -> None:
        pass


def phase_figures(name: str, ours: dict, base: dict) -> dict:
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


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile."""
    if not values:
        return None
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(-(-q * len(ordered) // 1)) - 1))
    return ordered[k]


def hist_percentile(hist: dict[int, int], q: float) -> float | None:
    """Nearest-rank percentile of a histogram (value: count or weight), as a value: the
    least value with at least a share `q` of the total at or below it. (For whole counts,
    `seen >= q * total` is `seen >= ceil(q * total)`; the tolerance is for the float weights
    of a wrk percentile grid, where p50's point holds exactly half.)"""
    total = sum(hist.values())
    if not total:
        return None
    need = q * total * (1 - 1e-9)
    seen = 0.0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= need:
            return value
    return max(hist)


def summarise(res: SliceResult) -> dict:
    rps = res.count / res.elapsed if res.elapsed > 0 else None
    p50, p99 = hist_percentile(res.hist, 0.50), hist_percentile(res.hist, 0.99)
    return {
        "rps": rps,
        "p50_ms": None if p50 is None else p50 / 1000,
        "p99_ms": None if p99 is None else p99 / 1000,
        "count": res.count,
        "errors": res.errors,
        "seconds": res.elapsed,
        "client_cpu": res.client_cpu / res.elapsed if res.elapsed > 0 else None,
        "client_cpu_ms_per_request": (res.client_cpu / res.count * 1000) if res.count else None,
        "server_cpu": res.server_cpu / res.elapsed if res.elapsed > 0 else None,
        "server_cpu_ms_per_request": (res.server_cpu / res.count * 1000) if res.count else None,
        "pg_cpu": res.pg_cpu / res.elapsed if res.elapsed > 0 and res.pg_cpu is not None
        else None,
        "pg_cpu_ms_per_request": (res.pg_cpu / res.count * 1000)
        if res.count and res.pg_cpu is not None else None,
        "bytes_per_response": res.bytes / res.count if res.count else None,
        "extra": dict(res.extra),
        "error_samples": res.error_samples,
    }


def measure_pair(name: str, ours: Load, base: Load, rounds: int, slice_s: float,
                 warmup_s: float) -> tuple[dict, dict]:
    """Alternate slices of ours and the baseline (ABBA)."""
    warm = f"warm-up {warmup_s:g} s each" if warmup_s else "warmed up before"
    log(f"  {name}: {warm}, then {rounds} x {slice_s:g} s slices each")
    if warmup_s:
        ours.run(warmup_s)
        base.run(warmup_s)
    tot_o, tot_b = SliceResult(), SliceResult()
    for r in range(rounds):
        order = [(ours, tot_o, "ours"), (base, tot_b, "base")]
        if r % 2:
            order.reverse()
        for side, total, label in order:
            res = side.run(slice_s)
            total.add(res)
            rps = res.count / res.elapsed if res.elapsed else 0
            log(f"    slice {r + 1} {label:4}: {rps:8,.0f} req/s, {res.count:7,} requests,"
                f" {res.errors} errors")
    return summarise(tot_o), summarise(tot_b)


# --------------------------------------------------------------------------------------------
# Long polls: a selectors-based raw HTTP client for thousands of held requests
# --------------------------------------------------------------------------------------------

class Waiters:
    """Opens one socket per request, sends it, and records when each complete answer came.
    Runs in a thread until every answer is in, `stop()` is called, or `max_seconds` pass."""

    def __init__(self, port: int, requests: list[bytes], batch: int = 100,
                 max_seconds: float = WAIT_SECONDS + 30) -> None:
        self.port = port
        self.requests = requests
        self.n = len(requests)
        self.batch = batch
        self.max_seconds = max_seconds
        self.sent_at = [0.0] * self.n
        self.done_at = [0.0] * self.n
        self.status = [0] * self.n
        self.body = [b""] * self.n
        self.failed: collections.Counter = collections.Counter()
        self.sent = 0
        self.finished = 0
        self.last_sent_at = 0.0
        self._watched: set[int] = set()
        self._watched_left = 0
        self.watched_done = threading.Event()
        self._watch_cpu0: float | None = None
        self.watch_cpu = None  # this client's CPU seconds from watch() to the last answer
        self._stop = threading.Event()
        self._socks: dict[int, socket.socket] = {}
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def watch(self, indices: list[int]) -> None:
        """`watched_done` is set once every one of these requests is answered (or failed);
        call it before the change that answers them."""
        self._watch_cpu0 = None
        self._watched = set(indices)
        self._watched_left = sum(1 for i in indices if not self.done_at[i])
        if not self._watched_left:
            self.watched_done.set()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        for sock in list(self._socks.values()):
            try:
                sock.close()
            except OSError:
                pass
        self._socks.clear()

    def _finish(self, sel, i: int, status: int, why: str | None = None) -> None:
        sock = self._socks.pop(i, None)
        if sock is not None:
            try:
                sel.unregister(sock)
            except (KeyError, ValueError):
                pass
            sock.close()
        self.status[i] = status
        self.done_at[i] = perf_counter()
        self.finished += 1
        if i in self._watched:
            self._watched_left -= 1
            if self._watched_left <= 0:
                if self._watch_cpu0 is not None:
                    self.watch_cpu = time.thread_time() - self._watch_cpu0
                self.watched_done.set()
        if why:
            self.failed[why] += 1

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        todo = collections.deque(range(self.n))
        connecting = 0
        pending_out: dict[int, bytes] = {}
        bufs: dict[int, bytearray] = {}
        hard_deadline = perf_counter() + self.max_seconds
        try:
            while not self._stop.is_set() and perf_counter() < hard_deadline:
                if self._watched and self._watch_cpu0 is None:
                    self._watch_cpu0 = time.thread_time()
                while todo and connecting < self.batch:
                    i = todo.popleft()
                    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                    sock.setblocking(False)
                    err = sock.connect_ex((HOST, self.port))
                    self._socks[i] = sock
                    if err not in (0, 115):  # 115: EINPROGRESS
                        self._finish(sel, i, -1, f"connect errno {err}")
                        continue
                    sel.register(sock, selectors.EVENT_WRITE, i)
                    connecting += 1
                if self.finished >= self.n:
                    break
                for key, mask in sel.select(timeout=0.05):
                    i = key.data
                    sock = key.fileobj
                    if mask & selectors.EVENT_WRITE:
                        if i not in pending_out:
                            err = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                            connecting -= 1
                            if err:
                                self._finish(sel, i, -1, f"connect errno {err}")
                                continue
                            pending_out[i] = self.requests[i]
                        try:
                            n = sock.send(pending_out[i])
                        except OSError as exc:
                            pending_out.pop(i, None)
                            self._finish(sel, i, -1, f"send {type(exc).__name__}")
                            continue
                        rest = pending_out[i][n:]
                        if rest:
                            pending_out[i] = rest
                            continue
                        del pending_out[i]
                        self.sent_at[i] = self.last_sent_at = perf_counter()
                        self.sent += 1
                        bufs[i] = bytearray()
                        sel.modify(sock, selectors.EVENT_READ, i)
                    elif mask & selectors.EVENT_READ:
                        try:
                            data = sock.recv(65536)
                        except OSError as exc:
                            self._finish(sel, i, -1, f"recv {type(exc).__name__}")
                            continue
                        buf = bufs[i]
                        if data:
                            buf += data
                        parsed = _parse_response(bytes(buf), eof=not data)
                        if parsed is not None:
                            status, body = parsed
                            self.body[i] = body
                            self._finish(sel, i, status, None if status > 0 else "bad answer")
                            bufs.pop(i, None)
        finally:
            sel.close()


def _parse_response(buf: bytes, eof: bool) -> tuple[int, bytes] | None:
    """(status, body) once `buf` holds a complete HTTP/1.1 answer; None while incomplete."""
    head_end = buf.find(b"\r\n\r\n")
    if head_end < 0:
        return (-1, b"") if eof else None
    head = buf[:head_end].decode("latin-1").split("\r\n")
    try:
        status = int(head[0].split()[1])
    except (IndexError, ValueError):
        return -1, b""
    length = 0
    for line in head[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body = buf[head_end + 4:]
    if status == 304 or status < 200 or len(body) >= length:
        return status, body[:length]
    return (-1, b"") if eof else None


def raw_get(path: str, headers: dict[str, str]) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def wait_until_idle(server: Gunicorn, waiters: Waiters, deadline: float,
                    min_quiet: float = 0.5) -> float:
    """After every request is sent, until the workers are (nearly) idle for 0.25 s: the held
    requests have all done their first check and sleep. Returns the seconds it took."""
    t0 = perf_counter()
    while perf_counter() < deadline and waiters.sent + sum(waiters.failed.values()) < waiters.n:
        time.sleep(0.05)
    while perf_counter() < deadline:
        c0, w0 = server.cpu_seconds(), perf_counter()
        time.sleep(0.25)
        busy = (server.cpu_seconds() - c0) / (perf_counter() - w0)
        if busy < 0.10 and perf_counter() - waiters.last_sent_at >= min_quiet:
            break
    return perf_counter() - t0


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


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000


# --------------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------------

def fmt(x, spec="{:,.0f}") -> str:
    return "-" if x is None else spec.format(x)


def pct(x):
    return None if x is None else x * 100


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def rounded(x, digits=1):
    return None if x is None else round(x, digits)


def register(port: int, name: str) -> str:
    data, _, _ = call_json(port, "POST", "/v1/players", {"name": name, "bot": True}, expect=201)
    return data["token"]


def create_bot_match(port: int, token: str) -> tuple[dict, str]:
    data, hdrs, _ = call_json(port, "POST", "/v1/matches",
                              {"players": 2, "bots": [{"seat": 1, "level": "random"}],
                               "visibility": "private", "options": {"first_dealer": 1}},
                              token=token, expect=201)
    return data, hdrs.get("etag")


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
                try:
                    self.client.step(conn, self.res)
                except (OSError, http.client.HTTPException, ValueError, KeyError) as exc:
                    self.res.errors += 1
                    if len(self.res.error_samples) < 5:
                        self.res.error_samples.append(f"{type(exc).__name__}: {exc}")
                    self.client.reset_after_error()
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


def _open_fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def long_poll_phase(ours: Gunicorn, base: Gunicorn, pg: Postgres, our_db: str, n: int,
                    get_match: tuple[str, str], out: dict, seed: int = 0) -> None:
    """Held long polls on ours, fresh requests and actions meanwhile, one wake; then the
    baseline's sleeping requests."""
    groups = 10
    players = [register(ours.port, f"waiter{g}") for g in range(groups)]
    matches = [create_bot_match(ours.port, tok) for tok in players]
    actors = (register(ours.port, "lp_actor_a"), register(ours.port, "lp_actor_b"))
    # waiter i waits on match i % groups: a tenth on each; group 0's match is the one that changes
    reqs, group_of = [], []
    for i in range(n):
        g = i % groups
        view, tag = matches[g]
        reqs.append(raw_get(f"/v1/matches/{view['id']}?wait={WAIT_SECONDS}",
                            {"Authorization": f"Bearer {players[g]}", "If-None-Match": tag}))
        group_of.append(g)
    group0 = [i for i in range(n) if group_of[i] == 0]
    others = [i for i in range(n) if group_of[i] != 0]
    view_path, view_token = get_match
    view_headers = {"Authorization": f"Bearer {view_token}"}
    probes = 25

    idle_h, _ = probe_latencies(ours.port, "/healthz", {}, probes, perf_counter() + 10)
    idle_v, _ = probe_latencies(ours.port, view_path, view_headers, probes, perf_counter() + 10)
    fds0 = {p: _open_fds(p) for p in ours.workers}
    rss0 = ours.rss_kb()
    db_idle = pg.backends(our_db)

    log(f"  ours: opening {n:,} long polls (wait={WAIT_SECONDS}, If-None-Match),"
        f" {len(group0):,} on the match that will change")
    waiters = Waiters(ours.port, reqs, max_seconds=WAIT_SECONDS + 30)
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
        fds1 = {p: _open_fds(p) for p in ours.workers}
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

        def in_use(rows):
            return [r for r in rows if r[0] != "idle" and r[2] != "LISTEN truco"]

        def listeners(rows):
            return [r for r in rows if r[2] == "LISTEN truco"]

        # the wake: one action on match 0 as its seated player
        view0, tag0 = matches[0]
        action = view0["legal_actions"][0]
        waiters.watch(group0)
        t_post = perf_counter()
        acted, _, _ = call_json(ours.port, "POST", f"/v1/matches/{view0['id']}/actions",
                                action, token=players[0],
                                extra={"If-Match": tag0, "Idempotency-Key": uuid.uuid4().hex})
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
        wake_after_post_answer_ms=rounded(ms(last - t_posted) if wake_all else None, 1),
        wake_new_version=versions_ok,
        wake_others_answered=others_answered,
    )
    log(f"    fresh requests while {n:,} wait: /healthz p50 {fmt(out['waiting_healthz_ms'], '{:.1f}')}"
        f" ms (max {fmt(out['waiting_healthz_max_ms'], '{:.1f}')}; idle before:"
        f" {fmt(out['idle_healthz_ms'], '{:.1f}')}), match view p50"
        f" {fmt(out['waiting_view_ms'], '{:.1f}')} ms (max {fmt(out['waiting_view_max_ms'], '{:.1f}')};"
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
    bw = Waiters(base.port, [raw_get(f"/wait?wait={WAIT_SECONDS}", {}) for _ in range(n)],
                 max_seconds=WAIT_SECONDS + 30)
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


def scan_log(server: Gunicorn) -> tuple[int, list[str]]:
    """Lines of a server's log that look like trouble (the normal boot and stop lines not)."""
    bad = []
    for line in server.log_text().splitlines():
        low = line.lower()
        if any(w in low for w in ("error", "traceback", "exception", "critical", "warning",
                                  "timeout", "exited", "killed")) \
                and "booting worker" not in low:
            bad.append(line)
    return len(bad), bad


def raise_nofile(needed: int) -> tuple[int, int]:
    """Raise this process's soft RLIMIT_NOFILE to its hard limit (the servers it starts
    inherit it); warn when even that is below `needed`. Returns (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, needed)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError) as exc:
            log(f"warning: could not raise RLIMIT_NOFILE to {target}: {exc}")
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        log(f"warning: RLIMIT_NOFILE is {soft} (hard {hard}), below the {needed:,} file"
            f" descriptors the long polls need: some will fail to connect")
    return soft, hard


def _nofile_of(pid: int) -> str:
    """The soft 'Max open files' of a process, from /proc."""
    try:
        with open(f"/proc/{pid}/limits") as f:
            for line in f:
                if line.startswith("Max open files"):
                    return line.split()[3]
    except OSError:
        pass
    return "?"


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="about a minute, 500 long polls")
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


def main(argv=None) -> int:
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
        from bench import _wrk
        get_client = (f"{_wrk.version(wrk)} -t{args.wrk_threads} -c{args.connections}"
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

    out: dict = {}
    failed = False
    pg = ours = base = None
    procs: list[ClientProcs] = []
    tmp = Path(tempfile.mkdtemp(prefix="truco-bench-api-"))
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_stop)
    try:
        t0 = perf_counter()
        pg = Postgres(tmp)
        global PG_CPU
        PG_CPU = pg.cpu_seconds if pg.cpu_seconds() is not None else None
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
        ours = Gunicorn("ours", "wsgi:app",
                        {"DATABASE_URL": our_url, "TRUCO_ENV": "testing", **conns}, tmp)
        base = Gunicorn("baseline", "bench._baseline_app:app",
                        {"BASELINE_DSN": libpq_url(base_url), "TRUCO_ENV": "testing", **conns},
                        tmp)
        ours.wait_healthy()
        base.wait_healthy()
        log(f"servers up in {perf_counter() - t0:.1f} s: ours on :{ours.port} (workers"
            f" {ours.workers}), baseline on :{base.port} (workers {base.workers});"
            f" workers' open-file limit {sorted({_nofile_of(p) for p in ours.workers + base.workers})}")

        # set-up: one player per client (wrk connection or thread), each with a match to read
        readers = args.connections if wrk else clients_n
        players_n = max(readers, clients_n)
        tokens = [register(ours.port, f"bench{i}") for i in range(players_n)]
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
        static = [(f"/view/{view_bytes}", {})]

        def get_loads(entries, expect, name):
            """Ours reading `entries` (answering `expect`), the baseline its static body."""
            if wrk:
                def side(server, ents, status, label):
                    return Load(server, WrkLoad(wrk, server.port, ents, status,
                                                args.wrk_threads, args.connections,
                                                tmp / f"{name}_{label}.lua"))
                return side(ours, entries, expect, "ours"), side(base, static, 200, "base")
            o = ClientProcs(ours.port, [GetClient.with_headers(p, h, expect)
                                        for p, h in entries], args.client_procs)
            b = ClientProcs(base.port, [GetClient(static[0][0], None)
                                        for _ in range(clients_n)], args.client_procs)
            procs.extend([o, b])
            return Load(ours, o), Load(base, b)

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
        opponents = [register(ours.port, f"bench_b{i}") for i in range(clients_n)]
        actors = [ActionClient((t, o), args.seed + i)
                  for i, (t, o) in enumerate(zip(tokens, opponents))]
        ours_actions = ClientProcs(ours.port, actors, args.client_procs)
        procs.append(ours_actions)
        act_load_o = Load(ours, ours_actions)
        probe = act_load_o.run(warmup_s)  # also the warm-up
        action_bytes = round(probe.bytes / probe.count) if probe.count else view_bytes
        out["action_bytes"] = action_bytes
        base_actions = ClientProcs(base.port, [CounterClient(i, action_bytes, args.seed + i)
                                               for i in range(clients_n)], args.client_procs)
        procs.append(base_actions)
        act_load_b = Load(base, base_actions)
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
                f"{fmt(pct(s['client_cpu']), '{:.0f}%'):>8}"
                f"{fmt(pct(s['server_cpu']), '{:.0f}%'):>8}"
                f"{fmt(pct(s['pg_cpu']), '{:.0f}%'):>6}"
                f"{fmt(s['client_cpu_ms_per_request'], '{:.2f}'):>8}"
                f"{fmt(s['server_cpu_ms_per_request'], '{:.2f}'):>9}"
                f"{fmt(s['pg_cpu_ms_per_request'], '{:.2f}'):>7}")
        log(f"ours / baseline: GET {fmt(ratio(get_o['rps'], get_b['rps']), '{:.2f}x')}, 304"
            f" {fmt(ratio(poll_o['rps'], poll_b['rps']), '{:.2f}x')}, action"
            f" {fmt(ratio(act_o['rps'], act_b['rps']), '{:.2f}x')} the requests per second")
        log(f"action load: {act_o['count']:,} actions, {ex.get('creates', 0)} matches created,"
            f" {finished} finished ({fmt(act_o['count'] / finished if finished else None, '{:.1f}')}"
            f" actions per match); other: "
            f"{ {k: v for k, v in ex.items() if k not in ('creates', 'matches_finished')} or 'none'}")
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
                f" client used {fmt(pct(o_or_b['client_cpu']), '{:.0f}%')} of a core, over"
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
            failed = True

        log("")
        log("long polls:")
        try:
            long_poll_phase(ours, base, pg, our_db, n_waiters,
                            (f"/v1/matches/{get_matches[0]}", tokens[0]), out, args.seed)
            if out.get("wake_all_ms") is None or out.get("waiters_answered_early") \
                    or out.get("waiting_probe_errors") or out.get("waiters_failed") \
                    or out.get("waiters_failed_baseline") or out.get("waiting_action_errors"):
                failed = True
        except Exception:
            failed = True
            log("long-poll phase failed:")
            log(traceback.format_exc())
    except (KeyboardInterrupt, Stop):
        failed = True
        log("interrupted; stopping what was started")
    except Exception:
        failed = True
        log("failed:")
        log(traceback.format_exc())
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        try:
            for p in procs:
                p.close()
            for server in (ours, base):
                if server is not None:
                    server.stop()
                    count, lines = scan_log(server)
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
            signal.signal(signal.SIGINT, signal.default_int_handler)

    out.update(client=get_client, action_client=action_client, clients=clients_n,
               client_procs=args.client_procs,
               connections=args.connections if wrk else None,
               wrk_threads=args.wrk_threads if wrk else None,
               seconds_per_slice=math.ceil(slice_s) if wrk else slice_s, rounds=rounds,
               quick=bool(args.quick), python=platform.python_version(),
               worker_connections=worker_connections, rlimit_nofile=nofile,
               date=time.strftime("%Y-%m-%d"), wall_s=round(perf_counter() - t_run, 1))
    log("")
    print(json.dumps(out), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
