"""The baseline server of bench/api.py: the least a Flask app under the same gunicorn setup
can do for each kind of request the benchmark sends to the project.

    gunicorn -c gunicorn.conf.py bench._baseline_app:app     (from the repository root)

(The leading underscore keeps ``scripts/dev.py bench`` from running it as a benchmark.)

Environment: BASELINE_DSN, a libpq URL of the PostgreSQL database holding the ``counters``
table (``id integer primary key, n bigint``; bench/api.py creates it). The project's
gunicorn.conf.py applies: gevent workers, and psycopg2 made cooperative by psycogreen in
``post_fork``, exactly as for the project.

Endpoints:

- ``GET /healthz``: ``{"status": "ok"}``.
- ``GET /view/<size>``: a static JSON object of exactly ``size`` bytes (the floor of "read a
  match view": no database, no rendering), with an ETag and Cache-Control as ours sends.
- ``POST /counter/<k>/<size>``: parses the JSON request body, then in one transaction
  ``SELECT n FROM counters WHERE id = k FOR UPDATE`` and ``UPDATE counters SET n = n + 1``,
  commits, and answers a JSON object of ``size`` bytes holding the new value (the floor of
  "a transactional write over HTTP that answers with a view").
- ``GET /wait?wait=S``: held for S seconds (0..60) without touching the database, then 304
  (the floor of a long poll: a sleeping greenlet).
"""
from __future__ import annotations

import functools
import json
import os
import queue
import time
from typing import Any

import psycopg2
from flask import Flask, Response, request

app = Flask(__name__)
_DSN = os.environ.get("BASELINE_DSN", "")
_pool: queue.LifoQueue[Any] = queue.LifoQueue()  # green under gevent's monkey-patching


def _padded(size: int, **fields: object) -> bytes:
    """A JSON object of exactly `size` bytes (or the bare fields when they are longer)."""
    bare = json.dumps({**fields, "pad": ""}, separators=(",", ":"))
    return json.dumps({**fields, "pad": "x" * max(0, size - len(bare))},
                      separators=(",", ":")).encode()


@functools.lru_cache(maxsize=64)
def _static_body(size: int) -> bytes:
    return _padded(size, status="active", version=1)


def _connection() -> Any:
    try:
        return _pool.get_nowait()
    except queue.Empty:
        return psycopg2.connect(_DSN, application_name="bench-baseline")


@app.get("/healthz")
def healthz() -> Response:
    return Response('{"status":"ok"}', mimetype="application/json")


@app.get("/view/<int:size>")
def view(size: int) -> Response:
    return Response(_static_body(size), mimetype="application/json",
                    headers={"ETag": '"baseline.v1"', "Cache-Control": "private, no-cache"})


@app.post("/counter/<int:k>/<int:size>")
def counter(k: int, size: int) -> Response:
    body = request.get_json(force=True, silent=True)
    if not isinstance(body, dict):
        return Response('{"code":"validation_error"}', status=422,
                        mimetype="application/problem+json")
    conn = _connection()
    try:
        with conn:  # one transaction: commit on success, rollback on error
            with conn.cursor() as cur:
                cur.execute("SELECT n FROM counters WHERE id = %s FOR UPDATE", (k,))
                row = cur.fetchone()
                if row is None:
                    return Response('{"code":"not_found"}', status=404,
                                    mimetype="application/problem+json")
                cur.execute("UPDATE counters SET n = n + 1 WHERE id = %s RETURNING n", (k,))
                n = cur.fetchone()[0]
    except Exception:
        conn.close()
        raise
    _pool.put(conn)
    return Response(_padded(size, n=n), mimetype="application/json",
                    headers={"ETag": f'"baseline.v{n}"', "Cache-Control": "private, no-cache"})


@app.get("/wait")
def wait() -> Response:
    seconds = min(max(request.args.get("wait", 0, type=int), 0), 60)
    time.sleep(seconds)  # a green sleep under the gevent worker
    return Response(status=304)
