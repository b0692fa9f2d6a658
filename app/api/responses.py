"""Small helpers shared by the API blueprints."""
from __future__ import annotations

from typing import Any

import orjson
from flask import Response, current_app

from app.rendering import Answer, tagged


def json_bytes(body: Any) -> bytes:
    """`body` as the API sends JSON: keys sorted, compact, a final newline (as Flask's own
    encoder does, several times faster; non-ASCII characters stay UTF-8 rather than
    `\\u` escapes, the same JSON). Anything orjson refuses (an integer beyond 64 bits, a
    non-string key) goes through Flask's encoder."""
    try:
        return orjson.dumps(body, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        return (current_app.json.dumps(body) + "\n").encode()


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
    """What a service function answered (app/rendering.py: Answer), with `headers` added."""
    return body_response(answer_bytes(answer), answer.status,
                         {**answer.headers, **(headers or {})})


def not_modified(tag: str) -> Response:
    response = current_app.response_class(status=304)
    response.headers.extend(tagged(tag))
    return response
