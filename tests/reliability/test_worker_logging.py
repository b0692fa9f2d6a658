"""A worker whose database is away logs one line per failure kind and interval, never a
traceback per attempt (as the app's requests do); a worker told to stop stops at once, however
long its poll."""
from __future__ import annotations

import logging
import threading
import time
from typing import Any


def test_a_worker_without_its_database_logs_lines_not_tracebacks(app: Any,
                                                                 caplog: Any) -> None:
    from app import create_app
    from app.play.background import Worker

    away = create_app({**app.config,
                       "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg2://u@127.0.0.1:1/none"})
    worker = Worker(away, poll_seconds=0.05)
    with caplog.at_level(logging.INFO):
        thread = threading.Thread(target=worker.run)
        thread.start()
        time.sleep(2.0)  # dozens of attempts
        worker.stop.set()
        thread.join(15)
    assert not thread.is_alive()
    failures = [r for r in caplog.records if "failed" in r.getMessage()]
    assert failures, [r.getMessage() for r in caplog.records]
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert len(failures) <= 3


def test_a_worker_stops_promptly_however_long_its_poll(app: Any) -> None:
    from app.db.channels import STOP_CHECK_SECONDS
    from app.play.background import Worker

    worker = Worker(app, poll_seconds=30, deliveries=False)
    thread = threading.Thread(target=worker.run)
    thread.start()
    time.sleep(0.5)  # nothing is due: it sleeps on its LISTEN connection
    began = time.monotonic()
    worker.stop.set()
    thread.join(5)
    assert not thread.is_alive()
    assert time.monotonic() - began < 2 * STOP_CHECK_SECONDS + 0.5
