#!/usr/bin/env python3
"""Benchmark the Server-Sent Events streams: many held at once, and a change delivered.

    .venv/bin/python bench/streams.py            # 10,000 streams (a few minutes)
    .venv/bin/python bench/streams.py --quick    # 2,000 streams (about a minute)

It starts what it measures and stops it at the end: PostgreSQL (embedded, or the server of
BENCH_DATABASE_URL; its role needs CREATEDB), ours (``gunicorn -c gunicorn.conf.py wsgi:app``,
TRUCO_ENV=testing, two gevent workers) and the baseline (the same gunicorn setup serving
bench/_baseline_stream.py: a bare Flask stream from a sleeping greenlet).

1. Held: N spectator streams (``GET /v1/matches/{id}/stream``, no token) opened by one
   selectors-based client, a tenth on one match and the rest over nine others, each counted
   once its first view has arrived. The workers' memory per stream (RSS after minus before,
   over N) beside the baseline's for N ``GET /stream``; ``kb_ratio`` ours / that (target:
   at most 1.5). PostgreSQL backends of our database not idle meanwhile (a held stream
   holds none).
2. Delivered: while a thread plays actions on another match (a step every 50 ms at most, its
   latency measured), one action on the first match; ``delivery_p99_ms`` is the 99th
   percentile, over that match's N/10 streams, of the time from sending the POST to the
   stream's next view (target: under 250 ms).

The last line of output is one JSON object with every figure.
"""
from __future__ import annotations

import os
import selectors
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib.calls import call_json, register  # noqa: E402
from bench.lib.database import Postgres, migrate_to_head  # noqa: E402
from bench.lib.processes import MeasuredServer, raise_nofile  # noqa: E402
from bench.lib.report import last_line, log, options, trouble_lines  # noqa: E402
from bench.lib.stats import percentile  # noqa: E402
from devtools.servers import HOST  # noqa: E402

DELIVERY_TARGET_MS = 250
KB_RATIO_TARGET = 1.5
VIEW = b"\nevent: view\n"


class Streams:
    """N held streams read by one thread; `mark` starts a count of the views after it."""

    def __init__(self, port: int, paths: list[str], batch: int = 200) -> None:
        self.port = port
        self.paths = paths
        self.batch = batch
        self.sockets: list[socket.socket] = []
        self.first: list[float | None] = [None] * len(paths)
        self.ok = [False] * len(paths)
        self.closed = 0
        self.tail: dict[int, bytes] = {}
        self.marked: dict[int, float | None] = {}
        self._sel = selectors.DefaultSelector()
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)

    def open(self, timeout: float = 30) -> float:
        """Open every stream, a batch at a time (each batch's first views in, within
        `timeout`, before the next); the seconds it took."""
        self._thread.start()
        start = time.monotonic()
        for lo in range(0, len(self.paths), self.batch):
            for i in range(lo, min(lo + self.batch, len(self.paths))):
                sock = socket.create_connection((HOST, self.port))
                sock.sendall(f"GET {self.paths[i]} HTTP/1.1\r\nHost: {HOST}\r\n"
                             "Accept: text/event-stream\r\n\r\n".encode())
                sock.setblocking(False)
                self.sockets.append(sock)
                self._sel.register(sock, selectors.EVENT_READ, i)
            hi = min(lo + self.batch, len(self.paths))
            sent = time.monotonic()
            while any(f is None for f in self.first[lo:hi]):
                if time.monotonic() - sent > timeout:
                    raise RuntimeError(f"streams {lo}..{hi} not all answered in {timeout} s")
                time.sleep(0.02)
        return time.monotonic() - start

    def _run(self) -> None:
        while not self._stop:
            if not self._sel.get_map():
                time.sleep(0.01)
                continue
            ready = self._sel.select(timeout=0.05)  # (epoll: others register meanwhile)
            now = time.monotonic()
            for key, _ in ready:
                i = key.data
                try:
                    # (selectors types fileobj as anything with a fileno: here, our sockets)
                    data = cast(socket.socket, key.fileobj).recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.closed += 1
                    self._sel.unregister(key.fileobj)
                    continue
                if self.first[i] is None:
                    self.ok[i] = data.startswith(b"HTTP/1.1 200") and b"text/event-stream" in data
                    if VIEW in data or b"\r\n\r\n" in data:
                        self.first[i] = now
                if i in self.marked and self.marked[i] is None:
                    seen = self.tail.get(i, b"") + data
                    if VIEW in seen:
                        self.marked[i] = now
                    self.tail[i] = seen[-len(VIEW):]

    def mark(self, indices: list[int]) -> None:
        for i in indices:
            self.tail[i] = b""
            self.marked[i] = None

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


def match_between(port: int, tokens: tuple[str, str]) -> str:
    """A started public 2-player match of the two players."""
    view, _, _ = call_json(port, "POST", "/v1/matches", {"players": 2, "visibility": "public",
                                                         "seat": 0}, tokens[0], expect=201)
    call_json(port, "POST", f"/v1/matches/{view['id']}/join", {"seat": 1}, tokens[1])
    match_id: str = view["id"]
    return match_id


def act(port: int, match_id: str, tokens: tuple[str, str]) -> float:
    """One action of the seat to act (its first legal action); the seconds it took."""
    view, _, _ = call_json(port, "GET", f"/v1/matches/{match_id}", token=tokens[0])
    seat = view["hand"]["to_act"][0]
    mine, _, _ = call_json(port, "GET", f"/v1/matches/{match_id}", token=tokens[seat])
    start = time.monotonic()
    call_json(port, "POST", f"/v1/matches/{match_id}/actions", mine["legal_actions"][0],
              tokens[seat])
    return time.monotonic() - start


