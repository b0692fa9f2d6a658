"""The view verb, `GET /v1/matches/{id}` as every front calls it: a 304 when the caller's tag
names the current version, a long poll that waits for a change from it, else the shared
rendering of the version read. Each front says how it reads, watches and waits (a
:class:`Reader`); none decides anything of its own.

A body always shows a version read, never one only heard of (which may lag a change the
caller made through another process), except after a long poll woken by a change: it shows
the version heard since it began, newer than the caller's. What cannot be told cheaply (an
unknown match or token, a database failure, a rendering that failed) is None: the front's
full path then answers, 401, 404 or 503 included.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from app.db.models import Match
from app.infra.encoding import etag_matches, etag_of
from app.live.current import Current
from app.play import conditional


class Reader(Protocol):
    """How a front learns what the caller would see now (token hash `digest`, None: none)."""

    def heard(self, match_id: str, digest: str | None) -> Current | None:
        """What the process has heard, without a query (None: not enough)."""

    def read(self, match_id: str, digest: str | None) -> Current | None:
        """One query (None: an unknown match or token, or the database failed)."""

    def watch(self, match_id: str, wait: int) -> bool:
        """Have the match's actions notified for `wait` seconds (False: the database failed).
        With `wait` 0 it comes before a read, only so that later polls need no query: a
        reader may skip it."""

    def wait(self, match_id: str, changed: Callable[[], Current | None],
             wait: int) -> Current | None:
        """Hold one of the caller's poll slots and wait until `changed` gives something or
        `wait` seconds pass (None)."""

    def load(self, match_id: str, version: int) -> Match | None:
        """The match to render, at `version` or later (None: the database failed)."""

    def rendered(self, match: Match, player_id: str | None) -> tuple[conditional.Key, bytes]:
        """:func:`app.play.conditional.rendered`, in the context the front renders in."""


class Declined(Exception):
    """Raised by a front's reader for a request its front leaves to another (the full path)."""


@dataclass(frozen=True)
class Viewed:
    """A view's answer: 304 (no body) or 200, and the ETag it names."""

    status: int
    tag: str
    body: bytes = b""


def view(reader: Reader, match_id: str, digest: str | None, seen: str | None,
         wait: int) -> Viewed | None:
    """The caller's answer to a view of `match_id` with If-None-Match `seen` and `?wait`."""
    now = None
    if seen:
        heard = reader.heard(match_id, digest)
        if heard is None:
            # what the process hears of a match is trusted once it is watched
            # (app/live/watches.py): watch it, so that the next polls need no query, then read
            if not reader.watch(match_id, 0):
                return None
            now = reader.read(match_id, digest)
            if now is None:
                return None
            heard = now
        if etag_matches(seen, heard.etag):
            if not wait:
                return Viewed(304, heard.etag)
            return _long_poll(reader, heard, digest, seen, wait)
    now = now or reader.read(match_id, digest)
    return None if now is None else rendering(reader, now, seen)


def _long_poll(reader: Reader, heard: Current, digest: str | None, seen: str,
               wait: int) -> Viewed | None:
    """Wait for a change from the version `seen` names (heard as `heard`)."""
    match_id = heard.match_id

    def changed() -> Current | None:
        now = reader.heard(match_id, digest) or reader.read(match_id, digest)
        return None if now is None or etag_matches(seen, now.etag) else now

    if not reader.watch(match_id, wait):  # (actions on it must wake this wait)
        return None
    now = reader.wait(match_id, changed, wait)
    if now is None:  # the wait ran out (or the process stops): nothing changed
        return Viewed(304, heard.etag)
    return rendering(reader, now, seen)


def rendering(reader: Reader, now: Current, seen: str | None) -> Viewed | None:
    """The shared rendering of `now` (rendered once per process and key), or a 304 when
    the version rendered (the match may have moved on meanwhile) is the one `seen` names."""
    def render() -> tuple[conditional.Key, bytes]:
        match = reader.load(now.match_id, now.version)
        if match is None:
            raise LookupError(now.match_id)
        return reader.rendered(match, now.player_id)

    try:
        (match_id, version, seat), body = conditional.renderings.get(
            (now.match_id, now.version, now.seat), render)
    except LookupError:
        return None
    return _answered(etag_of(match_id, version, seat), body, seen)


def full_view(match: Match, player_id: str | None, seen: str | None) -> Viewed:
    """The caller's view of a match read whole (the full path's: not shared)."""
    (match_id, version, seat), body = conditional.rendered(match, player_id)
    return _answered(etag_of(match_id, version, seat), body, seen)


def _answered(tag: str, body: bytes, seen: str | None) -> Viewed:
    """304 when `seen` names `tag`, else the body."""
    if seen and etag_matches(seen, tag):
        return Viewed(304, tag)
    return Viewed(200, tag, body)
