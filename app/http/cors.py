"""CORS for browser clients, off unless ``TRUCO_CORS_ORIGINS`` names who may call.

``TRUCO_CORS_ORIGINS`` (or the app config key ``CORS_ORIGINS``, which wins):

- unset or empty: off; no ``Access-Control-*`` header is ever sent (the default);
- ``*``: any origin; answers carry ``Access-Control-Allow-Origin: *``;
- ``https://a.example, https://b.example``: only these origins (exact scheme://host[:port]);
  the allowed origin is echoed back, with ``Vary: Origin``.

Authentication is a bearer token, never a cookie, so credentials are not enabled and ``*``
is safe to use. A preflight (``OPTIONS`` with ``Access-Control-Request-Method``) from an
allowed origin, on a URL the app serves, is answered 204 before any authentication runs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from flask import Flask, Response, current_app, request

ENV_VAR = "TRUCO_CORS_ORIGINS"
ALLOWED_HEADERS = ("Authorization", "Content-Type", "If-Match", "If-None-Match",
                   "Idempotency-Key")
EXPOSED_HEADERS = ("ETag", "Location", "Retry-After", "Idempotent-Replayed")
MAX_AGE_SECONDS = 600


def parse_origins(value: str | Iterable[str] | None) -> tuple[str, ...]:
    """``"*"``, a comma-separated list, or nothing; trailing slashes are dropped."""
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else list(value)
    origins = tuple(o.strip().rstrip("/") for o in items if o.strip())
    if "*" in origins:
        return ("*",)
    return origins


def _allowed_origin() -> str | None:
    """The value of ``Access-Control-Allow-Origin`` for this request, or None."""
    origin = request.headers.get("Origin")
    origins: tuple[str, ...] = current_app.config["CORS_ORIGINS"]
    if not origin or not origins:
        return None
    if origins == ("*",):
        return "*"
    return origin if origin.rstrip("/") in origins else None


def answer_preflight() -> Response | None:
    """``before_request``: answer a preflight from an allowed origin (None: carry on)."""
    if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
        return None
    allowed = _allowed_origin()
    if allowed is None or request.routing_exception is not None or request.url_rule is None:
        return None  # refused origin or unknown URL: the usual answer, without CORS headers
    adapter = current_app.url_map.bind_to_environ(request.environ)
    methods = sorted(m for m in adapter.allowed_methods() if m not in ("OPTIONS", "HEAD"))
    response = current_app.response_class(status=204)
    response.headers["Access-Control-Allow-Methods"] = ", ".join(methods)
    response.headers["Access-Control-Allow-Headers"] = ", ".join(ALLOWED_HEADERS)
    response.headers["Access-Control-Max-Age"] = str(MAX_AGE_SECONDS)
    return response


def varies(origins: tuple[str, ...] | None) -> bool:
    """Whether answers vary by `Origin` (`Vary: Origin`): CORS names its origins."""
    return bool(origins) and origins != ("*",)


def add_cors_headers(response: Response) -> Response:
    """``after_request``: let an allowed origin read this answer (errors and 304s too)."""
    if not current_app.config["CORS_ORIGINS"]:
        return response
    if varies(current_app.config["CORS_ORIGINS"]):
        response.vary.add("Origin")
    allowed = _allowed_origin()
    if allowed is not None:
        response.headers["Access-Control-Allow-Origin"] = allowed
        response.headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSED_HEADERS)
    return response


def init_cors(app: Flask) -> None:
    """Read the origins (config ``CORS_ORIGINS``, else the environment) and install the hooks.

    The preflight hook runs before every other ``before_request`` function, so that the
    authentication and body checks never see a preflight.
    """
    app.config["CORS_ORIGINS"] = parse_origins(
        app.config.get("CORS_ORIGINS", os.environ.get(ENV_VAR)))
    app.before_request_funcs.setdefault(None, []).insert(0, answer_preflight)
    app.after_request(add_cors_headers)
