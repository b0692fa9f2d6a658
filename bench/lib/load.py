"""Load for a fixed time: Python http.client threads (in this process or spread over forked
processes) or wrk, each slice's requests, latencies, errors and the CPU of the client, the
server's workers and PostgreSQL; and the alternation of two sides' slices (ABBA)."""
from __future__ import annotations

import collections
import http.client
import math
import multiprocessing
import signal
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from bench.lib import wrk as wrk_client
from bench.lib.calls import REQUEST_TIMEOUT
from bench.lib.processes import MeasuredServer
from bench.lib.report import log
from bench.lib.stats import hist_percentile, latency_bucket_us
from devtools.servers import HOST

perf_counter = time.perf_counter
MAX_REQUESTS_PER_THREAD = 2_000_000
"""Every request loop also stops after this many requests, whatever its deadline says."""
PY_CLIENT = "python http.client threads (keep-alive)"


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


class SliceResult:
    """The figures of one slice of load (or of several, merged with :meth:`add`)."""

    def __init__(self) -> None:
        self.count = 0          # measured requests (GETs, or action POSTs)
        self.ok = 0
        self.errors = 0         # exceptions and unexpected statuses
        self.extra: collections.Counter[str] = collections.Counter()
        self.hist: collections.Counter[int] = collections.Counter()  # latency µs bucket: count
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



class Client(Protocol):
    """What a load thread runs: one step (a request or a few) at a time on its connection."""

    def step(self, conn: Conn, res: SliceResult) -> None: ...

    def reset_after_error(self) -> None: ...


Runner = Callable[[float], SliceResult]
"""Drives a server for a duration and gives the client side's figures."""


def step_once(client: Client, conn: Conn, res: SliceResult) -> None:
    """One step of `client`; a failed request is counted in `res` (with a sample of the
    first few) and the client reset."""
    try:
        client.step(conn, res)
    except (OSError, http.client.HTTPException, ValueError, KeyError) as exc:
        res.errors += 1
        if len(res.error_samples) < 5:
            res.error_samples.append(f"{type(exc).__name__}: {exc}")
        client.reset_after_error()


def run_threads(port: int, clients: Sequence[Client], duration: float,
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
                step_once(clients[i], conn, res)
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


def _client_process(port: int, clients: Sequence[Client], conn: Any) -> None:
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

    def __init__(self, port: int, clients: Sequence[Client], procs: int) -> None:
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
    headers), one seated player each (see bench/lib/wrk.py); `expect` is the one good status."""

    def __init__(self, wrk: str, port: int, entries: list[tuple[str, dict[str, str]]],
                 expect: int, threads: int, connections: int, script: Path) -> None:
        self.wrk, self.port, self.expect = wrk, port, expect
        self.threads, self.connections = threads, connections
        self.script = script
        script.write_text(wrk_client.lua_script(entries, threads))
        self.last_output = ""

    def __call__(self, duration: float) -> SliceResult:
        seconds = max(1, math.ceil(duration))
        got, cpu, self.last_output = wrk_client.run(self.wrk, f"http://{HOST}:{self.port}",
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

    def __init__(self, server: MeasuredServer, runner: Runner,
                 pg_cpu: Callable[[], float | None] | None = None) -> None:
        """`pg_cpu`: PostgreSQL's CPU seconds so far (an embedded server's), or None."""
        self.server, self.runner, self.pg_cpu = server, runner, pg_cpu

    def run(self, duration: float) -> SliceResult:
        srv0 = self.server.cpu_seconds()
        pg0 = self.pg_cpu() if self.pg_cpu else None
        res = self.runner(duration)
        res.server_cpu = self.server.cpu_seconds() - srv0
        pg1 = self.pg_cpu() if self.pg_cpu else None
        res.pg_cpu = None if pg0 is None or pg1 is None else pg1 - pg0
        return res


def summarise(res: SliceResult) -> dict[str, Any]:
    """A slice's figures: rates, latency percentiles in ms, CPU shares and per request."""
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
                 warmup_s: float) -> tuple[dict[str, Any], dict[str, Any]]:
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


