"""Gunicorn settings: gevent workers, so that thousands of long polls cost no threads.

Environment: PORT (default 8000), BIND_HOST (default 0.0.0.0), WEB_CONCURRENCY (workers,
default 2), GUNICORN_WORKER_CONNECTIONS (connections each worker holds at once, long polls
included; default 2000), PROMETHEUS_MULTIPROC_DIR (where the workers' metrics meet; default:
a fresh temporary folder). Loaded by ``gunicorn -c gunicorn.conf.py wsgi:app`` (and by default
from the cwd).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

# Metrics (app/infra/metrics.py) in multiprocess mode: each worker writes its values here and a
# scrape of /metrics adds them up. Set before the workers import prometheus_client; a fresh
# folder per start unless the caller shares one (scripts/dev.py serve: web and worker).
_METRICS_DIR = None
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _METRICS_DIR = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(
        prefix="truco-metrics-")

bind = [f"{os.environ.get('BIND_HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"]
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# gunicorn's gevent worker, answering its own 400/414/431 errors as problem+json
worker_class = "app.infra.gunicorn_worker.ProblemGeventWorker"
# the most connections (held long polls included) one worker serves at once; each needs a file
# descriptor, so the process's RLIMIT_NOFILE must allow as many (bench/api.py raises both)
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS") or 2000)
# On SIGTERM a worker answers its held long polls at once (app/infra/shutdown.py) and lets the other
# requests in flight finish within this many seconds.
graceful_timeout = 65
keepalive = 5
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
# gunicorn 27's control socket has one default path per user: several servers on one
# machine (tests, replicas) would fight over it.
control_socket_disable = True


def child_exit(server: Any, worker: Any) -> None:
    """A worker's gauges of live values (held long polls) stop counting when it exits."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server: Any) -> None:
    if _METRICS_DIR is not None:
        shutil.rmtree(_METRICS_DIR, ignore_errors=True)


def post_fork(server: Any, worker: Any) -> None:
    """In a gevent worker, make psycopg2 yield to other greenlets while it waits on the DB
    (with the client-side deadlines of app/infra/dbwait.py)."""
    from gunicorn.workers.ggevent import GeventWorker

    if isinstance(worker, GeventWorker):
        from app.infra.dbwait import patch_psycopg

        patch_psycopg()
