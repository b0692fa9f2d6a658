"""Bad input to a production gunicorn is a 4xx problem+json, never a 500 or an HTML page."""
from __future__ import annotations

import pytest

from tests.support.rawhttp import Answer, exchange, post
from tests.support.servers import Server

PROBLEM = "application/problem+json"


def _problem(answer: Answer, status: int, code: str) -> dict:
    assert answer.status == status, answer
    assert answer.headers["content-type"] == PROBLEM, answer
    body = answer.json()
    assert body["status"] == status and body["code"] == code
    assert body["type"] == f"urn:truco:problem:{code}"
    return body


def _no_traceback(server: Server) -> None:
    text = server.log_text()
    assert "Traceback" not in text and "Unhandled error" not in text, text


def test_integer_of_5000_digits_is_422(prod_server: Server) -> None:
    body = b'{"name": "ana", "bot": ' + b"9" * 5000 + b"}"
    answer = exchange(prod_server.port, post("/v1/players", body))
    problem = _problem(answer, 422, "validation_error")
    assert "4300 digits" in problem["errors"]["_body"][0]
    _no_traceback(prod_server)


def test_chunked_body_with_a_bad_chunk_size_is_400(prod_server: Server) -> None:
    request = post("/v1/players", b"", "Transfer-Encoding: chunked").replace(
        b"Content-Length: 0\r\n", b"") + b"zz\r\nabc\r\n0\r\n\r\n"
    _problem(exchange(prod_server.port, request), 400, "bad_request")
    _no_traceback(prod_server)


def test_chunked_body_over_64_kib_is_413(prod_server: Server) -> None:
    body = b'{"name": "' + b"a" * 70_000 + b'"}'
    answer = exchange(prod_server.port, post("/v1/players", body, chunked=True))
    _problem(answer, 413, "payload_too_large")


def test_small_chunked_body_is_still_accepted(prod_server: Server) -> None:
    answer = exchange(prod_server.port, post("/v1/players", b'{"name": "ana"}', chunked=True))
    assert answer.status == 201, answer
    assert answer.json()["name"] == "ana"


@pytest.mark.parametrize(("request_bytes", "status", "code"), [
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414, "uri_too_long"),
    (b"GET / HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-H%d: y\r\n" % i for i in range(200))
     + b"\r\n", 431, "headers_too_large"),
    (b"GE\x01T / HTTP/1.1\r\nHost: t\r\n\r\n", 400, "bad_request"),
])
def test_gunicorn_rejections_are_problem_json(
        prod_server: Server, request_bytes: bytes, status: int, code: str) -> None:
    _problem(exchange(prod_server.port, request_bytes), status, code)
