"""What this process knows without asking the database: the current version of matches,
callers' seats and tokens, so that a 304, a long poll's re-check and a view whose rendering is
shared cost no query.

Every fact comes from the process's LISTEN connection (:mod:`app.live.hub`) or from a read made
while it listened, and is trusted only while that connection stays up (a drop forgets
everything: `generation`). A version is never lowered, every fact expires after FRESH_SECONDS,
and a match's version is trusted only while the watch a read found lasts (less
WATCH_MARGIN_SECONDS). A version this process has not heard of is never answered from here.
What it promises: docs/performance.md.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import NamedTuple

FRESH_SECONDS = 10.0
"""How long a fact learned here is used before it is read again."""
WATCH_MARGIN_SECONDS = 5.0
"""A watch read as lasting S more seconds is trusted for S less this (the read took time,
and an action's check of the watch follows its commit by a moment)."""
MAX_ENTRIES = 200_000
"""Beyond this many facts of one kind, all of that kind are forgotten (a bound on memory)."""


class Seen(NamedTuple):
    """A caller's seat (None: spectator) in a match, read at `version`."""

    version: int
    seat: int | None
    settled: bool = False
    """Read once the match had started: the seats hold, at every later version."""


class Known:
    """The facts of one process; safe to share between its threads (or greenlets)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._live = False
        self.generation = 0
        """Changes whenever the listener connects or drops, or a token is replaced; a read
        tagged with an older one teaches nothing."""
        self._versions: dict[str, tuple[int, float]] = {}
        self._watched: dict[str, float] = {}
        """Until when (this clock) each match's changes are sure to be notified."""
        self._seats: dict[tuple[str, str | None], tuple[Seen, float]] = {}
        self._tokens: dict[str, tuple[str, float]] = {}

    # ---- the listener's side -------------------------------------------------------------
    def listening(self, live: bool) -> None:
        """The LISTEN connection is (again) in place, or lost: start from nothing."""
        with self._lock:
            self._live = live
            self.generation += 1
            self._versions.clear()
            self._watched.clear()
            self._seats.clear()
            self._tokens.clear()

    def heard(self, match_id: str, version: int) -> None:
        """A committed change of `match_id` (a notification, or this process's own commit)."""
        with self._lock:
            if self._live:
                self._raise(match_id, version)

    def token_changed(self, player_id: str) -> None:
        """`player_id`'s token was replaced: forget the old one (and what reads in flight
        found, which may be the old token: a new generation)."""
        with self._lock:
            self.generation += 1
            for digest in [d for d, (p, _) in self._tokens.items() if p == player_id]:
                del self._tokens[digest]

    # ---- the readers' side ----------------------------------------------------------------
    def learn(self, generation: int, match_id: str, version: int,
              player_id: str | None, seat: int | None, token_hash: str | None,
              settled: bool = False, watched_seconds: float | None = None) -> None:
        """What a database read made during `generation` found (a read is current when it
        starts, so a notification heard since may already say more: versions never drop);
        `watched_seconds`: how long the match's watch it found lasts (None: none)."""
        with self._lock:
            if not self._live or generation != self.generation:
                return
            now = self._clock()
            self._raise(match_id, version)
            if watched_seconds is not None and watched_seconds > WATCH_MARGIN_SECONDS:
                if len(self._watched) >= MAX_ENTRIES:
                    self._watched.clear()
                until = now + watched_seconds - WATCH_MARGIN_SECONDS
                self._watched[match_id] = max(until, self._watched.get(match_id, until))
            if len(self._seats) >= MAX_ENTRIES:
                self._seats.clear()
            self._seats[(match_id, player_id)] = (Seen(version, seat, settled), now)
            if token_hash is not None and player_id is not None:
                self._remember_token(token_hash, player_id, now)

    def learn_token(self, generation: int, token_hash: str, player_id: str) -> None:
        """A token a database read made during `generation` found valid."""
        with self._lock:
            if self._live and generation == self.generation:
                self._remember_token(token_hash, player_id, self._clock())

    def _remember_token(self, token_hash: str, player_id: str, now: float) -> None:
        if len(self._tokens) >= MAX_ENTRIES:
            self._tokens.clear()
        self._tokens[token_hash] = (player_id, now)

    def version(self, match_id: str) -> int | None:
        """The current version of `match_id`, when known, fresh and watched (every change
        of it since is notified)."""
        found = self._versions.get(match_id)
        now = self._clock()
        if not self._live or found is None or now - found[1] > FRESH_SECONDS \
                or self._watched.get(match_id, 0.0) <= now:
            return None
        return found[0]

    def watched_for(self, match_id: str) -> float:
        """How many more seconds `match_id`'s changes are sure to be notified (0: unknown)."""
        return max(0.0, self._watched.get(match_id, 0.0) - self._clock()) if self._live \
            else 0.0

    def player(self, token_hash: str) -> str | None:
        """The player whose token hashes to `token_hash`, when known and fresh."""
        found = self._tokens.get(token_hash)
        if not self._live or found is None or self._clock() - found[1] > FRESH_SECONDS:
            return None
        return found[0]

    def seat(self, match_id: str, player_id: str | None, version: int) -> Seen | None:
        """The caller's seat at `version`: as read at that version (seats change only with
        the version), or at an earlier one once the match had started."""
        found = self._seats.get((match_id, player_id))
        if found is None:
            return None
        seen = found[0]
        if seen.version == version or (seen.settled and seen.version <= version):
            return seen
        return None

    def _raise(self, match_id: str, version: int) -> None:
        found = self._versions.get(match_id)
        if found is None or found[0] <= version:
            if found is None and len(self._versions) >= MAX_ENTRIES:
                self._versions.clear()
            self._versions[match_id] = (version, self._clock())
