"""Problems (RFC 9457, ``application/problem+json``): the error a client can trigger, and
the one body and headers every front answers it with (Flask's handlers, the WSGI fast
paths, gunicorn's worker).

Body: ``{"type", "title", "status", "detail", "code"}`` plus the fields that help the client
recover (``errors``, ``legal_actions``, ``retry_after``, ``current``...). ``type`` is
``urn:truco:problem:<code>``, ``title`` the HTTP status phrase, ``code`` the stable machine
code clients switch on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import psycopg2
from sqlalchemy import exc as sa_exc
from werkzeug.http import HTTP_STATUS_CODES

PROBLEM_MIMETYPE = "application/problem+json"
TYPE_PREFIX = "urn:truco:problem:"
UNAVAILABLE_RETRY_AFTER = 5
"""Seconds a client is asked to wait when the database is unavailable (503)."""
# Stable codes for errors raised by werkzeug / Flask rather than by our own code.
HTTP_CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    408: "request_timeout",
    409: "conflict",
    410: "gone",
    411: "length_required",
    412: "precondition_failed",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    422: "validation_error",
    428: "precondition_required",
    429: "rate_limited",
    431: "headers_too_large",
    500: "internal_error",
    501: "not_implemented",
    503: "service_unavailable",
}


class ApiError(Exception):
    """An error a client can trigger: ``raise ApiError(409, "match_not_active", "...")``.

    ``extra`` fields are added to the problem body; ``headers`` to the response
    (``retry_after=`` also sets ``Retry-After``; a 401 gets ``WWW-Authenticate: Bearer``).
    """

    def __init__(self, status: int, code: str, detail: str, *,
                 headers: Mapping[str, str] | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = dict(headers or {})
        self.extra = extra


def problem_body(status: int, code: str, detail: str, *,
                 headers: Mapping[str, str] | None = None,
                 **extra: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """The problem's body and its response headers (``Retry-After`` from ``retry_after``,
    rounded up to whole seconds; ``WWW-Authenticate`` on a 401; then ``headers``)."""
    body: dict[str, Any] = {
        "type": TYPE_PREFIX + code,
        "title": HTTP_STATUS_CODES.get(status, "Error"),
        "status": status,
        "detail": detail,
        "code": code,
    }
    body.update((k, v) for k, v in extra.items() if k not in body)
    more: dict[str, str] = {}
    if body.get("retry_after") is not None:
        body["retry_after"] = max(1, math.ceil(body["retry_after"]))  # whole seconds
        more["Retry-After"] = str(body["retry_after"])
    if status == 401:
        more["WWW-Authenticate"] = "Bearer"
    more.update(headers or {})
    return body, more


DATABASE_ERRORS = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError,
                   psycopg2.OperationalError, psycopg2.InterfaceError)
"""What an unreachable, hung or restarting database raises (statement / lock timeouts,
connection refused or lost, a full pool, the client-side deadline of :mod:`app.infra.dbwait`)."""


def failure_kind(e: BaseException) -> str:
    """A short, stable name of a database failure: the driver's class (and SQLSTATE)."""
    cause = getattr(e, "orig", None) or e
    code = getattr(cause, "pgcode", None)
    return f"database {type(cause).__name__}" + (f" {code}" if code else "")


def first_line(e: BaseException) -> str:
    """The first line of a (database) error's message: what a throttled log line shows."""
    return (str(getattr(e, "orig", None) or e).strip().splitlines() or [""])[0]
