"""A local HTTP server for webhook tests: records every request it gets and answers as the
test says (a status, a redirect, an endless body); and the signature check a receiver runs,
as docs/correspondence.md writes it; and a webhook registered through the API."""
from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[2] / "docs"


def recipe() -> Callable[..., bool]:
    """The `verify` function of docs/correspondence.md, exactly as written there."""
    text = (DOCS / "correspondence.md").read_text()
    block = re.search(r"<!-- verification recipe[^>]*-->\n```python\n(.*?)```", text, re.DOTALL)
    assert block, "the recipe block is missing"
    namespace: dict[str, Any] = {}
    exec(block.group(1), namespace)  # noqa: S102 - our own documentation
    return namespace["verify"]  # type: ignore[no-any-return]


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


@dataclass
class BlackHole:
    """An endpoint that reads each request and never answers: `open` counts the requests
    held now by path, `peak` the most held at once by path, `peak_total` over all paths."""

    port: int = 0
    open: dict[str, int] = field(default_factory=dict)
    peak: dict[str, int] = field(default_factory=dict)
    peak_total: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def held(self, path: str, delta: int) -> None:
        with self.lock:
            self.open[path] = self.open.get(path, 0) + delta
            self.peak[path] = max(self.peak.get(path, 0), self.open[path])
            self.peak_total = max(self.peak_total, sum(self.open.values()))


@contextmanager
def black_hole() -> Iterator[BlackHole]:
    """A running black hole on 127.0.0.1 (a free port), stopped at the end."""
    import socket

    state = BlackHole()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    state.port = listener.getsockname()[1]

    def hold(conn: socket.socket) -> None:
        with conn:
            head = b""
            while b"\r\n" not in head:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                head += chunk
            path = head.split(b" ")[1].decode()
            state.held(path, +1)
            try:
                while conn.recv(4096):  # until the client gives up
                    pass
            except OSError:
                pass
            finally:
                state.held(path, -1)

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=hold, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield state
    finally:
        listener.close()


@contextmanager
def one_answer(send: Callable[[Any], None]) -> Iterator[str]:
    """A server on 127.0.0.1 that reads one request's head and hands its connection to
    `send` (which writes the answer, as slowly or oddly as the test needs), then hangs up;
    its URL (path /hook)."""
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve() -> None:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        with conn:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            try:
                send(conn)
            except OSError:  # (the client gave up)
                return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/hook"
    finally:
        listener.close()
        thread.join(5)


def add_webhook(client: Any, player: Any, url: str, **body: Any) -> dict[str, Any]:
    """`player`'s new webhook to `url` (`body`: its events...), registered through the API."""
    r = client.post("/v1/me/webhooks", json={"url": url, **body}, headers=player.headers)
    assert r.status_code == 201, r.get_data(as_text=True)
    return dict(r.json)
