"""Request bodies are read whole, first, within a deadline.

A ``before_request`` hook reads the body (``Content-Length`` or chunked) before any view or
parser does, so that:

- a body that arrives too slowly is 408 ``request_timeout`` after ``BODY_TIMEOUT`` seconds
  in all (under gevent; a client trickling a byte at a time cannot hold the connection);
- a malformed chunked body (bad chunk size, missing terminator) is 400 ``bad_request``, and a
  client that disconnects mid-body gets 400 too, instead of a 500 from deep inside a parser;
- a body over ``MAX_CONTENT_LENGTH`` is 413 ``payload_too_large`` whether or not it declared
  its length (werkzeug cuts a chunked body at the limit silently).

The bytes read are put back as a plain ``Content-Length`` body for the rest of the request.
"""
from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import Any

from flask import Flask, current_app, request

from app.infra.problems import ApiError

_CHUNK = 16 * 1024


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise ``TimeoutError`` when the block outlasts ``seconds`` (only under gevent, where a
    blocked read yields to the hub; elsewhere the block runs unbounded)."""
    try:
        from gevent import Timeout
        from gevent.monkey import is_module_patched
    except ImportError:  # pragma: no cover - gevent is a requirement
        yield
        return
    if not seconds or not is_module_patched("socket"):
        yield
        return
    with Timeout(seconds, TimeoutError):
        yield


def _client_error(exc: BaseException) -> bool:
    """Whether ``exc``, raised by the server's input stream, is the client's fault."""
    try:
        from gunicorn.http.errors import NoMoreData, ParseException
    except ImportError:  # pragma: no cover - gunicorn is a requirement
        return False
    return isinstance(exc, ParseException | NoMoreData)


def _declared_length() -> int | None:
    try:
        return int(request.environ.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None


def _chunked() -> bool:
    return "chunked" in request.environ.get("HTTP_TRANSFER_ENCODING", "").lower()


JSON_TYPES = frozenset({"application/json", "application/json;charset=utf-8"})


def plain_json_length(environ: dict[str, Any], limit: int | None) -> int | None:
    """The length of a body the fast path may read as it is: declared JSON, a
    `Content-Length` within `limit` (no chunked body); None for any other, which Flask's
    hooks read and check (413, 415, a chunked body)."""
    content_type = environ.get("CONTENT_TYPE", "").replace(" ", "").lower()
    length = environ.get("CONTENT_LENGTH", "")
    if ("HTTP_TRANSFER_ENCODING" in environ or content_type not in JSON_TYPES
            or not length.isdigit() or not 0 < int(length) <= (limit or 1 << 30)):
        return None
    return int(length)


def read_within(stream: Any, want: int, timeout: float) -> bytes:
    """Up to `want` bytes of `stream` (fewer if it ends first), within `timeout` seconds in
    all: 408 ``request_timeout`` when they do not arrive in time, 400 ``bad_request`` when
    the client's stream is malformed or breaks off."""
    parts: list[bytes] = []
    got = 0
    try:
        with _deadline(timeout):
            while got < want:
                part = stream.read(min(_CHUNK, want - got))
                if not part:
                    break
                parts.append(part)
                got += len(part)
    except TimeoutError:
        raise ApiError(408, "request_timeout",
                       "The request body did not arrive in time.") from None
    except Exception as exc:
        if not _client_error(exc):
            raise
        raise ApiError(400, "bad_request", f"The request body is malformed: {exc}.") from None
    return b"".join(parts)


def read_body() -> None:
    """``before_request``: read the whole body within the deadline, or answer 400/408/413."""
    environ = request.environ
    length = _declared_length()
    if not _chunked() and not length:
        return
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 1 << 30
    if length is not None and length > limit:
        return  # werkzeug answers 413 before reading anything
    want = limit + 1 if length is None else length
    body = read_within(environ["wsgi.input"], want, current_app.config.get("BODY_TIMEOUT", 0))
    got = len(body)
    if got > limit:
        raise ApiError(413, "payload_too_large",
                       f"The request body is larger than {limit} bytes.")
    if length is not None and got < length:
        raise ApiError(400, "bad_request", "The request body is shorter than its Content-Length.")
    environ["wsgi.input"] = io.BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    environ["wsgi.input_terminated"] = False


def init_app(app: Flask) -> None:
    """Install :func:`read_body` (before the other ``before_request`` hooks)."""
    app.before_request_funcs.setdefault(None, []).insert(0, read_body)
