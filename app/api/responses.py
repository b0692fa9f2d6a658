"""Small helpers shared by the API blueprints."""
from __future__ import annotations

from typing import Any

from flask import Response, current_app

from app.models import Match
from app.rendering import etag, match_view


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    response = current_app.response_class(current_app.json.dumps(body) + "\n", status=status,
                                          mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def view_response(match: Match, seat: int | None, status: int = 200,
                  headers: dict[str, str] | None = None) -> Response:
    """The match as `seat` sees it, with its ETag; never cached by shared caches."""
    all_headers = {"ETag": etag(match, seat), "Cache-Control": "private, no-cache",
                   **(headers or {})}
    return json_response(match_view(match, seat), status, all_headers)


def not_modified(tag: str) -> Response:
    response = current_app.response_class(status=304)
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "private, no-cache"
    return response
