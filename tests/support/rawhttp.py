"""HTTP over raw sockets: malformed, slow or abandoned requests that no client library sends."""
from __future__ import annotations

import json
import socket
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Answer:
    """What came back: status, headers (lower-case names), body, seconds until the close."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    elapsed: float = 0.0

    def json(self) -> Any:
        return json.loads(self.body)


def parse(data: bytes, elapsed: float) -> Answer:
    """Parse one HTTP/1.1 response (status 0 when nothing came back)."""
    if not data:
        return Answer(0, elapsed=elapsed)
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Answer(int(lines[0].split()[1]), headers, body, elapsed)


def connect(port: int, timeout: float = 15) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.settimeout(timeout)
    return sock


def read_all(sock: socket.socket, started: float) -> Answer:
    """Read until the server closes the connection (or the socket's timeout)."""
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return parse(data, time.monotonic() - started)


def exchange(port: int, request: bytes, timeout: float = 15) -> Answer:
    """Send ``request`` (which should say ``Connection: close``) and read the answer."""
    with connect(port, timeout) as sock:
        started = time.monotonic()
        sock.sendall(request)
        return read_all(sock, started)


def post(path: str, body: bytes, *headers: str, chunked: bool = False) -> bytes:
    """A POST with a JSON body, ``Content-Length`` or one chunk."""
    lines = [f"POST {path} HTTP/1.1", "Host: test", "Content-Type: application/json",
             "Connection: close", *headers]
    if chunked:
        lines.append("Transfer-Encoding: chunked")
        payload = b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
    else:
        lines.append(f"Content-Length: {len(body)}")
        payload = body
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + payload
