"""Flask answers every error as a problem (:mod:`app.infra.problems`).

Body: ``{"type", "title", "status", "detail", "code"}`` plus fields that help the client
recover (``errors``, ``legal_actions``, ``retry_after``, ``current``...). ``type`` is
``urn:truco:problem:<code>``, ``title`` the HTTP status phrase, ``code`` the stable
machine code clients switch on. Never an HTML page, never a stack trace.

Decisions:

- A request body that cannot be decoded (malformed JSON, bad UTF-8), whether webargs /
  flask-smorest or ``request.get_json()`` meets it, is **422** ``validation_error`` with
  ``errors: {"_body": [...]}``: API.md makes a malformed body a 422. Any other 400 that
  werkzeug raises stays 400 ``bad_request``.
- Validation errors of flask-smorest arguments (webargs' 422) become ``validation_error``
  with ``errors`` mapping each field to its messages (request locations merged).
- ``flask_smorest.abort(status, message=..., errors=...)`` keeps its message as ``detail``.
- A body sent with a non-JSON Content-Type to ``get_json()`` is 415 ``unsupported_media_type``.
- A JSON body nested deeper than ``MAX_JSON_DEPTH`` is 422 ``validation_error`` before any view
  parses it (Python's decoder raises ``RecursionError``, not ``ValueError``, on deep nesting).
- A JSON body the decoder refuses although it is well-formed (an integer literal longer than
  Python's ``int`` limit of 4,300 digits raises a plain ``ValueError``) is 422 ``validation_error``.
- The database being unreachable, hung or refusing (connection errors, timeouts, pool
  exhaustion) is 503 ``service_unavailable`` with ``Retry-After``, logged as one line per
  failure kind and interval (:mod:`app.infra.logthrottle`), not a traceback per request.
- ``retry_after`` is always an integer number of seconds (rounded up), as ``Retry-After``.
- Anything unexpected is logged with its traceback and answered 500 ``internal_error``.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

import marshmallow as ma
from flask import Flask, Request, Response, current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.http import HTTP_STATUS_CODES

from app.infra.logthrottle import warn_throttled
from app.infra.problems import (DATABASE_ERRORS, HTTP_CODES, PROBLEM_MIMETYPE, TYPE_PREFIX,
                                UNAVAILABLE_RETRY_AFTER, ApiError, failure_kind, first_line,
                                problem_body)

MAX_JSON_DEPTH = 32  # no request body of this API is deeper than 4
log = logging.getLogger(__name__)

# webargs' request locations, merged away when reporting field errors.
_LOCATIONS = {"json", "query", "querystring", "form", "headers", "cookies", "files",
              "json_or_form", "view_args", "path"}


class ProblemSchema(ma.Schema):
    """The problem body, for the OpenAPI spec (responses are built by :func:`problem`)."""

    class Meta:
        unknown = ma.INCLUDE  # codes add their own fields (legal_actions, retry_after...)

    type = ma.fields.String(required=True, metadata={"example": TYPE_PREFIX + "not_found"})
    title = ma.fields.String(required=True, metadata={"description": "HTTP status phrase"})
    status = ma.fields.Integer(required=True)
    detail = ma.fields.String(required=True, metadata={"description": "a human sentence"})
    code = ma.fields.String(required=True, metadata={"description": "stable machine code"})


class ApiRequest(Request):
    """Request whose ``get_json()`` failure is a 422 problem instead of an HTML 400."""

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:  # not a JSON content type: werkzeug's 415
            return super().on_json_loading_failed(e)
        raise ApiError(422, "validation_error", "The request body is not valid JSON.",
                       errors={"_body": ["Invalid JSON body."]})


def problem(status: int, code: str, detail: str, *,
            headers: Mapping[str, str] | None = None, **extra: Any) -> Response:
    """Build a problem+json response (its body and headers:
    :func:`app.infra.problems.problem_body`)."""
    body, more = problem_body(status, code, detail, headers=headers, **extra)
    response = current_app.response_class(
        current_app.json.dumps(body) + "\n", status=status, mimetype=PROBLEM_MIMETYPE)
    for name, value in more.items():
        response.headers[name] = value
    return response


def _stringify_keys(value: Any) -> Any:
    """Marshmallow keys list errors by int index; JSON wants (sortable) strings."""
    if isinstance(value, Mapping):
        return {str(k): _stringify_keys(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_stringify_keys(v) for v in value]
    return value


def field_errors(messages: Any) -> dict[str, Any]:
    """Flatten webargs messages ``{"json": {"name": [...]}}`` into ``{"name": [...]}``."""
    if not isinstance(messages, Mapping):
        return {"_schema": _stringify_keys(messages if isinstance(messages, list) else [messages])}
    out: dict[str, Any] = {}
    for key, value in messages.items():
        if key in _LOCATIONS and isinstance(value, Mapping):
            out.update(_stringify_keys(value))
        elif key in _LOCATIONS:
            out.setdefault("_body" if key in ("json", "json_or_form") else key, []).extend(value)
        else:
            out[str(key)] = _stringify_keys(value)
    return out


def _summary(errors: Mapping[str, Any]) -> str:
    """A human sentence naming the first invalid field."""
    for name, messages in errors.items():
        if isinstance(messages, list) and messages and isinstance(messages[0], str):
            where = "The request body" if name in ("_body", "_schema") else f"Field '{name}'"
            return f"{where}: {messages[0]}"
    return "The request is not valid; see 'errors'."


def _default_detail(e: HTTPException) -> str:
    """A short sentence for werkzeug's errors (their own texts talk about browsers)."""
    if e.description and e.description != type(e).description:
        return e.description
    if e.code == 404:
        return "There is nothing at this URL."
    if e.code == 405:
        return f"Method {request.method} is not allowed on this URL."
    if e.code == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        return f"The request body is larger than {limit} bytes." if limit else "Body too large."
    return e.description or HTTP_STATUS_CODES.get(e.code or 500, "Error")


