"""The hottest answers of `GET /v1/matches/{id}`, made before Flask sees the request.

Clients poll views far more often than anything changes, and a view's body is already shared
by every request for the same (match, version, seat) (app/play/conditional.py). So, in front of
Flask (WSGI), for a GET of a match view with no query string but `wait=N` and no `Origin` to
answer:

- `If-None-Match` naming the version the process has heard of (app/live/known.py) for this token
  and seat: 304, no query;
- `If-None-Match` on a match whose version the process cannot trust yet: the match is watched
  first (app/live/watches.py: from then on its actions are notified, so the next polls need no
  query), then read as below;
- otherwise, for a token the process knows: the version and seat read in the database (one
  prepared statement on a pooled connection in autocommit, shared by every request in flight
  in the process: app/live/batched_reads.py), then a 304 if the tag matches, or the shared
  rendering of that version (rendered here, once per process, when it has none yet);
- a long poll (`?wait=N`, a token the process knows, `If-None-Match` naming the version it
  heard, or read after watching the match as above; a watch lasting the whole wait) waits
  here, without Flask's request and its layers on the waiting greenlet's stack
  (the deepest part of what a waiter costs in memory), with the same rules as Flask's path:
  a slot of the caller's long-poll cap (over it, Flask answers 429), the client watched for a
  disconnect, an answer at once when the process stops; then a 304, or the version heard
  since it began from the shared rendering (rendered here once per version and seat).

The answers carry exactly the headers Flask's path gives them (a test compares them).
Everything else (a long poll whose tag is not the current one, an unknown token, a
database error) goes on to Flask unchanged, which answers it as always (401, 404, 503...).
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
from app.db.models import id_can_exist
from app.db.prepared import Statement
from app.infra.encoding import PRIVATE_CACHE_CONTROL, etag_matches, etag_of
from app.http.schemas import MAX_WAIT_SECONDS
from app.http.security_headers import API_POLICY, HEADERS
from app.live.written import written

T = TypeVar("T")
PREFIX = "/v1/matches/"
NOT_MODIFIED = "304 NOT MODIFIED"
OK = "200 OK"
"""(as werkzeug spells them)"""

CLIENT_GONE = "499 CLIENT CLOSED REQUEST"
"""(never read: the client has gone)"""

Answer = tuple[str, list[tuple[str, str]], bytes]
WAIT = re.compile(r"wait=([0-9]{1,2})")


def fixed_headers(app: Flask) -> list[tuple[str, str]]:
    """What Flask's after-request hooks add to a JSON answer of a request without `Origin`:
    the security headers, and `Vary: Origin` when CORS names its origins."""
    origins = app.config.get("CORS_ORIGINS") or ()
    return [*HEADERS.items(), ("Content-Security-Policy", API_POLICY),
            *([("Vary", "Origin")] if origins and origins != ("*",) else [])]


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
    """WSGI middleware in front of the Flask app."""

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

    def _answer(self, environ: dict[str, Any]) -> Answer | None:
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
        seen = environ.get("HTTP_IF_NONE_MATCH")
        if digest is not None and hub.known.player(digest) is None:
            return None  # a token not known here: Flask checks it (and may answer 401)
        now = None
        if seen:
            heard = heard_of(hub.known, match_id, digest)
            if heard is None:
                # what this process hears of the match is trusted once it is watched
                # (app/live/watches.py), so that the next polls and a long poll's wait need no
                # query: watch it, then read it
                if not self._watch(hub, match_id, 0):
                    return None
                heard = now = self._read(hub.known, match_id, digest)
                if now is None:
                    return None
            if etag_matches(seen, heard.etag):
                if wait:
                    return self._long_poll(environ, hub, heard, digest, seen, wait)
                return NOT_MODIFIED, [("ETag", heard.etag), *self._fixed], b""
        if wait:
            return None
        now = now or self._read(hub.known, match_id, digest)
        if now is None:
            return None
        if seen and etag_matches(seen, now.etag):
            return NOT_MODIFIED, [("ETag", now.etag), *self._fixed], b""
        return self._view(now, seen)

    def _view(self, now: Current, seen: str | None) -> Answer | None:
        """The shared rendering of `now` (rendered here if this process has none yet), or
        None when it cannot be rendered here (Flask's path then answers, a 503 included)."""
        try:
            (match_id, version, seat), body = conditional.renderings.get(
                (now.match_id, now.version, now.seat),
                lambda: self._render(now))
        except Exception:  # noqa: BLE001 - the database failed: Flask's path answers 503
            return None
        tag = etag_of(match_id, version, seat)
        if seen and etag_matches(seen, tag):  # (it moved on while rendering, to that tag)
            return NOT_MODIFIED, [("ETag", tag), *self._fixed], b""
        return OK, [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                    ("ETag", tag), *self._fixed], body

    def _long_poll(self, environ: dict[str, Any], hub: Any, heard: Current,
                   digest: str | None, seen: str, wait: int) -> Answer | None:
        """Wait for a change from the version `seen` names (heard as `heard`)."""
        if digest is None:
            return None  # (the cap counts callers without a token by address: Flask's path)
        if not self._watch(hub, heard.match_id, wait):
            return None  # (actions on it must wake this wait: app/live/watches.py)
        cap = self._app.config.get("MAX_POLLS_PER_CLIENT") or 0
        key = pollcap.token_key(digest)
        if not pollcap.take(key, cap):
            return None  # Flask's path answers 429
        match_id = heard.match_id

        def changed() -> Current | None:
            now = (heard_of(hub.known, match_id, digest)
                   or self._read(hub.known, match_id, digest))
            return None if now is None or etag_matches(seen, now.etag) else now

        try:
            now = hub.wait_for([match_id], changed, wait, environ)
        except ClientGone:
            return CLIENT_GONE, [], b""
        finally:
            pollcap.give_back(key, cap)
        if now is None:  # the wait ran out (or the process stops): nothing changed
            return NOT_MODIFIED, [("ETag", heard.etag), *self._fixed], b""
        answer = self._view(now, seen)
        if answer is None:  # (rendering failed: Flask's path answers the view as it is now)
            environ["QUERY_STRING"] = ""
        return answer

    def _render(self, now: Current) -> tuple[conditional.Key, bytes]:
        """The view of `now` (or of the match as it is by now: the key it rendered), from
        the match as this process wrote it (app/live/written.py) or as read."""
        match = written.get(now.match_id, now.version) or self._on_connection(
            lambda fairy: read_match(now.match_id, fairy))
        if match is None:
            raise LookupError(now.match_id)  # (the database failed: the caller goes to Flask)
        with self._app.app_context():  # (json_bytes falls back on Flask's encoder)
            return conditional.rendered(match, now.player_id)

    def _read(self, known: Any, match_id: str,
              digest: str | None) -> Current | None:
        """The current version and seat read in the database (one query shared by the
        requests in flight: app/live/batched_reads.py), or None (also on any error: Flask's path
        then answers as it does)."""
        try:
            return self._reads.read(known, match_id, digest)
        except ReadFailed:
            return None

    def _rows(self, statement: Statement, params: dict[str, Any]) -> list[tuple[Any, ...]] | None:
        """The rows of `statement` on a pooled connection (None on a database error)."""
        def fetch(fairy: Any) -> list[tuple[Any, ...]]:
            with prepared.run(fairy, [statement], params) as cursor:
                return cursor.fetchall()
        return self._on_connection(fetch)

    def _watch(self, hub: Any, match_id: str, wait: int) -> bool:
        """Have `match_id` watched for a wait of `wait` seconds, unless it is already
        (app/live/hub.py: `Hub.watch`), so that what this process hears of it can be trusted;
        False when the database failed (Flask's path then answers)."""
        try:
            hub.watch([match_id], wait, self._app_engine())
        except Exception:  # noqa: BLE001 - the database failed: Flask's path answers (503)
            return False
        return True

    def _app_engine(self) -> Engine:
        if self._engine is None:
            with self._app.app_context():
                self._engine = db.engine
        return self._engine

    def _on_connection(self, read: Callable[[Any], T | None]) -> T | None:
        """`read` given a pooled connection in autocommit (one statement each, no
        transaction, no session: app/db/hot_sql.py's own_connection), or None on any
        database error (a broken connection is dropped)."""
        try:
            with own_connection(self._app_engine()) as fairy:
                return read(fairy)
        except Exception:  # noqa: BLE001 - the database failed: Flask's path answers (503)
            return None


def init_app(app: Flask) -> None:
    app.wsgi_app = ViewShortcut(app)  # type: ignore[method-assign]
