"""The baseline of bench/streams.py: a bare Flask stream under the same gunicorn setup.

    gunicorn -c gunicorn.conf.py bench._baseline_stream:app     (from the repository root)

``GET /stream`` answers ``text/event-stream`` and holds it: one message at once, then a
comment line every 20 s, from a sleeping greenlet (no database, no hub). It is the floor of
what a held stream costs a worker. ``GET /healthz``: ``{"status": "ok"}``.
"""
from __future__ import annotations

import time
from collections.abc import Iterator

from flask import Flask, Response

app = Flask(__name__)


@app.get("/healthz")
def healthz() -> Response:
    return Response('{"status":"ok"}', mimetype="application/json")


@app.get("/stream")
def stream() -> Response:
    def frames() -> Iterator[bytes]:
        yield b'retry: 2000\n\nevent: view\ndata: {"version":1}\n\n'
        while True:
            time.sleep(20)  # a green sleep under the gevent worker
            yield b": keepalive\n\n"

    return Response(frames(), mimetype="text/event-stream")