def busy_backends(pg: Postgres, database: str) -> int:
    """Backends of `database` doing something (neither idle nor the LISTEN)."""
    return sum(1 for state, app, query in pg.backends(database)
               if state not in ("idle", "") and query != "LISTEN truco")


def measure_ours(port: int, server: MeasuredServer, pg: Postgres, database: str,
                 n: int) -> dict[str, float]:
    tokens = (register(port, "ana")[1], register(port, "bia")[1])
    matches = [match_between(port, tokens) for _ in range(10)]
    side = match_between(port, tokens)
    paths = [f"/v1/matches/{matches[0 if i < n // 10 else 1 + i % 9]}/stream"
             for i in range(n)]
    before = server.rss_kb()
    streams = Streams(port, paths)
    try:
        opened = streams.open()
        time.sleep(2)
        held = sum(streams.ok)
        kb = (server.rss_kb() - before) / n
        busy = max(busy_backends(pg, database) for _ in range(5))
        log(f"ours: {held} of {n} streams held (opened in {opened:.1f} s), "
            f"{kb:.1f} KB each, backends busy at most {busy}")
        latencies: list[float] = []
        stop = threading.Event()

        def side_actions() -> None:
            while not stop.is_set():
                try:
                    latencies.append(act(port, side, tokens))
                except RuntimeError:
                    side_reset[0] += 1
                stop.wait(0.05)

        side_reset = [0]
        thread = threading.Thread(target=side_actions, daemon=True)
        thread.start()
        time.sleep(2)
        targets = list(range(n // 10))
        streams.mark(targets)
        posted = time.monotonic()
        act(port, matches[0], tokens)
        deadline = posted + 15
        while time.monotonic() < deadline and any(
                streams.marked[i] is None for i in targets):
            time.sleep(0.01)
        time.sleep(1)
        stop.set()
        thread.join()
        delivered = [(streams.marked[i] or 0) - posted for i in targets
                     if streams.marked[i] is not None]
        p99 = percentile([d * 1000 for d in delivered], 0.99)
        figures: dict[str, float] = {
            "streams": n, "streams_held": held, "closed_early": streams.closed,
            "kb_per_stream": round(kb, 2), "backends_busy_max": busy,
            "open_s": round(opened, 1), "delivered": len(delivered), "targets": len(targets),
            "delivery_p50_ms": round(percentile([d * 1000 for d in delivered], 0.5) or 0, 1),
            "delivery_p99_ms": round(p99 or 0, 1),
            "delivery_max_ms": round(max(delivered, default=0) * 1000, 1),
            "actions_meanwhile": len(latencies),
            "action_p99_ms": round(percentile([x * 1000 for x in latencies], 0.99) or 0, 1),
        }
        log(f"ours: {len(delivered)} of {len(targets)} streams of the changed match got its "
            f"view, p50 {figures['delivery_p50_ms']} ms, p99 {figures['delivery_p99_ms']} ms, "
            f"max {figures['delivery_max_ms']} ms; {len(latencies)} actions meanwhile, "
            f"p99 {figures['action_p99_ms']} ms")
        return figures
    finally:
        streams.close()


def measure_baseline(port: int, server: MeasuredServer, n: int) -> float:
    before = server.rss_kb()
    streams = Streams(port, ["/stream"] * n)
    try:
        streams.open()
        time.sleep(2)
        kb = (server.rss_kb() - before) / n
        log(f"baseline: {sum(streams.ok)} of {n} streams held, {kb:.1f} KB each")
        return kb
    finally:
        streams.close()


def main() -> int:
    parser = options(__doc__, "2,000 streams")
    parser.add_argument("--streams", type=int, help="how many streams (default 10,000)")
    args = parser.parse_args()
    n = args.streams or (2000 if args.quick else 10000)
    raise_nofile(n + 1000)
    tmp = Path(tempfile.mkdtemp(prefix="bench-streams-"))
    pg = Postgres(tmp)
    servers: list[MeasuredServer] = []
    try:
        database = f"bench_streams_{os.getpid()}"
        url = pg.create_database(database)
        migrate_to_head(url)
        connections = str(max(2000, n + 500))
        ours = MeasuredServer("ours", {"DATABASE_URL": url, "TRUCO_ENV": "testing",
                                       "GUNICORN_WORKER_CONNECTIONS": connections}, tmp)
        base = MeasuredServer("baseline", {"GUNICORN_WORKER_CONNECTIONS": connections}, tmp,
                              app_spec="bench._baseline_stream:app")
        servers = [ours, base]
        for server in servers:
            server.wait_healthy()
        figures = measure_ours(ours.port, ours, pg, database, n)
        figures["kb_per_stream_baseline"] = round(measure_baseline(base.port, base, n), 2)
        figures["kb_ratio"] = round(figures["kb_per_stream"]
                                    / max(figures["kb_per_stream_baseline"], 0.01), 2)
        figures["targets_met"] = (figures["streams_held"] == n
                                  and figures["delivered"] == figures["targets"]
                                  and figures["delivery_p99_ms"] < DELIVERY_TARGET_MS
                                  and figures["kb_ratio"] <= KB_RATIO_TARGET)
        for server in servers:
            trouble = trouble_lines(server.log_text(), ("error", "traceback"))
            if trouble:
                log(f"{server.name} log: " + "\n".join(trouble[:20]))
        last_line(figures)
        return 0 if figures["streams_held"] == n else 1
    finally:
        for server in servers:
            server.stop()
        pg.stop()


if __name__ == "__main__":
    sys.exit(main())
