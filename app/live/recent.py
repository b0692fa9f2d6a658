"""The matches this process has just written, by (id, version), kept a moment so that a view
of that version renders without reading the match back, and the next action on it can be tried
without reading it first.

The version to show is still read in the database (app/live/current.py); only when it is one
this process wrote is the match taken from here. A kept match never changes, and a view of it
is byte for byte a view of the match read. An action applied to the newest kept version is
written only if the match is still at that version (app/db/hot_sql.py: `write_if_current`).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple

from app.db.models import Match
from app.db.writes import Endpoint

SIZE = 256
"""Matches kept (the latest written): a moment's worth of actions of one process."""


class Recent(NamedTuple):
    """A match as this process committed it, and the active webhook endpoints of its players
    as its write found them."""

    match: Match
    endpoints: tuple[Endpoint, ...]


class RecentMatches:
    """The last :data:`SIZE` matches written by this process, by (id, version)."""

    def __init__(self, size: int = SIZE) -> None:
        self._size = size
        self._matches: OrderedDict[tuple[str, int], Recent] = OrderedDict()
        self._newest: dict[str, int] = {}
        self._lock = threading.Lock()

    def remember(self, match: Match, endpoints: list[Endpoint] | tuple[Endpoint, ...] = ()) -> None:
        """Keep `match` as committed (the caller changes it no more)."""
        with self._lock:
            self._matches[(match.id, match.version)] = Recent(match, tuple(endpoints))
            if match.version > self._newest.get(match.id, 0):
                self._newest[match.id] = match.version
            while len(self._matches) > self._size:
                (match_id, version), _ = self._matches.popitem(last=False)
                if self._newest.get(match_id) == version:
                    del self._newest[match_id]

    def clear(self) -> None:
        """Forget every match kept (the next action on each is read first)."""
        with self._lock:
            self._matches.clear()
            self._newest.clear()

    def get(self, match_id: str, version: int) -> Match | None:
        """Version `version` of `match_id` when this process wrote it lately, else None."""
        with self._lock:
            found = self._matches.get((match_id, version))
        return None if found is None else found.match

    def newest(self, match_id: str) -> Recent | None:
        """The newest version of `match_id` this process wrote lately (not necessarily the
        match's current version: another process may have written since), else None."""
        with self._lock:
            version = self._newest.get(match_id)
            return None if version is None else self._matches.get((match_id, version))


recent = RecentMatches()
"""This process's recently written matches."""
