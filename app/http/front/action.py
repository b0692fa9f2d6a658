"""The plain `POST /v1/matches/{id}/actions`, played before Flask routes the request.

A gate and an encoding over the action verb (app/play/act.py: `send_action`, the one that
Flask's route calls too), skipping Flask's layers, which cost about as much CPU as the action
itself. It takes a POST with no query string (a long poll is Flask's), no `Origin`, a plain
JSON body (app/http/body.py: `plain_json_length`) of the engine's action shape
(engine/actions.py: `well_typed`), and a bearer token this process knows (app/live/known.py).
Anything else goes on to Flask unchanged (the body put back as it came). An error on the way
(a body that does not arrive in time, 429, 412, 422, a database error) is answered by
Flask's own error handlers and after-request hooks; a success carries Flask's headers (tests
compare status, headers and body with Flask's answer to the same request).
"""
from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

import orjson
from flask import Flask

from engine.actions import well_typed
from werkzeug.http import HTTP_STATUS_CODES

from app.infra.tokens import token_hash_of
from app.play.act import send_action
from app.http.responses import answer_bytes
from app.http.body import plain_json_length, read_within
from app.db.models import id_can_exist
from app.http.front.view import PREFIX, fixed_headers

SUFFIX = "/actions"


class ActionShortcut:
    """WSGI middleware in front of the Flask app (under app/http/front/view.py's)."""

    def __init__(self, app: Flask) -> None:
        self._app = app
        self._next = app.wsgi_app
        self._fixed = fixed_headers(app)

    def __call__(self, environ: dict[str, Any],
                 start_response: Callable[..., Any]) -> Iterable[bytes]:
        taken = self._taken(environ)
        if taken is None:
            return self._next(environ, start_response)
        match_id, player_id, length = taken
        try:
            raw = read_within(environ["wsgi.input"], length,
                              self._app.config.get("BODY_TIMEOUT", 0))
        except Exception as exc:  # noqa: BLE001 - answered as Flask's read_body answers it
            return self._flask_error(environ, start_response, exc)
        environ["wsgi.input"] = io.BytesIO(raw)  # (read again by Flask if it goes there)
        environ["wsgi.input_terminated"] = False
        body = _parsed(raw) if len(raw) == length else None
        if body is None:
            return self._next(environ, start_response)
        try:
            with self._app.app_context():
                answer = send_action(player_id, match_id, body,
                                     if_match=environ.get("HTTP_IF_MATCH"),
                                     key_header=environ.get("HTTP_IDEMPOTENCY_KEY"))
                data = answer_bytes(answer)
        except Exception as exc:  # noqa: BLE001 - Flask's error handlers answer it
            return self._flask_error(environ, start_response, exc)
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(data))),
                   *answer.headers.items(), *self._fixed]
        start_response(f"{answer.status} {HTTP_STATUS_CODES[answer.status].upper()}", headers)
        return [data]

    def _taken(self, environ: dict[str, Any]) -> tuple[str, str, int] | None:
        """(match id, caller, body length) of a request this takes, else None."""
        path = environ.get("PATH_INFO", "")
        if (environ.get("REQUEST_METHOD") != "POST" or not path.startswith(PREFIX)
                or not path.endswith(SUFFIX) or environ.get("QUERY_STRING")
                or "HTTP_ORIGIN" in environ):
            return None
        match_id = path[len(PREFIX):-len(SUFFIX)]
        if not match_id or "/" in match_id or not id_can_exist(match_id):
            return None
        length = plain_json_length(environ, self._app.config.get("MAX_CONTENT_LENGTH"))
        if length is None:
            return None
        hub = self._app.extensions.get("truco_hub")
        digest = token_hash_of(environ.get("HTTP_AUTHORIZATION"))
        if hub is None or not digest:
            return None
        player_id = hub.known.player(digest)
        return None if player_id is None else (match_id, player_id, length)

    def _flask_error(self, environ: dict[str, Any], start_response: Callable[..., Any],
                     exc: Exception) -> Iterable[bytes]:
        """`exc` answered as Flask's path answers it: its error handlers, then its
        after-request hooks (security headers, CORS)."""
        app = self._app
        with app.request_context(environ):
            try:
                response = app.finalize_request(app.handle_user_exception(exc))
            except Exception as unhandled:  # noqa: BLE001 - (a handler failed: a 500)
                response = app.handle_exception(unhandled)
        return response(environ, start_response)


def _parsed(raw: bytes) -> dict[str, Any] | None:
    """The action in `raw` when the schema would pass it on unchanged
    (:func:`engine.actions.well_typed`), else None."""
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return body if well_typed(body) else None


def init_app(app: Flask) -> None:
    """Install it in front of Flask's WSGI app (before the view shortcut wraps both)."""
    app.wsgi_app = ActionShortcut(app)  # type: ignore[method-assign]
