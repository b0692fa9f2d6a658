"""`python -m app.worker` runs one worker loop per core it is given (app/worker.py),
so that bots' decisions run side by side; SIGTERM stops them all."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from app.worker import processes

ROOT = Path(__file__).resolve().parents[2]


def listening_workers(database_url: str) -> int:
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return conn.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND application_name = 'truco-worker'")).scalar_one()
    finally:
        engine.dispose()


def test_the_number_of_loops_is_the_setting_or_the_usable_cores() -> None:
    assert processes({"TRUCO_WORKER_PROCESSES": "3"}) == 3
    assert processes({}) == len(os.sched_getaffinity(0))
    with pytest.raises(ValueError):
        processes({"TRUCO_WORKER_PROCESSES": "0"})


def test_a_worker_runs_one_loop_per_process_and_stops_them_all(database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url, "TRUCO_ENV": "testing",
           "TRUCO_WORKER_PROCESSES": "2"}
    worker = subprocess.Popen([sys.executable, "-m", "app.worker"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while listening_workers(database_url) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert listening_workers(database_url) == 2  # two loops, each listening
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=20) == 0
        deadline = time.monotonic() + 10
        while listening_workers(database_url) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert listening_workers(database_url) == 0  # no loop outlived the parent
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
