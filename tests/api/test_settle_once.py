"""Each finished match is settled exactly once: settlers racing on it count it once, settlers
of matches that share players do not deadlock, and a worker process killed in the middle of
settling leaves nothing behind, so the match is settled once afterwards."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg2
from sqlalchemy import text

from tests.support.api import (backend_gone, create, db_rows, db_scalar, profile, register,
                               resigned_match, settle_all)

ROOT = Path(__file__).resolve().parents[2]


def _race(app: Any, calls: list[Any]) -> list[Any]:
    """Run every call at once, each in an app context of its own (its own session)."""
    from app.db.extensions import db

    barrier = threading.Barrier(len(calls))
    results: list[Any] = []

    def run(call: Any) -> None:
        with app.app_context():
            try:
                barrier.wait()
                results.append(call())
            finally:
                db.session.remove()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(results) == len(calls)
    return results


def _settled_counts(client: Any, player_id: str) -> tuple[int, int]:
    shown = profile(client, player_id)
    return shown["ratings"]["duel"]["rated_matches"], shown["matches_played"]


def test_settlers_racing_on_one_match_count_it_once(client: Any, app: Any) -> None:
    from app.play.settle import settle, settle_due

    match_id, (ana, bia) = resigned_match(client, 2, loser_seat=1)
    results = _race(app, [lambda: settle(match_id)] * 4 + [settle_due] * 4)
    assert sum(int(r) for r in results) == 1
    assert _settled_counts(client, ana.id) == _settled_counts(client, bia.id) == (1, 1)
    once = profile(client, ana.id)["ratings"]["duel"]
    assert settle_all(app) == 0 and profile(client, ana.id)["ratings"]["duel"] == once


def test_settlers_of_matches_that_share_players_wait_for_each_other(client: Any,
                                                                     app: Any) -> None:
    from app.play.settle import settle_due

    ana = register(client, "ana")
    others = [register(client, f"p{i}") for i in range(6)]
    for other in others:  # ana wins six duels, each against another player
        m = create(client, ana, players=2, seat=0)
        assert client.post(f"/v1/matches/{m['id']}/join", json={},
                           headers=other.headers).status_code == 200
        assert client.post(f"/v1/matches/{m['id']}/resign",
                           headers=other.headers).status_code == 200
    assert sum(_race(app, [settle_due] * 4)) == 6
    assert _settled_counts(client, ana.id) == (6, 6)
    assert all(_settled_counts(client, o.id) == (1, 1) for o in others)


def _waiting_backend(app: Any, seconds: float = 30.0) -> int:
    """The pid of the backend that waits for a lock while inserting ratings."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        rows = db_rows(app, "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                            " AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO ratings%'")
        if rows:
            return rows[0][0]
        time.sleep(0.05)
    raise AssertionError("no worker came to settle the match")


def test_a_worker_killed_while_settling_leaves_the_match_to_be_settled_once(
        client: Any, app: Any, database_url: str) -> None:
    from app.db.channels import libpq_dsn

    match_id, (ana, bia) = resigned_match(client, 2, loser_seat=1)
    blocker = psycopg2.connect(libpq_dsn(database_url))
    worker = None
    try:
        # Hold the row the worker must insert: it waits there, its match marked settled and
        # the tallies written, all uncommitted.
        blocker.cursor().execute("INSERT INTO ratings (player_id, format, mu, sigma, "
                                 "rated_matches) VALUES (%s, 'duel', 1500, 500, 0)", [ana.id])
        env = {**os.environ, "DATABASE_URL": database_url, "TRUCO_ENV": "testing"}
        worker = subprocess.Popen([sys.executable, "-m", "app.worker"], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  start_new_session=True)
        pid = _waiting_backend(app)
        assert db_scalar(app, "SELECT settled_at IS NULL FROM matches WHERE id = :m",
                         m=match_id)
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(10)
        blocker.rollback()
        assert backend_gone(app, pid)
    finally:
        if worker is not None and worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(10)
        blocker.close()
    assert db_scalar(app, "SELECT settled_at IS NULL FROM matches WHERE id = :m", m=match_id)
    assert db_scalar(app, "SELECT count(*) FROM player_tallies") == 0
    assert settle_all(app) == 1
    assert _settled_counts(client, ana.id) == _settled_counts(client, bia.id) == (1, 1)
    assert profile(client, ana.id)["ratings"]["duel"]["rating"] > 1500
    assert settle_all(app) == 0


def test_a_match_that_cannot_be_settled_does_not_hold_up_the_others(client: Any,
                                                                     app: Any) -> None:
    from app.db.extensions import db

    bad, _ = resigned_match(client, 2, loser_seat=1)
    good, (ana, _) = resigned_match(client, 2, loser_seat=1)
    with app.app_context():  # a seat of a level no settler knows: its settlement fails
        db.session.execute(text("UPDATE seats SET player_id = NULL, bot_level = 'ghost' "
                                "WHERE match_id = :m AND seat = 1"), {"m": bad})
        db.session.commit()
        db.session.remove()
    assert settle_all(app) == 1
    assert _settled_counts(client, ana.id) == (1, 1)
    assert db_scalar(app, "SELECT settled_at IS NULL FROM matches WHERE id = :m", m=bad)
