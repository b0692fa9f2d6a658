"""The hottest answers of `GET /v1/matches/{id}`, made before Flask sees the request.

Clients poll views far more often than anything changes, and a view's body is already shared
by every request for the same (match, version, seat) (app/conditional.py). So, in front of
Flask (WSGI), for a GET of a match view without a query string or an `Origin` to answer:

- `If-None-Match` naming the version the process has heard of (app/known.py) for this token
  and seat: 304, no query;
- otherwise, for a token the process knows: the version and seat read by one prepared
  statement on a pooled connection in autocommit (no session, no transaction), then a 304 if
  the tag matches, or the shared rendering of that version if this process has one.

The answers carry exactly the headers Flask's path gives them (a test compares them).
Everything else (a long poll, an unknown token, a body not rendered yet, a database error)
goes on to Flask unchanged, which answers it as always (401, 404, 503...).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy.engine import Engine

from app import conditional
from app.extensions import db
from app.models import id_can_exist
from app.rendering import etag_matches
from app.security_headers import API_POLICY, HEADERS

PREFIX = "/v1/matches/"
NOT_MODIFIED = "304 NOT MODIFIED"
OK = "200 OK"
"""(as werkzeug spells them)"""

Answer = tuple[str, list[tuple[str, str]], bytes]


class ViewShortcut:
    """WSGI middleware in front of the Flask app."""

    def __init__(self, app: Flask) -> None:
        self._app = app
        self._next = app.wsgi_app
        self._engine: Engine | None = None
        origins = app.config.get("CORS_ORIGINS") or ()
        self._fixed = [("Cache-Control", "private, no-cache"), *HEADERS.items(),
                       ("Content-Security-Policy", API_POLICY),
                       *([("Vary", "Origin")] if origins and origins != ("*",) else [])]

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
        if (environ.get("REQUEST_METHOD") != "GET" or not path.startswith(PREFIX)
                or environ.get("QUERY_STRING") or "HTTP_ORIGIN" in environ):
            return None
        match_id = path[len(PREFIX):]
        hub = self._app.extensions.get("truco_hub")
        digest = conditional.token_hash_of(environ.get("HTTP_AUTHORIZATION"))
        if hub is None or digest is False or not id_can_exist(match_id):
            return None
        seen = environ.get("HTTP_IF_NONE_MATCH")
        if seen:
            heard = conditional.heard_of(hub.known, match_id, digest)
            if heard is not None and etag_matches(seen, heard.etag):
                return NOT_MODIFIED, [("ETag", heard.etag), *self._fixed], b""
        if digest is not None and hub.known.player(digest) is None:
            return None  # a token not known here: Flask checks it (and may answer 401)
        now = self._read(hub.known, match_id, digest)
        if now is None:
            return None
        if seen and etag_matches(seen, now.etag):
            return NOT_MODIFIED, [("ETag", now.etag), *self._fixed], b""
        body = conditional.renderings.known((match_id, now.version, now.seat))
        if body is None:
            return None
        return OK, [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                    ("ETag", now.etag), *self._fixed], body

    def _read(self, known: Any, match_id: str,
              digest: str | None) -> conditional.Current | None:
        """The current version and seat read in the database, or None (also on any error:
        Flask's path then answers as it does)."""
        if self._engine is None:
            with self._app.app_context():
                self._engine = db.engine
        try:
            fairy = self._engine.raw_connection()
        except Exception:  # noqa: BLE001 - the database is down: Flask's path answers 503
            return None
        try:
            fairy.dbapi_connection.autocommit = True  # one statement, no transaction
            try:
                return conditional.read_current(fairy, known, match_id, digest)
            finally:
                fairy.dbapi_connection.autocommit = False
        except Exception:  # noqa: BLE001 - as above; the connection is not reused
            fairy.invalidate()
            return None
        finally:
            fairy.close()


def init_app(app: Flask) -> None:
    app.wsgi_app = ViewShortcut(app)  # type: ignore[method-assign]
