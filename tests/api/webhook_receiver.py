"""A local HTTP server for webhook tests: records every request it gets and answers as the
test says (a status, a redirect, an endless body)."""
from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    """What the server got, and how it answers: `status`, `location` (a redirect) or
    `endless` (a 200 whose body never ends; `sent` counts the bytes written)."""

    port: int = 0
    status: int = 204
    location: str | None = None
    endless: bool = False
    sent: int = 0
    received: list[Received] = field(default_factory=list)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@contextmanager
def receiver() -> Iterator[Receiver]:
    """A running receiver on 127.0.0.1 (a free port), stopped at the end."""
    state = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            state.received.append(Received(self.path, {k.lower(): v for k, v in
                                                       self.headers.items()}, body))
            self.send_response(state.status)
            if state.location:
                self.send_header("Location", state.location)
            if state.endless:
                self.send_header("Content-Length", str(10**12))
                self.end_headers()
                chunk = b"x" * 65536
                try:
                    while True:
                        self.wfile.write(chunk)
                        state.sent += len(chunk)
                except OSError:
                    return
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
