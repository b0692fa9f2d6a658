"""Conditional GETs of a match view answered 304 before Flask sees them.

Clients poll views with `If-None-Match` far more often than anything changes. When the
process has heard the match's current version, the caller's token and seat
(app/known.py, app/conditional.py), the answer is a 304 with the same headers the Flask path
gives (ETag, Cache-Control, the security headers, `Vary: Origin` where CORS lists origins):
no routing, no request object, no query. Everything else (a body, a long poll with `wait`,
an `Origin` to answer, a token or match not heard of) goes on to Flask unchanged.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

from app.conditional import heard_etag
from app.rendering import etag_matches
from app.security_headers import API_POLICY, HEADERS

PREFIX = "/v1/matches/"
STATUS = "304 NOT MODIFIED"
"""(as werkzeug spells it)"""


class NotModifiedShortcut:
    """WSGI middleware in front of the Flask app."""

    def __init__(self, app: Flask) -> None:
        self._app = app
        self._next = app.wsgi_app
        origins = app.config.get("CORS_ORIGINS") or ()
        self._fixed = [("Cache-Control", "private, no-cache"), *HEADERS.items(),
                       ("Content-Security-Policy", API_POLICY),
                       *([("Vary", "Origin")] if origins and origins != ("*",) else [])]

    def __call__(self, environ: dict[str, Any],
                 start_response: Callable[..., Any]) -> Iterable[bytes]:
        tag = self._unchanged(environ)
        if tag is None:
            return self._next(environ, start_response)
        start_response(STATUS, [("ETag", tag), *self._fixed])
        return []

    def _unchanged(self, environ: dict[str, Any]) -> str | None:
        seen = environ.get("HTTP_IF_NONE_MATCH")
        path = environ.get("PATH_INFO", "")
        if (not seen or environ.get("REQUEST_METHOD") != "GET" or not path.startswith(PREFIX)
                or environ.get("QUERY_STRING") or "HTTP_ORIGIN" in environ):
            return None
        hub = self._app.extensions.get("truco_hub")
        if hub is None:
            return None
        tag = heard_etag(hub.known, path[len(PREFIX):], environ.get("HTTP_AUTHORIZATION"))
        return tag if tag is not None and etag_matches(seen, tag) else None


def init_app(app: Flask) -> None:
    app.wsgi_app = NotModifiedShortcut(app)  # type: ignore[method-assign]
