"""A Server-Sent Events client for the stream tests: messages read in a thread, in order."""
from __future__ import annotations

import json
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any

import requests


@dataclass
class Message:
    """One SSE message (`comment` set for a comment line)."""

    event: str = "message"
    data: str = ""
    id: str | None = None
    comment: str | None = None
    at: float = 0.0

    def json(self) -> Any:
        return json.loads(self.data)


class Stream:
    """`GET url` as an event stream; `next()` gives each message as it arrives, `ended`
    is set when the server closed the answer cleanly (`error` when it broke)."""

    def __init__(self, url: str, headers: dict[str, str] | None = None,
                 timeout: float = 30) -> None:
        self.response = requests.get(url, headers={"Accept": "text/event-stream",
                                                   **(headers or {})},
                                     stream=True, timeout=timeout)
        self.status = self.response.status_code
        self.messages: queue.Queue[Message] = queue.Queue()
        self.ended = threading.Event()
        self.error: BaseException | None = None
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        current = Message()
        try:
            for raw in self.response.iter_lines(chunk_size=1, decode_unicode=True):
                line = raw if isinstance(raw, str) else raw.decode()
                if line == "":
                    if current.data or current.event != "message" or current.id:
                        current.at = time.monotonic()
                        self.messages.put(current)
                    current = Message()
                elif line.startswith(":"):
                    self.messages.put(Message(comment=line[1:].strip(), at=time.monotonic()))
                else:
                    name, _, value = line.partition(":")
                    value = value.removeprefix(" ")
                    if name == "event":
                        current.event = value
                    elif name == "data":
                        current.data = value if not current.data else current.data + "\n" + value
                    elif name == "id":
                        current.id = value
            self.ended.set()
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            self.error = exc

    def next(self, timeout: float = 10, comments: bool = False) -> Message:
        """The next message (comment lines skipped unless `comments`)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "no message in time"
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                raise AssertionError(f"no message within {timeout}s") from None
            if message.comment is None or comments:
                return message

    def until_view(self, timeout: float = 10) -> tuple[list[Message], Message]:
        """The event messages up to the next view, and that view."""
        events: list[Message] = []
        while True:
            message = self.next(timeout)
            if message.event == "view":
                return events, message
            events.append(message)

    def close(self) -> None:
        self.response.close()
