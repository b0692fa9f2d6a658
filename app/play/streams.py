"""Server-Sent Events: a match's events and views, and a player's inbox, as they change.

A stream is a long poll that goes on: between changes it sleeps on the process's hub
(app/live/hub.py) without a database connection, keeps the matches it follows watched
(app/live/watches.py) for as long as it is held, sends a comment line every `heartbeat` seconds,
and ends at once when the process stops (app/infra/shutdown.py). The route holds one of the
caller's long-poll slots (app/live/pollcap.py) from its first byte to its last.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Flask
from sqlalchemy import func, select

from app.live.current import Current, current_for
from app.play import conditional
from app.play import inbox
from app.play.players import still_theirs
from app.infra import shutdown
from app.live import watches
from app.db.hot_sql import read_match
from app.infra.encoding import json_bytes
from app.infra.problems import ApiError
from app.db.extensions import db
from app.play.store import get_match
from app.db.models import Event, Match, Player
from app.play.rendering import event_json
from app.live.hub import hub
from app.live.recent import recent

KEEPALIVE = b": keepalive\n\n"
INBOX_QUERY: dict[str, Any] = {"your_turn": True, "offset": 0, "limit": 50}
"""What `GET /v1/me/matches?your_turn=true` reads by default: the body of an inbox event."""


def frame(event: str, body: Any, seq: int | None = None) -> bytes:
    """One SSE message: `id:` (when `seq` is given), `event:` and the body as one line of
    JSON in `data:`."""
    head = b"" if seq is None else b"id: %d\n" % seq
    return head + b"event: " + event.encode() + b"\ndata: " + json_bytes(body).rstrip(b"\n") \
        + b"\n\n"


_watched_until: dict[str, float] = {}
"""Until when (monotonic) a watch this process committed covers each match: the streams of
a process on one match renew one watch between them."""
_watched_lock = threading.Lock()


def keep_watched(match_ids: Iterable[str], heartbeat: float) -> None:
    """Make sure the actions on `match_ids` are notified for at least two more heartbeats:
    each match is watched again (for a heartbeat and :data:`watches.SECONDS`) once less than
    a heartbeat and half of that is left of the last watch this process committed."""
    now = time.monotonic()
    with _watched_lock:
        due = [m for m in match_ids
               if _watched_until.get(m, 0.0) - now < heartbeat + watches.SECONDS / 2]
    if due:
        watches.watch(due, heartbeat + watches.SECONDS)
        with _watched_lock:
            if len(_watched_until) > 100_000:
                _watched_until.clear()
            for match_id in due:
                _watched_until[match_id] = now + heartbeat + watches.SECONDS


@dataclass(frozen=True)
class Holding:
    """How a stream is held: the app whose context its checks run in (a stream outlives
    its request's context), its heartbeat, when it ends (a client reconnects with
    Last-Event-ID), and the WSGI environ whose socket tells when the client has gone."""

    app: Flask
    heartbeat: float
    until: float
    environ: dict[str, Any]


def next_frames(keys: list[str], check: Callable[[], list[bytes] | None],
                holding: Holding) -> bytes | None:
    """The frames `check` finds next, or a keepalive comment after `heartbeat` seconds;
    None once the client has gone, `check` refuses (an ApiError: a token replaced
    meanwhile), the stream's time is up or the process stops. No database connection is
    held while it waits, nor when it returns."""
    left = holding.until - time.monotonic()
    if left <= 0 or shutdown.closing():
        return None
    try:
        frames = hub().wait_for(keys, check, min(holding.heartbeat, left), holding.environ,
                                before_sleep=db.session.remove)
    except ApiError:  # the client has gone, or the caller's token with it
        return None
    finally:
        db.session.remove()
    return b"".join(frames) if frames else KEEPALIVE


ChangeKey = tuple[str, "int | None", "int | None", int]
"""(match id, the last event's seq a stream has sent (None: a new stream), its seat, the
version it is to be brought to): what the frames of a change depend on."""
Change = tuple[int, bytes]
"""The seq of the last event in the frames, and the frames (the events, then the view)."""

shared_changes: conditional.Renderings[ChangeKey, Change] = conditional.Renderings()
"""This process's frames of changes: the streams of one match and seat woken by one change
make them once."""


class MatchFollower:
    """What a stream of one match has sent: the last event's `seq` and the view's version;
    `changes` gives the frames of whatever came since."""

    def __init__(self, match_id: str, after: int | None, token_hash: str | None) -> None:
        self.match_id = match_id
        self.after = after
        self.token_hash = token_hash
        self.version: int | None = None

    def changes(self) -> list[bytes] | None:
        """The events after `after` up to the current version, then the view at that
        version (nothing when the caller has seen that version)."""
        # (a version heard of is enough here: its notification came after its commit, and
        # the view is rendered from the match as read, newer or not)
        now = current_for(self.match_id, self.token_hash)
        if now is None:
            raise ApiError(404, "match_not_found", f"no match {self.match_id}")
        if self.version is not None and now.version <= self.version:
            return None
        (_, _, _, version), (after, frames) = shared_changes.get(
            (self.match_id, self.after, now.seat, now.version), lambda: self._make(now))
        if self.version is not None and version <= self.version:
            return None
        self.after, self.version = after, version
        return [frames]

    def _make(self, now: Current) -> tuple[ChangeKey, Change]:
        (_, version, seat), body = conditional.renderings.get(
            (self.match_id, now.version, now.seat), lambda: self._render(now))
        status = db.session.execute(
            select(Match.status).where(Match.id == self.match_id)).scalar_one()
        older = (Event.match_id == self.match_id, Event.version <= version)
        after = self.after
        if after is None:  # a new stream: from the view on
            after = db.session.execute(
                select(func.coalesce(func.max(Event.seq), 0)).where(*older)).scalar_one()
        rows = db.session.execute(select(Event).where(*older, Event.seq > after)
                                  .order_by(Event.seq)).scalars().all()
        events = b"".join(frame("event", event_json(e, seat, status == "finished"), e.seq)
                          for e in rows)
        view = b"event: view\ndata: " + body.rstrip(b"\n") + b"\n\n"
        last = rows[-1].seq if rows else after
        return (self.match_id, self.after, seat, version), (last, events + view)

    def _render(self, now: Current) -> tuple[conditional.Key, bytes]:
        match = recent.get(self.match_id, now.version) or read_match(self.match_id) \
            or get_match(self.match_id)
        return conditional.rendered(match, now.player_id)


def held(keys: list[str], check: Callable[[], list[bytes] | None],
         holding: Holding) -> Iterator[bytes]:
    """A stream: `retry:` and what `check` finds at once, then what it finds after each
    wake-up (or a keepalive comment), in an app context of its own, until
    :func:`next_frames` says it is over."""
    with holding.app.app_context():
        try:
            first = check()
        except ApiError:  # (the caller's token replaced since the request was checked)
            return
        finally:
            db.session.remove()
        chunk: bytes | None = b"retry: 2000\n\n" + b"".join(first or ())
        del first
        while chunk is not None:
            yield chunk
            chunk = None  # (nothing sent is kept while the stream sleeps)
            chunk = next_frames(keys, check, holding)


def match_frames(match_id: str, after: int | None, token_hash: str | None,
                 holding: Holding) -> Iterator[bytes]:
    """A match's stream for the caller whose token hashes to `token_hash` (None: a
    spectator without one): its view at once (after the events since `after`, when
    given), then each change's events and view."""
    follower = MatchFollower(match_id, after, token_hash)

    def check() -> list[bytes] | None:
        keep_watched([match_id], holding.heartbeat)  # (committed before the read)
        return follower.changes()

    return held([match_id], check, holding)


def inbox_frames(player: Player, token_hash: str, holding: Holding) -> Iterator[bytes]:
    """A player's inbox stream (opened with the token that hashes to `token_hash`): the
    matches that wait for them at once, and again whenever that list changes; it ends once
    that token is replaced."""
    sent: list[str] = []

    def check() -> list[bytes] | None:
        still_theirs(player.id, token_hash)
        keep_watched(inbox.open_matches(player), holding.heartbeat)  # (a match joined
        listed = inbox.page(player, INBOX_QUERY)  # later: its join wakes this stream)
        tag = inbox.list_tag(listed)
        if sent and sent[-1] == tag:
            return None
        sent[:] = [tag]
        return [frame("inbox", listed)]

    return held([player.id], check, holding)
