"""An attempt whose answer is not complete when its time is up has failed
(docs/correspondence.md, "Retries": one time limit, "from the first connect to the last
byte"; a timeout is a failure). The total deadline shut the socket and the answer read so
far was taken as complete: a receiver that sent `HTTP/1.1 204` and then hung in its headers
(or a 200 whose declared body never came) was recorded `delivered`, never retried."""
from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.support.webhook_receiver import one_answer


@contextmanager
def stalling(first: bytes, trickle: bytes) -> Iterator[str]:
    """A server that reads the request, sends `first`, then one byte of `trickle` every
    0.1 s (never silent long enough for a read timeout); its URL."""
    done = threading.Event()

    def send(conn: socket.socket) -> None:
        conn.sendall(first)
        for byte in trickle:
            if done.wait(0.1):
                return
            conn.sendall(bytes([byte]))

    with one_answer(send) as url:
        try:
            yield url
        finally:
            done.set()


@pytest.fixture()
def short(monkeypatch: Any) -> Any:
    from app.webhooks import outbound

    monkeypatch.setattr(outbound, "TOTAL_TIMEOUT", 1.0)
    monkeypatch.setattr(outbound, "READ_TIMEOUT", 0.5)
    return outbound


@pytest.mark.parametrize("first, trickle", [
    (b"HTTP/1.1 204 No Content\r\n", b"X-Pad: " + b"y" * 100),         # headers never end
    (b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", b"x" * 100),   # the body never ends
], ids=["headers", "body"])
def test_an_answer_cut_by_the_deadline_is_a_failure(short: Any, first: bytes,
                                                    trickle: bytes) -> None:
    with stalling(first, trickle) as url:
        began = time.monotonic()
        with pytest.raises(short.OutboundError, match="no complete answer"):
            short.post(url, b"{}", {}, allow_http=True, allow_private=True)
        assert time.monotonic() - began < 3


def test_a_complete_answer_in_time_is_still_an_answer(short: Any) -> None:
    with stalling(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n", b"") as url:
        reply = short.post(url, b"{}", {}, allow_http=True, allow_private=True)
    assert reply.status == 204
