"""One rendering of each (match, version, seat), shared by every request that asks for it
(the current version itself: app/live/current.py).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from app.db.models import Match
from app.infra.encoding import json_bytes
from app.play.rendering import match_view, seat_number


Key = tuple[str, int, "int | None"]
"""(match id, version, seat): what a view body depends on (the ETag promises as much)."""


def rendered(match: Match, player_id: str | None) -> tuple[Key, bytes]:
    """The key and the JSON body of `match`'s view for `player_id`: what a rendering shared
    by :class:`Renderings` holds."""
    seat = seat_number(match, player_id)
    return (match.id, match.version, seat), json_bytes(match_view(match, seat))


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Renderings(Generic[K, V]):
    """The last few rendered view bodies by (match, version, seat), shared by the requests
    of this process (a change wakes many long polls of one match at once): concurrent
    requests for one key render it once, the others wait for that body. (Generic: the
    streams share their frames the same way, app/play/streams.py.)"""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._bodies: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._rendering: dict[K, threading.Lock] = {}

    def _known(self, key: K) -> V | None:
        with self._lock:
            body = self._bodies.get(key)
            if body is not None:
                self._bodies.move_to_end(key)
            return body

    def get(self, key: K, render: Callable[[], tuple[K, V]]) -> tuple[K, V]:
        """The body of `key`, or what `render` gives: it loads the match, which may have
        moved on, so it returns the key it rendered (stored under that key)."""
        body = self._known(key)
        if body is not None:
            return key, body
        with self._lock:
            busy = self._rendering.setdefault(key, threading.Lock())
        try:
            with busy:  # a second request for this key waits for the first one's body
                body = self._known(key)
                if body is not None:
                    return key, body
                done, body = render()
                with self._lock:
                    self._bodies[done] = body
                    while len(self._bodies) > self._size:
                        self._bodies.popitem(last=False)
                return done, body
        finally:
            with self._lock:
                self._rendering.pop(key, None)


renderings: Renderings[Key, bytes] = Renderings()
"""This process's shared renderings."""
