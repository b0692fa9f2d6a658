"""Long polls end when their client disconnects.

A waiting request does not read its socket, so a client that gives up (closes the connection)
would otherwise hold the server's connection slot until the wait runs out. Under gunicorn's
gevent worker, :func:`watch_client` watches the client socket (``gunicorn.socket`` in the WSGI
environ) for readability while the request sleeps: an EOF (or a reset) there means the client
is gone, and the wait ends with :class:`ClientGone`. Bytes the client sends meanwhile (a
pipelined request) are left alone and stop the watch. Elsewhere (a sync server, the test
client) nothing is watched.
"""
from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

from app.infra.problems import ApiError


class ClientGone(ApiError):
    """The client closed its connection while its request waited (status 499, unanswered)."""

    def __init__(self) -> None:
        super().__init__(499, "client_closed_request", "The client closed the connection.")


def peer_closed(sock: Any) -> bool:
    """Whether the peer of connected ``sock`` has closed it (EOF or reset), without blocking
    and without consuming data."""
    raw = getattr(sock, "_sock", sock)  # gevent's socket wraps the real one
    try:
        return bool(raw.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"")
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True


def _gevent_active() -> bool:
    try:
        from gevent.monkey import is_module_patched
    except ImportError:  # pragma: no cover - gevent is a requirement
        return False
    return bool(is_module_patched("socket"))


@contextlib.contextmanager
def watch_client(environ: dict[str, Any],
                 event: threading.Event) -> Iterator[Callable[[], bool]]:
    """While in the block, set ``event`` when the client socket becomes readable; yields
    ``gone()``, true once the client has closed the connection."""
    sock = environ.get("gunicorn.socket")
    if sock is None or not _gevent_active():
        yield lambda: False
        return
    from gevent import get_hub

    readable = threading.Event()
    watcher = get_hub().loop.io(sock.fileno(), 1)  # 1: EV_READ

    def on_readable() -> None:
        watcher.stop()  # once: data that is not an EOF is not looked at again
        readable.set()
        event.set()

    watcher.start(on_readable)
    try:
        yield lambda: readable.is_set() and peer_closed(sock)
    finally:
        watcher.stop()
        watcher.close()
