"""app.live.known: what a process may answer without a query, and when it must forget it."""
from __future__ import annotations

from app.live.known import FRESH_SECONDS, WATCH_MARGIN_SECONDS, Known


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def live() -> tuple[Known, Clock]:
    clock = Clock()
    known = Known(clock)
    known.listening(True)
    return known, clock


def watched(known: Known, match_id: str, version: int = 1, seconds: float = 60.0) -> None:
    """A read that found `match_id` watched for `seconds` more (app/live/watches.py)."""
    known.learn(known.generation, match_id, version, None, None, None, watched_seconds=seconds)


def test_nothing_is_known_before_the_listener_is_up() -> None:
    known = Known()
    known.heard("m1", 3)
    known.learn(known.generation, "m1", 3, "p1", 0, "h1")
    assert known.version("m1") is None and known.player("h1") is None


def test_heard_versions_and_reads_are_known_and_never_go_back() -> None:
    known, _ = live()
    watched(known, "m1")
    known.heard("m1", 5)
    assert known.version("m1") == 5
    # a read that started before the notification of version 5 arrived found version 4
    known.learn(known.generation, "m1", 4, "p1", 1, "h1")
    assert known.version("m1") == 5
    assert known.seat("m1", "p1", 5) is None  # the seat was read at version 4 only
    assert known.seat("m1", "p1", 4).seat == 1
    known.learn(known.generation, "m1", 6, "p1", 1, "h1")
    assert known.version("m1") == 6 and known.seat("m1", "p1", 6).seat == 1
    assert known.player("h1") == "p1"


def test_a_read_from_before_a_reconnect_teaches_nothing() -> None:
    known, _ = live()
    before = known.generation
    watched(known, "m1")
    known.heard("m1", 2)
    known.listening(False)  # the connection dropped: notifications may be lost
    assert known.version("m1") is None
    known.listening(True)
    assert known.version("m1") is None  # nothing survives a reconnect
    known.learn(before, "m1", 2, "p1", 0, "h1", watched_seconds=60)
    assert known.version("m1") is None and known.player("h1") is None
    known.learn(known.generation, "m1", 3, "p1", 0, "h1", watched_seconds=60)
    assert known.version("m1") == 3


def test_facts_expire() -> None:
    known, clock = live()
    known.learn(known.generation, "m1", 3, "p1", 0, "h1", watched_seconds=60)
    clock.now += FRESH_SECONDS - 0.5
    assert known.version("m1") == 3 and known.player("h1") == "p1"
    clock.now += 1
    assert known.version("m1") is None and known.player("h1") is None


def test_a_replaced_token_is_forgotten_with_reads_in_flight() -> None:
    known, _ = live()
    known.learn(known.generation, "m1", 3, "p1", 0, "old")
    known.learn(known.generation, "m1", 3, "p2", 1, "other")
    in_flight = known.generation  # a read of the old token, started before the rotation
    known.token_changed("p1")
    assert known.player("old") is None and known.player("other") == "p2"
    known.learn(in_flight, "m1", 3, "p1", 0, "old")
    assert known.player("old") is None


def test_spectators_are_known_by_match_alone() -> None:
    known, _ = live()
    known.learn(known.generation, "m1", 7, None, None, None)
    seen = known.seat("m1", None, 7)
    assert seen is not None and seen.seat is None


def test_a_seat_read_after_the_start_holds_at_later_versions() -> None:
    known, _ = live()
    known.learn(known.generation, "m1", 3, "p1", 1, "h1")  # (waiting: seats may change)
    known.learn(known.generation, "m2", 3, "p1", 0, "h1", settled=True)
    known.heard("m1", 4)
    known.heard("m2", 4)
    assert known.seat("m1", "p1", 4) is None
    assert known.seat("m2", "p1", 4).seat == 0
    assert known.seat("m2", "p1", 2) is None  # (never before what was read)


def test_only_a_watched_match_is_trusted_and_only_while_its_watch_lasts() -> None:
    """Actions are notified only while their match is watched (app/live/watches.py): what was
    heard or read of a match is trusted only after a read that found it watched, until the
    watch ends (less a margin)."""
    known, clock = live()
    known.heard("m1", 4)
    known.learn(known.generation, "m1", 4, "p1", 0, "h1")  # (no watch found)
    assert known.version("m1") is None and known.watched_for("m1") == 0.0
    assert known.player("h1") == "p1"  # (tokens do not depend on it)
    known.learn(known.generation, "m1", 4, "p1", 0, "h1", watched_seconds=WATCH_MARGIN_SECONDS)
    assert known.version("m1") is None  # (no longer than the margin: not at all)
    watched(known, "m1", 4, seconds=WATCH_MARGIN_SECONDS + 8)
    assert known.version("m1") == 4 and known.watched_for("m1") == 8.0
    known.heard("m1", 5)
    clock.now += 7.5
    assert known.version("m1") == 5
    clock.now += 1
    assert known.version("m1") is None and known.watched_for("m1") == 0.0
    watched(known, "m1", 5, seconds=30)  # renewed: trusted again
    assert known.version("m1") == 5
    known.listening(False)
    known.listening(True)
    assert known.watched_for("m1") == 0.0  # (nothing survives a reconnect)
