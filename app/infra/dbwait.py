"""psycopg2 under gevent, with client-side deadlines.

psycogreen's wait callback waits for the database socket without a time limit, and in that
asynchronous mode libpq does not apply ``connect_timeout`` either. A database whose processes
are stopped (SIGSTOP, a frozen VM) accepts TCP connections and ACKs every byte, so neither
server-side timeouts nor TCP keepalives end the wait. This callback gives up when the socket
stays silent longer than the connect deadline (while connecting) or the read deadline
(afterwards): psycopg2 then closes the connection and the caller gets an ``OperationalError``.
"""
from __future__ import annotations

import psycopg2
from psycopg2 import extensions

_ESTABLISHED = {extensions.STATUS_READY, extensions.STATUS_BEGIN, extensions.STATUS_PREPARED}
_deadlines = {"connect": 5.0, "read": 10.0}


class DatabaseTimeout(psycopg2.OperationalError):  # type: ignore[misc]  # psycopg2: no types
    """The database did not answer within the client-side deadline."""


def configure(connect_seconds: float, read_seconds: float) -> None:
    """Set the deadlines (seconds) every later wait uses."""
    _deadlines["connect"] = connect_seconds
    _deadlines["read"] = read_seconds


def gevent_wait_callback(conn: extensions.connection, timeout: float | None = None) -> None:
    """psycogreen's callback, bounded: ``DatabaseTimeout`` after a silent deadline."""
    from gevent.socket import wait_read, wait_write

    phase = "read" if conn.status in _ESTABLISHED else "connect"
    limit = _deadlines[phase] if timeout is None else min(timeout, _deadlines[phase])
    while True:
        state = conn.poll()
        try:
            if state == extensions.POLL_OK:
                return
            if state == extensions.POLL_READ:
                wait_read(conn.fileno(), timeout=limit)
            elif state == extensions.POLL_WRITE:
                wait_write(conn.fileno(), timeout=limit)
            else:
                raise psycopg2.OperationalError(f"Bad result from poll: {state!r}")
        except TimeoutError:
            raise DatabaseTimeout(
                f"no answer from the database within {limit:g} s ({phase})") from None


def patch_psycopg() -> None:
    """Make psycopg2 cooperative under gevent, with the deadlines of :func:`configure`."""
    extensions.set_wait_callback(gevent_wait_callback)
