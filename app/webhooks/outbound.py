"""One outgoing HTTP POST made safely: to an address checked after DNS resolution (the
connection goes to that address, so DNS cannot change between check and connect), with
connect, read and total time limits, no redirect followed, and at most a few KiB of the
answer read (its headers and interim answers included)."""
from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any

from app.webhooks.urls import IPAddress, Target, UnsafeUrl, check

CONNECT_TIMEOUT = 3.0
READ_TIMEOUT = 5.0
TOTAL_TIMEOUT = 10.0
"""Seconds from the first connect to the last byte read, whatever the number of addresses
tried: then the socket is shut and the attempt has failed."""
MAX_ANSWER_BYTES = 4096
"""What is read of an answer's body; the rest is never read."""
MAX_READ_BYTES = 16384
"""What is read of an answer in all: status lines, headers, any interim (1xx) answers and
the body's framing (chunk sizes and their extensions) with the body. Past it the attempt has
failed: a receiver cannot keep a sender reading (and holding what it read) until the
deadline."""


class OutboundError(Exception):
    """The request could not be made or finished (refused URL, network error, timeout)."""


class AnswerTooLarge(http.client.HTTPException):
    """More than MAX_READ_BYTES of an answer came before its end (or its first
    MAX_ANSWER_BYTES of body)."""


class _Capped:
    """A response's file that lets at most `cap` bytes through in all, then raises
    AnswerTooLarge (never reading more than one byte past the cap)."""

    def __init__(self, fp: Any, cap: int) -> None:
        self._fp = fp
        self._left = cap

    def _counted(self, n: int) -> int:
        self._left -= n
        if self._left < 0:
            raise AnswerTooLarge(f"more than {MAX_READ_BYTES} bytes of answer")
        return n

    def _bound(self, n: int | None) -> int:
        return self._left + 1 if n is None or n < 0 else min(n, self._left + 1)

    def read(self, n: int | None = None) -> bytes:
        data: bytes = self._fp.read(self._bound(n))
        self._counted(len(data))
        return data

    def read1(self, n: int = -1) -> bytes:
        data: bytes = self._fp.read1(self._bound(n))
        self._counted(len(data))
        return data

    def readline(self, limit: int = -1) -> bytes:
        line: bytes = self._fp.readline(self._bound(limit))
        self._counted(len(line))
        return line

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer)
        return self._counted(self._fp.readinto(view[:self._bound(len(view))]) or 0)

    def __getattr__(self, name: str) -> Any:  # close, flush, fileno, closed...
        return getattr(self._fp, name)


class _CappedResponse(http.client.HTTPResponse):
    """An answer read through _Capped."""

    def __init__(self, sock: socket.socket, *args: Any, **kwargs: Any) -> None:
        super().__init__(sock, *args, **kwargs)
        self.fp = _Capped(self.fp, MAX_READ_BYTES)  # type: ignore[assignment]


@dataclass(frozen=True)
class Reply:
    """An answer: its status and the first MAX_ANSWER_BYTES of its body."""

    status: int
    body: bytes


class _PinnedHTTP(http.client.HTTPConnection):
    """HTTP to a fixed address; Host names the URL's host; the answer read within
    MAX_READ_BYTES."""

    response_class = _CappedResponse

    def __init__(self, target: Target, address: IPAddress, connect_timeout: float,
                 deadline: float) -> None:
        super().__init__(target.host, target.port, timeout=connect_timeout)
        self.address = address
        self.connect_timeout = connect_timeout
        self.deadline = deadline
        """The attempt's end (time.monotonic()): no wait on this socket outlasts it, the TLS
        handshake's included (it comes before the watchdog that shuts the socket)."""

    def _open(self) -> socket.socket:
        sock = socket.create_connection((str(self.address), self.port), self.connect_timeout)
        sock.settimeout(max(0.001, min(READ_TIMEOUT, self.deadline - time.monotonic())))
        return sock

    def connect(self) -> None:
        self.sock = self._open()


class _PinnedHTTPS(_PinnedHTTP):
    """HTTPS to a fixed address; the certificate is checked against the URL's host."""

    context = ssl.create_default_context()

    def connect(self) -> None:
        self.sock = self.context.wrap_socket(self._open(), server_hostname=self.host)


def _shut(conn: http.client.HTTPConnection, fired: threading.Event) -> None:
    """The total deadline passed: unblock any read or write on the connection (and say so:
    what was read until then is not a complete answer)."""
    fired.set()
    if conn.sock is not None:
        try:
            conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def post(url: str, body: bytes, headers: dict[str, str], *, allow_http: bool,
         allow_private: bool) -> Reply:
    """POST `body` to `url`; the answer (a redirect is an answer: it is not followed).
    UnsafeUrl for a URL the server will not call, OutboundError when no answer came."""
    target, addresses = check(url, allow_http=allow_http, allow_private=allow_private)
    deadline = time.monotonic() + TOTAL_TIMEOUT
    last: Exception | None = None
    for address in addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            raise OutboundError(f"no complete answer within {TOTAL_TIMEOUT:g} s")
        kind = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
        conn = kind(target, address, min(CONNECT_TIMEOUT, left), deadline)
        try:
            conn.connect()
        except OSError as exc:
            conn.close()
            last = exc
            continue
        fired = threading.Event()
        watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), _shut,
                                   (conn, fired))
        watchdog.daemon = True
        watchdog.start()
        try:
            conn.request("POST", target.path, body=body,
                         headers={**headers, "Content-Type": "application/json",
                                  "Connection": "close"})
            answer = conn.getresponse()
            reply = Reply(answer.status, answer.read(MAX_ANSWER_BYTES))
            watchdog.cancel()
            if fired.is_set():  # the shut socket ended the headers or the body early
                raise OutboundError(f"no complete answer within {TOTAL_TIMEOUT:g} s")
            return reply
        except (OSError, http.client.HTTPException) as exc:
            if fired.is_set() or not watchdog.is_alive():
                raise OutboundError(f"no complete answer within {TOTAL_TIMEOUT:g} s") from None
            raise OutboundError(f"{type(exc).__name__}: {exc}") from None
        finally:
            watchdog.cancel()
            conn.close()
    raise OutboundError(f"cannot connect to {target.host}:{target.port} ({last})")


__all__ = ["MAX_ANSWER_BYTES", "OutboundError", "Reply", "UnsafeUrl", "post"]
