"""The hottest answers of `GET /v1/matches/{id}`, made before Flask sees the request.

A gate and an encoding over the view verb (app/play/view.py: the 304, the long poll, the
shared rendering): it takes a GET of a match with no query string but `wait=N`, no `Origin`,
and no token or one this process knows (app/live/known.py); it reads on pooled connections,
batched across the requests in flight (app/live/batched_reads.py), and waits without Flask's
request on the waiting greenlet's stack (the deepest part of what a waiter costs in memory).
What the verb cannot answer here (an unknown match or token, a caller without a token who
would wait, a full poll cap, a database error) goes on to Flask unchanged, which answers as
always (401, 404, 429, 503...). The answers carry exactly Flask's headers (tests compare them).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from flask import Flask
from sqlalchemy.engine import Engine

from app.infra.tokens import token_hash_of
from app.live.current import Current, heard_of
from app.play import conditional
from app.live import pollcap
from app.db import prepared
from app.db.hot_sql import own_connection, read_match
from app.live.batched_reads import BatchedReads, ReadFailed
from app.live.disconnect import ClientGone
from app.db.extensions import db
from app.db.models import Match, id_can_exist
from app.db.prepared import Statement
from app.infra.encoding import PRIVATE_CACHE_CONTROL
from app.http.schemas.base import MAX_WAIT_SECONDS
from app.http.cors import varies
from app.http.security_headers import security_headers
from app.live.recent import recent
from app.play.view import Declined, view

T = TypeVar("T")
PREFIX = "/v1/matches/"
NOT_MODIFIED = "304 NOT MODIFIED"
OK = "200 OK"
"""(as werkzeug spells them)"""

CLIENT_GONE = "499 CLIENT CLOSED REQUEST"
"""(never read: the client has gone)"""

Reply = tuple[str, list[tuple[str, str]], bytes]
WAIT = re.compile(r"wait=([0-9]{1,2})")


def fixed_headers(app: Flask) -> list[tuple[str, str]]:
    """What Flask's after-request hooks add to a JSON answer of a match request without
    `Origin`: their own functions' headers (security headers; `Vary: Origin` when CORS names
    its origins)."""
    return [*security_headers(PREFIX, "application/json"),
            *([("Vary", "Origin")] if varies(app.config.get("CORS_ORIGINS")) else [])]


def wait_seconds(query: str) -> int | None:
    """The seconds of a query string that is nothing but `wait=N` (0 <= N <= 60, as
    WaitQuerySchema takes it), 0 for no query string, None for anything else (Flask's
    path validates it)."""
    if not query:
        return 0
    found = WAIT.fullmatch(query)
    if found is None or int(found.group(1)) > MAX_WAIT_SECONDS:
        return None
    return int(found.group(1))


class ViewShortcut:
    """WSGI middleware in front of the Flask app: the gate (which requests it takes) and the
    encoding of app.play.view's answers; a request it declines goes on to Flask unchanged."""

    def __init__(self, app: Flask) -> None:
        self._app = app
        self._next = app.wsgi_app
        self._engine: Engine | None = None
        self._reads = BatchedReads(self._rows)
        self._fixed = [("Cache-Control", PRIVATE_CACHE_CONTROL), *fixed_headers(app)]

    def __call__(self, environ: dict[str, Any],
                 start_response: Callable[..., Any]) -> Iterable[bytes]:
        answer = self._answer(environ)
        if answer is None:
            return self._next(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body] if body else []

    def _answer(self, environ: dict[str, Any]) -> Reply | None:
        path = environ.get("PATH_INFO", "")
        wait = wait_seconds(environ.get("QUERY_STRING", ""))
        if (environ.get("REQUEST_METHOD") != "GET" or not path.startswith(PREFIX)
                or wait is None or "HTTP_ORIGIN" in environ):
            return None
        match_id = path[len(PREFIX):]
        hub = self._app.extensions.get("truco_hub")
        digest = token_hash_of(environ.get("HTTP_AUTHORIZATION"))
        if hub is None or digest is False or not id_can_exist(match_id):
            return None
        if digest is not None and hub.known.player(digest) is None:
            return None  # a token not known here: Flask checks it (and may answer 401)
        reader = _Reader(self, hub, environ, digest)
        try:
            viewed = view(reader, match_id, digest, environ.get("HTTP_IF_NONE_MATCH"), wait)
        except ClientGone:
            return CLIENT_GONE, [], b""
        except Exception:  # noqa: BLE001 - declined, 429 or the database failed: Flask answers
            viewed = None
        if viewed is None:
            if reader.waited:  # (Flask answers the view as it is now, without waiting again)
                environ["QUERY_STRING"] = ""
            return None
        if viewed.status == 304:
            return NOT_MODIFIED, [("ETag", viewed.tag), *self._fixed], b""
        return OK, [("Content-Type", "application/json"),
                    ("Content-Length", str(len(viewed.body))), ("ETag", viewed.tag),
                    *self._fixed], viewed.body

    def read(self, known: Any, match_id: str, digest: str | None) -> Current | None:
        """The current version and seat read in the database (one query shared by the
        requests in flight: app/live/batched_reads.py), or None on any error."""
        try:
            return self._reads.read(known, match_id, digest)
        except ReadFailed:
            return None

    def _rows(self, statement: Statement, params: dict[str, Any]) -> list[tuple[Any, ...]] | None:
        """The rows of `statement` on a pooled connection (None on a database error)."""
        def fetch(conn: Any) -> list[tuple[Any, ...]]:
            with prepared.run(conn, [statement], params) as cursor:
                rows: list[tuple[Any, ...]] = cursor.fetchall()
                return rows
        return self.on_connection(fetch)

    def engine(self) -> Engine:
        if self._engine is None:
            with self._app.app_context():
                self._engine = db.engine
        return self._engine

    def on_connection(self, read: Callable[[Any], T | None]) -> T | None:
        """`read` given a pooled connection in autocommit (one statement each, no
        transaction, no session: app/db/hot_sql.py's own_connection), or None on any
        database error (a broken connection is dropped)."""
        try:
            with own_connection(self.engine()) as conn:
                return read(conn)
        except Exception:  # noqa: BLE001 - the database failed: Flask's path answers (503)
            return None

    def app_context(self) -> Any:
        return self._app.app_context()

    def poll_cap(self) -> int:
        return self._app.config.get("MAX_POLLS_PER_CLIENT") or 0


