#!/usr/bin/env python3
"""Profile the hot requests in-process (Flask's test client, no gunicorn, no network).

    PROFILE_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/profile_api.py [--n 2000] [--top 25] [--only view,poll,action]

A database ``truco_profile_<pid>`` is created on that server (its role needs CREATEDB),
migrated to head and dropped at the end; without PROFILE_DATABASE_URL (or TEST_DATABASE_URL)
an embedded PostgreSQL is started. For each kind of request it prints the in-process
milliseconds per request (wall clock: Python plus the database round trips) and the top
functions of cProfile by own time: the lines quoted in docs/benchmarks.md.

Kinds: ``view`` (GET a match view as its seated player), ``poll`` (the same GET with
If-None-Match of the current ETag: a 304), ``action`` (POST a legal action with If-Match and an
Idempotency-Key, as bench/api.py's clients do, in a match of two bench players: the view of
the seat to act is read, and a finished match replaced, with the profiler and the clock
paused).
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib.database import Postgres, migrate_to_head  # noqa: E402


def _new_match(client: Any, auth: dict[str, str]) -> tuple[dict[str, Any], str]:
    resp = client.post("/v1/matches", headers=auth, json={
        "players": 2, "bots": [{"seat": 1, "level": "random"}], "visibility": "private"})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    return resp.get_json(), resp.headers["ETag"]


class Player:
    """Two bench players: one reads its match (view, poll); both play a match of their own
    against each other (action), each acting when it is its turn."""

    def __init__(self, client: Any, seed: int) -> None:
        self.client = client
        self.auths = [self._register(), self._register()]
        self.auth = self.auths[0]
        view, self.read_tag = _new_match(client, self.auth)
        self.read_path = f"/v1/matches/{view['id']}"
        self.rng = random.Random(seed)
        self.pause: Any = lambda: None  # the profiler's disable/enable around set-up work
        self.resume: Any = lambda: None
        self._new_game()

    def _register(self) -> dict[str, str]:
        body = self.client.post("/v1/players", json={"name": "prof", "bot": True}).get_json()
        return {"Authorization": f"Bearer {body['token']}"}

    def _new_game(self) -> None:
        resp = self.client.post("/v1/matches", headers=self.auths[0],
                                json={"players": 2, "visibility": "private"})
        view = resp.get_json()
        join = self.client.post(f"/v1/matches/{view['id']}/join", headers=self.auths[1],
                                json={"invite_code": view["invite_code"]})
        assert join.status_code == 200, join.get_data(as_text=True)
        self.match_id = view["id"]
        self.views: dict[int, tuple[dict[str, Any], str]] = {}

    def get_view(self) -> None:
        assert self.client.get(self.read_path, headers=self.auth).status_code == 200

    def poll(self) -> None:
        resp = self.client.get(self.read_path,
                               headers={**self.auth, "If-None-Match": self.read_tag})
        assert resp.status_code == 304, resp.status_code

    def _view_of(self, seat: int) -> tuple[dict[str, Any], str]:
        if seat not in self.views:
            resp = self.client.get(f"/v1/matches/{self.match_id}", headers=self.auths[seat])
            self.views = {seat: (resp.get_json(), resp.headers["ETag"])}
        return self.views[seat]

    def act(self) -> None:
        """One action by the seat to act (finding its view and starting a new match when
        needed happen with the profiler paused)."""
        self.pause()
        view, _ = self._view_of(0)
        if view["status"] != "active":
            self._new_game()
            view, _ = self._view_of(0)
        seat = view["hand"]["to_act"][0]
        view, tag = self._view_of(seat)
        action = self.rng.choice(view["legal_actions"])
        self.resume()
        resp = self.client.post(f"/v1/matches/{self.match_id}/actions", json=action,
                                headers={**self.auths[seat], "If-Match": tag,
                                         "Idempotency-Key": uuid.uuid4().hex})
        assert resp.status_code == 200, resp.get_data(as_text=True)
        self.views = {seat: (resp.get_json(), resp.headers["ETag"])}


STATEMENTS: dict[str, int] = {}
"""SQL statements sent (first word; COMMIT and ROLLBACK included) since the last clear."""


def _count_statements(engine: Any) -> None:
    from sqlalchemy import event

    @event.listens_for(engine, "before_cursor_execute")
    def statement(conn: Any, cursor: Any, sql: str, *rest: Any) -> None:
        kind = sql.split(None, 1)[0].upper() if sql.strip() else "?"
        if kind == "SELECT" and "pg_notify" in sql:
            kind = "NOTIFY"
        STATEMENTS[kind] = STATEMENTS.get(kind, 0) + 1

    from app.db import prepared
    real_run = prepared.run

    def run(conn: Any, statements: list[Any], params: dict[str, Any],
            begin: bool = False, commit: bool = False,
            after_commit: list[Any] | None = None) -> Any:
        if begin:
            STATEMENTS["BEGIN"] = STATEMENTS.get("BEGIN", 0) + 1
        for one in statements:  # (prepared statements bypass SQLAlchemy's events)
            STATEMENTS[f"EXECUTE {one.name}"] = STATEMENTS.get(f"EXECUTE {one.name}", 0) + 1
        if commit:
            STATEMENTS["COMMIT"] = STATEMENTS.get("COMMIT", 0) + 1
        if after_commit:  # in a transaction of their own (prepared.AFTER_COMMIT), then COMMIT
            for part in prepared.AFTER_COMMIT:
                kind = part.split(None, 1)[0].upper()
                STATEMENTS[kind] = STATEMENTS.get(kind, 0) + 1
            for one in after_commit:
                STATEMENTS[f"EXECUTE {one.name}"] = STATEMENTS.get(f"EXECUTE {one.name}", 0) + 1
            STATEMENTS["COMMIT"] = STATEMENTS.get("COMMIT", 0) + 1
        return real_run(conn, statements, params, begin, commit, after_commit)

    prepared.run = run

    @event.listens_for(engine, "commit")
    def commit(conn: Any) -> None:
        STATEMENTS["COMMIT"] = STATEMENTS.get("COMMIT", 0) + 1

    @event.listens_for(engine, "rollback")
    def rollback(conn: Any) -> None:
        STATEMENTS["ROLLBACK"] = STATEMENTS.get("ROLLBACK", 0) + 1


def profile(name: str, player: Player, step: Any, n: int, top: int) -> None:
    for _ in range(max(20, n // 10)):  # warm-up: caches, prepared paths
        step()
    paused = [0.0]
    paused_cpu = [0.0]

    def pause() -> None:
        paused[0] -= time.perf_counter()
        paused_cpu[0] -= time.process_time()

    def resume() -> None:
        paused[0] += time.perf_counter()
        paused_cpu[0] += time.process_time()

    player.pause, player.resume = pause, resume
    STATEMENTS.clear()
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(n):
        step()
    plain = (time.perf_counter() - t0 - paused[0]) / n * 1000
    cpu = (time.process_time() - c0 - paused_cpu[0]) / n * 1000
    counted = dict(STATEMENTS)
    prof = (cProfile.Profile(time.process_time) if os.environ.get("PROFILE_CPU")
            else cProfile.Profile())
    player.pause, player.resume = prof.disable, prof.enable
    prof.enable()
    for _ in range(n):
        step()
    prof.disable()
    player.pause = player.resume = lambda: None
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats(os.environ.get("PROFILE_SORT", "tottime")).print_stats(top)
    print(f"== {name}: {plain:.3f} ms per request in-process (without the profiler), "
          f"{cpu:.3f} ms of this process's CPU (the rest waits on PostgreSQL), n={n}")
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if "ncalls" in line)
    total = next((line for line in lines if "function calls" in line), "")
    print(f"   {total.strip()}")
    print(f"   statements per request (with the set-up work): "
          f"{sum(counted.values()) / n:.2f}; by kind: "
          + ", ".join(f"{k} {v / n:.2f}" for k, v in sorted(counted.items())))
    print("\n".join(lines[start:start + top + 1]))
    print()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--only", default="view,poll,action")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="truco-profile-"))
    pg = None
    try:
        pg = Postgres(tmp, url_env=("PROFILE_DATABASE_URL", "TEST_DATABASE_URL"))
        url = pg.create_database(f"truco_profile_{os.getpid()}")
        migrate_to_head(url)
        from app import create_app
        app = create_app({"TESTING": False, "TRUCO_ENV": "testing",
                          "SQLALCHEMY_DATABASE_URI": url, "RATE_LIMIT_REGISTER": "",
                          "RATE_LIMIT_ACTION": "", "RATE_LIMIT_CREATE": ""})
        client = app.test_client()
        with app.app_context():
            from app.db.extensions import db
            _count_statements(db.engine)
        player = Player(client, 7)
        player.get_view()  # the listener starts: the shortcuts take requests of known tokens
        hub = app.extensions.get("truco_hub")
        if hub is None or not hub.ready.wait(10):
            print("warning: no LISTEN connection: the shortcuts take nothing", file=sys.stderr)
        steps = {"view": player.get_view, "poll": player.poll, "action": player.act}
        for kind in args.only.split(","):
            profile(kind, player, steps[kind], args.n, args.top)
        hub = app.extensions.get("truco_hub")
        if hub is not None:
            hub.close()
        with app.app_context():
            from app.db.extensions import db
            db.engine.dispose()
    finally:
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
