"""Gunicorn's gevent worker, answering its own errors as problem+json.

On SIGTERM it tells :mod:`app.infra.shutdown` to answer every held long poll at once. It
holds at most TRUCO_MAX_CONNECTIONS_PER_CLIENT connections per client address (default 256 in
production, else no cap; 0: no cap): one more is answered 429 `too_many_connections` and
closed (behind a reverse proxy, cap at the proxy instead: docs/reliability.md). Requests
gunicorn rejects before the application sees them (400, 414, 431) keep gunicorn's status and
log line, and get an RFC 9457 problem body instead of its HTML page.
"""
from __future__ import annotations

import json
import os
import re
from collections import Counter
from typing import Any

import gevent
from gunicorn import util
from gunicorn.workers.ggevent import GeventWorker

from app.infra import shutdown
from app.infra.problems import HTTP_CODES, PROBLEM_MIMETYPE, problem_body

_STATUS_LINE = re.compile(rb"^HTTP/1\.[01] (\d{3}) ([^\r\n]*)\r\n")


class _Capture:
    """Stands for the client socket while gunicorn writes its HTML error page."""

    def __init__(self) -> None:
        self.data = b""

    def gettimeout(self) -> float:
        return 0.0

    def setblocking(self, flag: bool) -> None:
        pass

    def sendall(self, data: bytes) -> None:
        self.data += data

    def send(self, data: bytes) -> int:
        self.data += data
        return len(data)


def problem_bytes(status: int, reason: str, code: str | None = None,
                  detail: str | None = None) -> bytes:
    """A complete HTTP/1.1 problem+json response that closes the connection."""
    code = code or HTTP_CODES.get(status, f"http_{status}")
    problem, _ = problem_body(status, code,
                              detail or f"The server could not read this request ({reason}).")
    body = json.dumps(problem).encode() + b"\n"
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_MIMETYPE}\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


class ProblemGeventWorker(GeventWorker):  # type: ignore[misc]  # gevent: no types
    """``GeventWorker`` whose pre-application error answers are problem+json, and whose
    graceful stop (SIGTERM) answers the held long polls at once (:mod:`app.infra.shutdown`)."""

    def init_process(self) -> None:
        default = "256" if os.environ.get("TRUCO_ENV", "").strip() == "production" else "0"
        self.connection_cap = int(os.environ.get("TRUCO_MAX_CONNECTIONS_PER_CLIENT")
                                  or default)
        self.connections: Counter[str] = Counter()
        super().init_process()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        """Gunicorn's, for at most `connection_cap` connections of one address at once."""
        key = str(addr[0]) if isinstance(addr, tuple) else str(addr)
        if self.connection_cap and self.connections[key] >= self.connection_cap:
            try:
                util.write_nonblock(client, problem_bytes(
                    429, "Too Many Requests", "too_many_connections",
                    f"at most {self.connection_cap} connections at once per address"))
            except Exception:  # noqa: BLE001 - the client may be gone
                pass
            util.close(client)
            return
        self.connections[key] += 1
        try:
            super().handle(listener, client, addr)
        finally:
            self.connections[key] -= 1
            if not self.connections[key]:
                del self.connections[key]

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)  # stop accepting; keep-alive connections close
        # out of the signal handler: waking greenlets is the hub's work
        gevent.spawn(shutdown.begin)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        """As gunicorn's, but a connection whose request was answered while the worker stops
        is closed then (gunicorn decides keep-alive before the app runs: a long poll that
        began before SIGTERM would otherwise hold its connection until the keep-alive
        timeout)."""
        handled = super().handle_request(listener_name, req, sock, addr)
        if not self.alive:
            raise StopIteration()  # gunicorn's own way to end the keep-alive loop
        return handled

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        capture = _Capture()
        super().handle_error(req, capture, addr, exc)
        match = _STATUS_LINE.match(capture.data)
        if match is None:  # nothing written (or not a status line): pass it on untouched
            out = capture.data
        else:
            out = problem_bytes(int(match.group(1)), match.group(2).decode("latin-1"))
        if not out:
            return
        try:
            util.write_nonblock(client, out)
        except Exception:  # noqa: BLE001 - the client may be gone; gunicorn does the same
            self.log.debug("Failed to send error message.")