class _Reader:
    """app.play.view's :class:`~app.play.view.Reader` for one request of the fast path: reads
    on pooled connections (batched), the process's hub, the caller's token-keyed slots."""

    __slots__ = ("_front", "_hub", "_environ", "_digest", "waited")  # (one per waiter)

    def __init__(self, front: ViewShortcut, hub: Any, environ: dict[str, Any],
                 digest: str | None) -> None:
        self._front, self._hub, self._environ, self._digest = front, hub, environ, digest
        self.waited = False

    def heard(self, match_id: str, digest: str | None) -> Current | None:
        return heard_of(self._hub.known, match_id, digest)

    def read(self, match_id: str, digest: str | None) -> Current | None:
        return self._front.read(self._hub.known, match_id, digest)

    def watch(self, match_id: str, wait: int) -> bool:
        try:
            self._hub.watch([match_id], wait, self._front.engine())
        except Exception:  # noqa: BLE001 - the database failed: Flask's path answers (503)
            return False
        return True

    def wait(self, match_id: str, changed: Callable[[], Current | None],
             wait: int) -> Current | None:
        if self._digest is None:
            raise Declined()  # (callers without a token are capped by address: Flask's path)
        key = pollcap.token_key(self._digest)
        give_back = pollcap.hold_slot(lambda: key, self._front.poll_cap())
        try:
            self.waited = True
            found: Current | None = self._hub.wait_for([match_id], changed, wait, self._environ)
            return found
        finally:
            give_back()

    def load(self, match_id: str, version: int) -> Match | None:
        match = recent.get(match_id, version) or self._front.on_connection(
            lambda conn: read_match(match_id, conn))
        return match

    def rendered(self, match: Match, player_id: str | None) -> tuple[conditional.Key, bytes]:
        with self._front.app_context():  # (the rendering reads the app's config)
            return conditional.rendered(match, player_id)


def init_app(app: Flask) -> None:
    app.wsgi_app = ViewShortcut(app)  # type: ignore[method-assign]
