"""Thousands of held requests (long polls) from one thread: raw HTTP/1.1 on non-blocking
sockets under a selector, each answer's status, body and arrival time."""
from __future__ import annotations

import collections
import selectors
import socket
import threading
import time

from typing import cast

from bench.lib.processes import MeasuredServer
from devtools.servers import HOST

perf_counter = time.perf_counter
WAIT_SECONDS = 60
"""The `wait` of held long polls (the most the API allows)."""


class HeldRequests:
    """One socket per request, each sent and its answer awaited, all from one thread, which
    runs until every request is finished (answered or failed), `stop()` is called or
    `max_seconds` pass. With `rearm_after`, a 304 that came after that many seconds (a long
    poll whose wait ran out) is sent again on a new socket instead of finishing it.

    Per request: `sent_at`, `done_at`, `status` (-1 for a failure) and `body`; in all:
    `sent` (first sends), `held` (sent and not answered now), `finished`, `answers`
    (status: count), `failed` (why: count), `rearmed`."""

    def __init__(self, port: int, requests: list[bytes], batch: int = 100,
                 max_seconds: float | None = WAIT_SECONDS + 30,
                 rearm_after: float | None = None) -> None:
        self.port = port
        self.requests = requests
        self.n = len(requests)
        self.batch = batch
        self.max_seconds = max_seconds
        self.rearm_after = rearm_after
        self.sent_at = [0.0] * self.n
        self.done_at = [0.0] * self.n
        self.status = [0] * self.n
        self.body = [b""] * self.n
        self.answers: collections.Counter[int] = collections.Counter()
        self.failed: collections.Counter[str] = collections.Counter()
        self.sent = 0
        self.held = 0
        self.finished = 0
        self.rearmed = 0
        self.last_sent_at = 0.0
        self._watched: set[int] = set()
        self._watched_left = 0
        self.watched_done = threading.Event()
        self._watch_cpu0: float | None = None
        self.watch_cpu: float | None = None
        """This thread's CPU seconds from :meth:`watch` to the last watched answer."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def watch(self, indices: list[int]) -> None:
        """`watched_done` is set once every one of these requests is finished; call it
        before the change that answers them."""
        self._watch_cpu0 = None
        self._watched = set(indices)
        self._watched_left = sum(1 for i in indices if not self.done_at[i])
        if not self._watched_left:
            self.watched_done.set()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _finish(self, i: int, status: int, why: str | None = None) -> None:
        self.status[i] = status
        self.done_at[i] = perf_counter()
        self.finished += 1
        if why:
            self.failed[why] += 1
        else:
            self.answers[status] += 1
        if i in self._watched:
            self._watched_left -= 1
            if self._watched_left <= 0:
                if self._watch_cpu0 is not None:
                    self.watch_cpu = time.thread_time() - self._watch_cpu0
                self.watched_done.set()

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        todo = collections.deque(range(self.n))
        socks: dict[int, socket.socket] = {}
        out: dict[int, bytes] = {}
        bufs: dict[int, bytearray] = {}
        connected: set[int] = set()
        connecting = 0
        hard_deadline = None if self.max_seconds is None else perf_counter() + self.max_seconds

        def close(i: int) -> None:
            sock = socks.pop(i, None)
            if sock is not None:
                try:
                    sel.unregister(sock)
                except (KeyError, ValueError):
                    pass
                sock.close()
            out.pop(i, None)
            bufs.pop(i, None)
            connected.discard(i)

        try:
            while not self._stop.is_set() and (hard_deadline is None
                                               or perf_counter() < hard_deadline):
                if self._watched and self._watch_cpu0 is None:
                    self._watch_cpu0 = time.thread_time()
                while todo and connecting < self.batch:
                    i = todo.popleft()
                    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                    sock.setblocking(False)
                    err = sock.connect_ex((HOST, self.port))
                    if err not in (0, 115):  # 115: EINPROGRESS
                        sock.close()
                        self._finish(i, -1, f"connect errno {err}")
                        continue
                    socks[i] = sock
                    out[i] = self.requests[i]
                    sel.register(sock, selectors.EVENT_WRITE, i)
                    connecting += 1
                if self.finished >= self.n:
                    break
                for key, mask in sel.select(timeout=0.05):
                    # (selectors types fileobj as anything with a fileno: here, our sockets)
                    i, sock = key.data, cast(socket.socket, key.fileobj)
                    if mask & selectors.EVENT_WRITE:
                        if i not in connected:  # the connect finished
                            connected.add(i)
                            connecting -= 1
                            err = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                            if err:
                                close(i)
                                self._finish(i, -1, f"connect errno {err}")
                                continue
                        try:
                            sent = sock.send(out[i])
                        except OSError as exc:
                            close(i)
                            self._finish(i, -1, f"send {type(exc).__name__}")
                            continue
                        out[i] = out[i][sent:]
                        if out[i]:
                            continue
                        if not self.sent_at[i]:
                            self.sent += 1
                        self.sent_at[i] = self.last_sent_at = perf_counter()
                        self.held += 1
                        bufs[i] = bytearray()
                        sel.modify(sock, selectors.EVENT_READ, i)
                    elif mask & selectors.EVENT_READ:
                        try:
                            data = sock.recv(65536)
                        except OSError as exc:
                            self.held -= 1
                            close(i)
                            self._finish(i, -1, f"recv {type(exc).__name__}")
                            continue
                        bufs[i] += data
                        parsed = parse_response(bytes(bufs[i]), eof=not data)
                        if parsed is None:
                            continue
                        self.held -= 1
                        status, self.body[i] = parsed
                        close(i)
                        if status == 304 and self.rearm_after is not None \
                                and perf_counter() - self.sent_at[i] >= self.rearm_after - 1.0:
                            self.rearmed += 1
                            todo.append(i)
                        elif status < 0:
                            self._finish(i, -1, "closed or bad answer")
                        else:
                            self._finish(i, status)
        finally:
            for i in list(socks):
                close(i)
            sel.close()


def parse_response(buf: bytes, eof: bool) -> tuple[int, bytes] | None:
    """(status, body) once `buf` holds a complete HTTP/1.1 answer; None while incomplete."""
    head_end = buf.find(b"\r\n\r\n")
    if head_end < 0:
        return (-1, b"") if eof else None
    head = buf[:head_end].decode("latin-1").split("\r\n")
    try:
        status = int(head[0].split()[1])
    except (IndexError, ValueError):
        return -1, b""
    length = 0
    for line in head[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body = buf[head_end + 4:]
    if status == 304 or status < 200 or len(body) >= length:
        return status, body[:length]
    return (-1, b"") if eof else None


def raw_get(path: str, headers: dict[str, str]) -> bytes:
    """The bytes of an HTTP/1.1 GET of `path` with `headers`."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def wait_until_idle(server: MeasuredServer, waiters: HeldRequests, deadline: float,
                    min_quiet: float = 0.5) -> float:
    """After every request is sent, until the workers are (nearly) idle for 0.25 s: the held
    requests have all done their first check and sleep. Returns the seconds it took."""
    t0 = perf_counter()
    while perf_counter() < deadline and waiters.sent + sum(waiters.failed.values()) < waiters.n:
        time.sleep(0.05)
    while perf_counter() < deadline:
        c0, w0 = server.cpu_seconds(), perf_counter()
        time.sleep(0.25)
        busy = (server.cpu_seconds() - c0) / (perf_counter() - w0)
        if busy < 0.10 and perf_counter() - waiters.last_sent_at >= min_quiet:
            break
    return perf_counter() - t0