def handle_api_error(e: ApiError) -> Response:
    """Handler for :class:`ApiError`."""
    return problem(e.status, e.code, e.detail, headers=e.headers, **e.extra)


def handle_http_exception(e: HTTPException) -> Response | HTTPException:
    """Handler for werkzeug / Flask / flask-smorest HTTP exceptions."""
    status = e.code or 500
    if status < 400:
        return e
    data = getattr(e, "data", None) or {}
    headers = {k: v for k, v in e.get_headers() if k.lower() != "content-type"}
    headers.update(data.get("headers") or {})
    messages = data.get("errors", data.get("messages"))
    if messages is not None and status in (400, 422):
        errors = field_errors(messages)
        return problem(422, "validation_error", data.get("message") or _summary(errors),
                       headers=headers, errors=errors)
    code = HTTP_CODES.get(status, f"http_{status}")
    return problem(status, code, data.get("message") or _default_detail(e), headers=headers)


def handle_database_unavailable(e: Exception) -> Response:
    """503 ``service_unavailable``: the database is down, hung or overloaded; retry later."""
    warn_throttled(log, failure_kind(e), f"{request.method} {request.path}: {first_line(e)}")
    return problem(503, "service_unavailable",
                   "The database is not available right now; retry later.",
                   retry_after=UNAVAILABLE_RETRY_AFTER)


def handle_unexpected(e: Exception) -> Response | HTTPException:
    """Catch-all: log the traceback, answer a bare 500 problem."""
    if isinstance(e, HTTPException):
        return handle_http_exception(e)
    if isinstance(e, DATABASE_ERRORS):
        return handle_database_unavailable(e)
    current_app.logger.exception("Unhandled error on %s %s", request.method, request.path)
    return problem(500, "internal_error", "An unexpected error occurred; it has been logged.")


def _has_body() -> bool:
    return bool(request.content_length) or "chunked" in request.headers.get(
        "Transfer-Encoding", "").lower()


def require_json_body() -> None:
    """``before_request``: a body that is not declared JSON is 415 ``unsupported_media_type``.

    webargs reads a body only when its Content-Type is JSON; without this check a body sent as
    ``text/plain`` (or with no Content-Type) would be ignored silently, e.g. a create body
    falling back to every default. Requests without a body (leave, resign) are unaffected.
    """
    if _has_body() and not request.is_json:
        raise ApiError(415, "unsupported_media_type",
                       "Send the request body as JSON, with Content-Type: application/json.")


def takes_no_body(view: Callable[..., Any]) -> Callable[..., Any]:
    """For an endpoint that takes no body (leave, resign, rematch...): a body that is empty,
    ``{}`` or ``null`` is let through, anything else is 422 ``validation_error`` before the
    verb runs, so that a malformed or misdirected request changes nothing. (Put it below
    the auth decorator: a bad token is 401 first.)"""
    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if (_has_body() and request.get_data(cache=True).strip()
                and request.get_json() not in ({}, None)):
            raise ApiError(422, "validation_error", "This request takes no body.",
                           errors={"_body": ["send no body (or {})"]})
        return view(*args, **kwargs)
    return checked


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether JSON ``value`` nests arrays / objects deeper than ``limit`` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            stack.extend((child, depth + 1)
                         for child in (item.values() if isinstance(item, dict) else item))
    return False


def check_json_depth() -> None:
    """``before_request``: a JSON body nested too deeply is 422 (not a RecursionError 500)."""
    if not request.is_json or not _has_body():
        return
    too_deep = ApiError(422, "validation_error", "The request body is nested too deeply.",
                        errors={"_body": [f"nested deeper than {MAX_JSON_DEPTH} levels"]})
    try:
        body = json.loads(request.get_data(cache=True))
    except RecursionError:
        raise too_deep from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        return  # invalid JSON: left to the view (after its 401)
    except ValueError as exc:  # well-formed, but e.g. an integer of more than 4,300 digits
        raise ApiError(422, "validation_error", "The request body has a number too large.",
                       errors={"_body": [str(exc).split(";")[0]]}) from None
    if _depth_exceeds(body, MAX_JSON_DEPTH):
        raise too_deep


def register_error_handlers(app: Flask) -> None:
    """Install the handlers (and the JSON body check); call after ``api.init_app`` so that
    they replace flask-smorest's."""
    app.register_error_handler(ApiError, handle_api_error)
    app.register_error_handler(HTTPException, handle_http_exception)
    for error in DATABASE_ERRORS:
        app.register_error_handler(error, handle_database_unavailable)
    app.register_error_handler(Exception, handle_unexpected)
    app.before_request(require_json_body)
    app.before_request(check_json_depth)
