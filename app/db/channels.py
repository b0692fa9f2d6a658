"""The NOTIFY channels the processes tell each other on, connections that LISTEN, and what a
committed change announces to this process (its caches subscribe: :func:`on_commit`).

A change recorded with :func:`known_at_commit` or :func:`token_replaced` inside an ORM
session is announced once that session commits; the hot verbs, which commit on their own
connection, announce with :func:`announce` right after their ``COMMIT``.
"""
from __future__ import annotations

import select
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import psycopg2
import psycopg2.extensions
from sqlalchemy import event as orm_event
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

STOP_CHECK_SECONDS = 0.25
"""How often a loop waiting on its LISTEN connection looks at its stop event."""
CHANNEL = "truco"
TOKENS_CHANNEL = "truco_tokens"
"""Payload: the id of a player whose token was replaced (app.live.known forgets the old one)."""

Committed = Callable[[Iterable[tuple[str, int]], Iterable[str]], None]
"""A subscriber: told the (match id, version) pairs and the player ids whose token changed."""
_subscribers: list[Committed] = []


def on_commit(subscriber: Committed) -> None:
    """Have `subscriber` told of every change this process commits (once per subscriber)."""
    if subscriber not in _subscribers:
        _subscribers.append(subscriber)


def announce(heard: Iterable[tuple[str, int]], tokens: Iterable[str] = ()) -> None:
    """Tell the subscribers what was just committed: matches at new versions, players whose
    token changed."""
    heard, tokens = list(heard), list(tokens)
    for subscriber in _subscribers:
        subscriber(heard, tokens)


def libpq_dsn(database_url: str) -> str:
    """The SQLAlchemy URL as psycopg2 takes it (for connections of our own: LISTEN)."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(
        hide_password=False)


def listen_connection(config: Any, channel: str,
                      application_name: str) -> psycopg2.extensions.connection:
    """A connection of its own (autocommit) listening on `channel`, for a loop that sleeps
    until notified (the background worker's); psycopg2.Error when it cannot be had."""
    conn = psycopg2.connect(libpq_dsn(config["SQLALCHEMY_DATABASE_URI"]),
                            application_name=application_name,
                            **config.get("DATABASE_CONNECT_ARGS", {}))
    conn.set_isolation_level(psycopg2.extensions.ISOLATION_LEVEL_AUTOCOMMIT)
    conn.cursor().execute(f"LISTEN {channel}")
    return conn


def wait_readable(sources: list[Any], seconds: float, stop: threading.Event) -> list[Any]:
    """The `sources` (file descriptors, LISTEN connections) readable within `seconds`, or []
    when none is or `stop` is set. The wait is cut into STOP_CHECK_SECONDS slices so that a
    loop's stop takes effect promptly however long it sleeps; OSError and ValueError as
    select.select raises them."""
    deadline = time.monotonic() + seconds
    while not stop.is_set():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return []
        ready, _, _ = select.select(sources, [], [], min(remaining, STOP_CHECK_SECONDS))
        if ready:
            return ready
    return []


def token_replaced(session: Session, player_id: str) -> None:
    """Every process forgets `player_id`'s old token once `session` commits the new one."""
    session.execute(text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": TOKENS_CHANNEL, "payload": player_id})
    session.info.setdefault("truco_tokens", []).append(player_id)


def known_at_commit(session: Session, match_id: str, version: int) -> None:
    """Tell this process's :class:`~app.live.known.Known` of a change once `session` commits it
    (this process then never answers from an older version, whatever its listener's lag)."""
    session.info.setdefault("truco_heard", []).append((match_id, version))


@orm_event.listens_for(Session, "after_commit")
def _announce_committed(session: Session) -> None:
    heard = session.info.pop("truco_heard", None)
    tokens = session.info.pop("truco_tokens", None)
    if heard or tokens:
        announce(heard or (), tokens or ())


@orm_event.listens_for(Session, "after_rollback")
def _forget_uncommitted(session: Session) -> None:
    session.info.pop("truco_heard", None)
    session.info.pop("truco_tokens", None)
