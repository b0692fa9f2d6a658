"""Flask responses of what the verbs answer (already-encoded bodies, problems apart)."""
from __future__ import annotations

from typing import Any

from flask import Response, current_app

from app.infra.encoding import json_bytes, tagged
from app.play.rendering import Answer


def body_response(data: bytes, status: int = 200,
                  headers: dict[str, str] | None = None) -> Response:
    """A response of an already-encoded JSON body."""
    response = current_app.response_class(data, status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return body_response(json_bytes(body), status, headers)


def answer_bytes(answer: Answer) -> bytes:
    """The body of what a service function answered, as sent (encoded once)."""
    return answer.encoded or json_bytes(answer.body)


def answer_response(answer: Answer, headers: dict[str, str] | None = None) -> Response:
    """What a service function answered (app/play/rendering.py: Answer), with `headers` added."""
    return body_response(answer_bytes(answer), answer.status,
                         {**answer.headers, **(headers or {})})


def untyped_when_empty(response: Response) -> Response:
    """``after_request``: a 204 or 304 has no body, so no ``Content-Type`` (Flask's default
    would label the empty answer ``text/html``). Registered before the security headers, so
    it runs after them: they read the type to pick a page's policy."""
    if response.status_code in (204, 304):
        del response.headers["Content-Type"]
    return response


def not_modified(tag: str | None, headers: dict[str, str] | None = None) -> Response:
    """A 304 with the ETag `tag`, or with none (`None`: a long poll whose wait ran out with
    nothing to send, as the event log's, which pages by `after`, not by ETag)."""
    response = current_app.response_class(status=304)
    if tag is not None:
        response.headers.extend(tagged(tag))
    response.headers.extend(headers or {})
    return response
