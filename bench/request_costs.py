#!/usr/bin/env python3
"""What each kind of request costs, in CPU, ours against the baseline, one request at a time.

    .venv/bin/python bench/request_costs.py            # 10 s per side
    .venv/bin/python bench/request_costs.py --quick    # 4 s per side

bench/api.py measures throughput under concurrent load, where a request's cost is the share
of the cores it took; this script says where that goes. It starts the same two servers as
bench/api.py (our `wsgi:app` and `bench/_baseline_app.py`, 2 gevent workers each, on one
embedded PostgreSQL or BENCH_DATABASE_URL), then sends one request at a time on a keep-alive
connection and charges each request the CPU time its server's workers and the PostgreSQL
processes ran meanwhile (read from /proc/<pid>/task/*/schedstat: nanoseconds, not ticks).

Ours: two bench players play matches against each other as bench/api.py's action client does
(the view of the seat to act, a legal action with If-Match and an Idempotency-Key, a new match
created and joined when one ends). The kinds: `action` (the POST), `view_new` (a GET of a
version not rendered yet: the version read, then the match read and rendered),
`view_rendered` (the same GET again at once: the version read, the rendering shared), `create`
and `join`. The baseline: `GET /view/<size>` and `POST
/counter/<k>/<size>` (a `SELECT ... FOR UPDATE` + `UPDATE` transaction).

One request at a time, a request pays costs that concurrent requests share (a gevent loop
turn, a database round trip of its own where bench/api.py's views share one query): the
figures are each kind's cost alone, higher than bench/api.py's per-request figures. The last
line is JSON.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from typing import Any
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib.calls import register  # noqa: E402
from bench.lib.database import Postgres, libpq_url, make_counters, migrate_to_head  # noqa: E402
from bench.lib.processes import MeasuredServer  # noqa: E402
from bench.lib.procfs import cpu_ns  # noqa: E402
from bench.lib.report import last_line, options  # noqa: E402
from devtools.servers import HOST  # noqa: E402


class RequestMeter:
    """One keep-alive connection to a server; each request is charged the CPU its workers
    and PostgreSQL's processes ran while it was answered."""

    def __init__(self, server: MeasuredServer, pg_pids: Callable[[], list[int]]) -> None:
        self.conn = http.client.HTTPConnection(HOST, server.port, timeout=10)
        self.workers = server.workers
        self.pg_pids = pg_pids
        self.costs: dict[str, list[float]] = {}  # kind: [count, worker ns, pg ns]

    def request(self, kind: str, method: str, path: str, body: object = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
        data = None if body is None else json.dumps(body).encode()
        hdrs = {**(headers or {}), **({"Content-Type": "application/json"} if data else {})}
        pg = self.pg_pids()
        w0, p0 = cpu_ns(self.workers), cpu_ns(pg)
        self.conn.request(method, path, body=data, headers=hdrs)
        resp = self.conn.getresponse()
        raw = resp.read()
        w1, p1 = cpu_ns(self.workers), cpu_ns(pg)
        count = self.costs.setdefault(kind, [0, 0, 0])
        count[0] += 1
        count[1] += w1 - w0
        count[2] += p1 - p0
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, \
            (json.loads(raw) if raw else None)

    def summary(self) -> dict[str, dict[str, float]]:
        return {kind: {"n": n, "worker_ms": round(w / n / 1e6, 3), "pg_ms": round(p / n / 1e6, 3)}
                for kind, (n, w, p) in self.costs.items()}


def play_ours(meter: RequestMeter, tokens: list[str], seconds: float, seed: int) -> None:
    auths = [{"Authorization": f"Bearer {t}"} for t in tokens]
    rng = random.Random(seed)

    def new_match() -> str:
        status, _, view = meter.request("create", "POST", "/v1/matches",
                                        {"players": 2, "visibility": "private"}, auths[0])
        assert status == 201, view
        status, _, joined = meter.request("join", "POST", f"/v1/matches/{view['id']}/join",
                                          {"invite_code": view["invite_code"]}, auths[1])
        assert status == 200, joined
        created: str = view["id"]
        return created

    match_id = new_match()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seat = 0
        for _ in range(2):  # seat 0's view, then (when another seat acts) that seat's
            status, headers, view = meter.request("view_new", "GET", f"/v1/matches/{match_id}",
                                                  headers=auths[seat])
            assert status == 200, view
            again, _, _ = meter.request("view_rendered", "GET", f"/v1/matches/{match_id}",
                                        headers=auths[seat])
            assert again == 200
            if view["status"] != "active" or view["hand"]["to_act"][0] == seat:
                break
            seat = view["hand"]["to_act"][0]
        if view["status"] != "active":
            match_id = new_match()
            continue
        status, _, after = meter.request(
            "action", "POST", f"/v1/matches/{match_id}/actions",
            rng.choice(view["legal_actions"]),
            {**auths[seat], "If-Match": headers["etag"], "Idempotency-Key": uuid.uuid4().hex})
        assert status == 200, after


def play_baseline(meter: RequestMeter, size: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, _, _ = meter.request("view", "GET", f"/view/{size}")
        assert status == 200
        status, _, _ = meter.request("counter", "POST", f"/counter/1/{size}",
                                     {"type": "play", "card": "7c"})
        assert status == 200


def main(argv: list[str] | None = None) -> int:
    ap = options(__doc__, "4 s per side")
    ap.add_argument("--seconds", type=float, default=None, help="seconds per side (10)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    seconds = args.seconds or (4.0 if args.quick else 10.0)
    tmp = Path(tempfile.mkdtemp(prefix="truco-bench-costs-"))
    pg = ours = base = None
    try:
        pg = Postgres(tmp)
        our_url = pg.create_database(f"bench_costs_{os.getpid()}")
        base_url = pg.create_database(f"bench_costs_base_{os.getpid()}")
        migrate_to_head(our_url)
        make_counters(base_url, 8)
        ours = MeasuredServer("ours", {"DATABASE_URL": our_url, "TRUCO_ENV": "testing"}, tmp)
        base = MeasuredServer("baseline", {"BASELINE_DSN": libpq_url(base_url),
                                           "TRUCO_ENV": "testing"}, tmp,
                              app_spec="bench._baseline_app:app")
        ours.wait_healthy()
        base.wait_healthy()
        postmaster = pg.postmaster_pid()
        tokens = [register(ours.port, "costs_a", bot=True)[1],
                  register(ours.port, "costs_b", bot=True)[1]]
        our_meter, base_meter = RequestMeter(ours, pg.pids), RequestMeter(base, pg.pids)
        play_ours(our_meter, tokens, 1.0, args.seed)  # warm-up: caches, prepared statements
        play_baseline(base_meter, 1800, 1.0)
        our_meter.costs.clear()
        base_meter.costs.clear()
        play_ours(our_meter, tokens, seconds, args.seed + 1)
        play_baseline(base_meter, 1800, seconds)
        out: dict[str, Any] = {"ours": our_meter.summary(), "baseline": base_meter.summary(),
               "pg": pg.kind, "seconds_per_side": seconds}
        print(f"CPU per request, one at a time ({seconds:g} s per side; PostgreSQL:"
              f" {pg.kind}{'' if postmaster else ', its CPU not measured'}):")
        print(f"  {'':16}{'n':>7}{'workers ms':>12}{'PG ms':>9}")
        for side in ("ours", "baseline"):
            for kind, c in out[side].items():
                print(f"  {side + ' ' + kind:16}{c['n']:>7}{c['worker_ms']:>12.3f}"
                      f"{c['pg_ms']:>9.3f}")
        o, b = out["ours"], out["baseline"]
        if "action" in o and "counter" in b:
            out["action_worker_ratio"] = round(
                o["action"]["worker_ms"] / b["counter"]["worker_ms"], 2)
        if "view_new" in o and "view" in b:
            out["view_new_worker_ratio"] = round(
                o["view_new"]["worker_ms"] / b["view"]["worker_ms"], 2)
        print(f"ours / baseline worker CPU: action {out.get('action_worker_ratio')}x the"
              f" counter POST, a view of a new version {out.get('view_new_worker_ratio')}x the"
              f" static GET")
        last_line(out)
        return 0
    finally:
        for server in (ours, base):
            if server is not None:
                server.stop()
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
