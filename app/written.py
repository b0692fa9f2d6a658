"""The matches this process has just written, kept a moment so that a view of that version
renders without reading the match back.

After an action, the next request is most often a view of the version it made (the other
players' turn, or a long poll woken by it). The version to show is still read in the
database (app/conditional.py: a view is always rendered from a version read); only when that
version is one this process wrote itself is the match taken from here instead of read again.
A kept match is never changed afterwards (the action that made it is over), and everything a
view shows changes only with the version, so the body is the same as from a read (a test
compares them byte for byte).
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from app.models import Match

KEPT = 256
"""Matches kept (the latest written): a moment's worth of actions of one process."""


class Written:
    """The last :data:`KEPT` matches written by this process, by (id, version)."""

    def __init__(self, size: int = KEPT) -> None:
        self._size = size
        self._matches: OrderedDict[tuple[str, int], Match] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, match: Match) -> None:
        """Keep `match` as committed (the caller changes it no more)."""
        with self._lock:
            self._matches[(match.id, match.version)] = match
            while len(self._matches) > self._size:
                self._matches.popitem(last=False)

    def get(self, match_id: str, version: int) -> Match | None:
        """Version `version` of `match_id` when this process wrote it lately, else None."""
        with self._lock:
            return self._matches.get((match_id, version))


written = Written()
"""This process's recently written matches."""
