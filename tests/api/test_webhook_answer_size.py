"""What a receiver sends back is read within MAX_READ_BYTES in all (docs/correspondence.md,
"What the server will call"): status lines, headers, interim answers and chunk framing count,
not only the body. Before, a 204 with megabytes of headers, an endless run of `100 Continue`
answers or chunks padded with extensions were read whole until the deadline, and the first
was recorded `delivered`."""
from __future__ import annotations

import socket
import time
from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from app.webhooks import outbound
from tests.support.webhook_receiver import one_answer


def answering(parts: Iterable[bytes]) -> Any:
    """A server that reads one request and sends `parts` (until the client hangs up); a
    context manager giving its URL."""
    def send(conn: socket.socket) -> None:
        for part in parts:
            conn.sendall(part)

    return one_answer(send)


def _many(part: bytes, times: int) -> Iterator[bytes]:
    yield from (part for _ in range(times))


def header_flood() -> Iterator[bytes]:
    yield b"HTTP/1.1 204 No Content\r\n"
    # (under http.client's own limits: 100 headers, 64 KiB a line)
    yield from _many(b"X-Pad: " + b"y" * 60_000 + b"\r\n", 90)
    yield b"\r\n"


def interim_flood() -> Iterator[bytes]:
    yield from _many(b"HTTP/1.1 100 Continue\r\n\r\n", 100_000)


def padded_chunks() -> Iterator[bytes]:
    yield b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    yield from _many(b"1;pad=" + b"z" * 1000 + b"\r\nx\r\n", 5000)
    yield b"0\r\n\r\n"


@pytest.mark.parametrize("answer", [header_flood, interim_flood, padded_chunks])
def test_an_answer_past_the_cap_is_a_failure_at_once(answer: Any) -> None:
    with answering(answer()) as url:
        began = time.monotonic()
        with pytest.raises(outbound.OutboundError, match="AnswerTooLarge"):
            outbound.post(url, b"{}", {}, allow_http=True, allow_private=True)
        assert time.monotonic() - began < outbound.TOTAL_TIMEOUT / 2


def big_body() -> Iterator[bytes]:
    yield b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n"
    yield from _many(b"a" * 1000, 1000)


def big_chunked_body() -> Iterator[bytes]:
    yield b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    yield from _many(b"3e8\r\n" + b"b" * 1000 + b"\r\n", 1000)
    yield b"0\r\n\r\n"


@pytest.mark.parametrize("answer, byte", [(big_body, b"a"), (big_chunked_body, b"b")])
def test_a_long_body_is_still_an_answer_cut_to_its_first_bytes(answer: Any,
                                                               byte: bytes) -> None:
    """Only MAX_ANSWER_BYTES of a body are read: a receiver that answers with a large page
    (an error page, say) is not failed for it."""
    with answering(answer()) as url:
        reply = outbound.post(url, b"{}", {}, allow_http=True, allow_private=True)
    assert reply.status == 200 and reply.body == byte * outbound.MAX_ANSWER_BYTES
