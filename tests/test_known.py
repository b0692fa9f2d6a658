"""app.known: what a process may answer without a query, and when it must forget it."""
from __future__ import annotations

from app.known import FRESH_SECONDS, Known


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


def test_nothing_is_known_before_the_listener_is_up() -> None:
    known = Known()
    known.heard("m1", 3)
    known.learn(known.generation, "m1", 3, "p1", 0, "h1")
    assert known.version("m1") is None and known.player("h1") is None


def test_heard_versions_and_reads_are_known_and_never_go_back() -> None:
    known, _ = live()
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
    known.heard("m1", 2)
    known.listening(False)  # the connection dropped: notifications may be lost
    assert known.version("m1") is None
    known.listening(True)
    assert known.version("m1") is None  # nothing survives a reconnect
    known.learn(before, "m1", 2, "p1", 0, "h1")
    assert known.version("m1") is None and known.player("h1") is None
    known.learn(known.generation, "m1", 3, "p1", 0, "h1")
    assert known.version("m1") == 3


def test_facts_expire() -> None:
    known, clock = live()
    known.learn(known.generation, "m1", 3, "p1", 0, "h1")
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
