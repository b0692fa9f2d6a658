"""Turn deadlines: `turn_timeout` gives the seats to act a deadline; the worker times out a
seat whose deadline passed (auto-play by the `easy` bot, or forfeit; the third in a row is a
forfeit). The worker runs here with a clock the test controls: no test sleeps."""
from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from tests.support.api import (F1, act_ok, assert_problem, backend_gone, create, db_rows,
                               db_scalar, deal, full_match, get_events, get_view, join,
                               register, run_worker)

TIMEOUT = 600
SETUP = {"options": {"first_dealer": 3}, "deals": [deal(F1)], "turn_timeout": TIMEOUT}
SETUP2 = {"options": {"first_dealer": 1}, "turn_timeout": TIMEOUT}
"""Two players: seat 0 leads."""


def _parse(moment: str) -> datetime:
    return datetime.fromisoformat(moment.replace("Z", "+00:00"))


def _later(view: dict[str, Any], seconds: float = 1) -> datetime:
    """A moment just past the view's deadline."""
    return _parse(view["deadline"]) + timedelta(seconds=seconds)


def test_the_seats_to_act_get_a_deadline(client: Any) -> None:
    before = datetime.now(timezone.utc)
    match_id, seated = full_match(client, players=4, **SETUP)
    view = get_view(client, match_id, seated[0])
    assert view["turn_timeout"] == TIMEOUT and view["on_timeout"] == "auto_play"
    deadline = _parse(view["deadline"])
    assert before + timedelta(seconds=TIMEOUT) <= deadline
    assert deadline <= datetime.now(timezone.utc) + timedelta(seconds=TIMEOUT)
    (event,) = [e for e in get_events(client, match_id, seated[0]) if e["type"] == "deadline_set"]
    assert event["seats"] == view["hand"]["to_act"] and _parse(event["deadline"]) == deadline
    (item,) = client.get("/v1/me/matches", headers=seated[0].headers).json["items"]
    assert item["deadline"] == view["deadline"]
    # the next seat to act gets a new deadline
    first = view["hand"]["to_act"][0]
    after = act_ok(client, match_id, seated[first], {"type": "raise"})
    assert after["hand"]["to_act"] != [first]
    assert _parse(after["deadline"]) >= deadline


def test_without_turn_timeout_there_is_no_deadline(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=2)
    view = get_view(client, match_id, seated[0])
    assert view["deadline"] is None and view["turn_timeout"] is None
    assert run_worker(app, now=datetime.now(timezone.utc) + timedelta(days=30)) == 0


@pytest.mark.parametrize("timeout", [9, 1_209_601, 0, -1, "60", 60.5])
def test_bad_turn_timeouts_are_422(client: Any, app: Any, timeout: Any) -> None:
    ana = register(client, "ana")
    r = client.post("/v1/matches", json={"turn_timeout": timeout}, headers=ana.headers)
    assert "turn_timeout" in assert_problem(r, 422, "validation_error")["errors"]
    assert db_scalar(app, "SELECT count(*) FROM matches") == 0


def test_nothing_happens_before_the_deadline(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=2, **SETUP2)
    view = get_view(client, match_id, seated[0])
    run_worker(app, now=_later(view, -5))
    assert get_view(client, match_id, seated[0])["version"] == view["version"]


def test_a_timed_out_seat_is_auto_played_and_the_match_goes_on(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    view = get_view(client, match_id, seated[0])
    (late,) = view["hand"]["to_act"]
    assert run_worker(app, now=_later(view)) >= 1
    after = get_view(client, match_id, seated[0])
    assert after["status"] == "active" and after["version"] > view["version"]
    assert late not in after["hand"]["to_act"] or after["hand"]["pending"] is not None
    assert after["seats"][late]["timeouts"] == 1 and after["seats"][late]["timeouts_in_row"] == 1
    rows = db_rows(app, "SELECT seat, player_id FROM actions WHERE match_id = :m", m=match_id)
    assert [(r.seat, r.player_id) for r in rows] == [(late, None)]
    events = get_events(client, match_id, seated[0])
    timed_out = next(e for e in events if e["type"] == "turn_timed_out")
    assert timed_out["seat"] == late and timed_out["outcome"] == "auto_play"
    assert timed_out["player_id"] == seated[late].id and timed_out["abandoned"] is False
    assert events[-1]["type"] == "deadline_set"  # the next seat's deadline
    assert _parse(after["deadline"]) > _parse(view["deadline"])


def test_forfeit_ends_the_match_at_once(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **{**SETUP, "on_timeout": "forfeit"})
    view = get_view(client, match_id, seated[0])
    (late,) = view["hand"]["to_act"]
    run_worker(app, now=_later(view))
    after = get_view(client, match_id, seated[0])
    assert after["status"] == "finished" and after["winner_team"] == 1 - late % 2
    assert after["deadline"] is None
    events = get_events(client, match_id, seated[0])
    assert [e["type"] for e in events][-3:] == ["turn_timed_out", "match_forfeited", "match_won"]
    assert events[-2] == {**events[-2], "team": late % 2, "seat": late, "reason": "timed_out"}
    assert after["end_reason"] == events[-1]["end_reason"] == "timed_out"


def test_three_timeouts_in_a_row_abandon_the_seat(client: Any, app: Any) -> None:
    """Bob never acts: the easy bot plays for him twice, the third time his team forfeits.
    Ana acts herself every time, so her count stays at zero."""
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=2, seat=0, turn_timeout=60,
               options={"first_dealer": 1})
    assert join(client, m["id"], bob, seat=1).status_code == 200
    bob_timeouts = 0
    for _ in range(200):
        view = get_view(client, m["id"], ana)
        if view["status"] != "active":
            break
        if 0 in view["hand"]["to_act"]:
            act_ok(client, m["id"], ana, view["legal_actions"][0])
        else:
            run_worker(app, now=_later(view))
            bob_timeouts += 1
    assert view["status"] == "finished" and view["winner_team"] == 0
    assert view["end_reason"] == "timed_out"  # abandoned: a forfeit by time
    assert bob_timeouts == 3
    assert view["seats"][1]["timeouts"] == 3 and view["seats"][0]["timeouts"] == 0
    outcomes = [(e["outcome"], e["abandoned"]) for e in get_events(client, m["id"], ana)
                if e["type"] == "turn_timed_out"]
    assert outcomes == [("auto_play", False), ("auto_play", False), ("forfeit", True)]


def test_acting_yourself_restarts_the_count(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=2, seat=0, turn_timeout=60, options={"first_dealer": 1})
    join(client, m["id"], bob, seat=1)
    for _ in range(200):
        view = get_view(client, m["id"], ana)
        if view["seats"][0]["timeouts"] == 2 or view["status"] != "active":
            break
        if 1 in view["hand"]["to_act"]:
            act_ok(client, m["id"], bob, get_view(client, m["id"], bob)["legal_actions"][0])
        else:
            run_worker(app, now=_later(view))
    assert view["seats"][0]["timeouts"] == 2 and view["seats"][0]["timeouts_in_row"] == 2
    # ana comes back and plays: the count in a row restarts, the total stays
    for _ in range(10):
        view = get_view(client, m["id"], ana)
        if 0 in view["hand"]["to_act"]:
            act_ok(client, m["id"], ana, view["legal_actions"][0])
            break
        act_ok(client, m["id"], bob, get_view(client, m["id"], bob)["legal_actions"][0])
    view = get_view(client, m["id"], ana)
    assert view["seats"][0]["timeouts"] == 2 and view["seats"][0]["timeouts_in_row"] == 0


def test_two_workers_racing_on_one_overdue_seat_apply_it_once(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    view = get_view(client, match_id, seated[0])
    moment = _later(view)  # only the first deadline has passed at this moment
    barrier = threading.Barrier(4)
    done: list[int] = []

    def work() -> None:
        barrier.wait()
        done.append(run_worker(app, now=moment))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert db_scalar(app, "SELECT count(*) FROM actions") == 1
    events = get_events(client, match_id, seated[0])
    assert sum(e["type"] == "turn_timed_out" for e in events) == 1


def test_a_killed_workers_timeout_is_applied_by_another(client: Any, app: Any,
                                                          database_url: str) -> None:
    import psycopg2

    from tests.support.database import libpq_url

    match_id, seated = full_match(client, players=2, **SETUP2)
    view = get_view(client, match_id, seated[0])
    dead = psycopg2.connect(libpq_url(database_url))
    with dead.cursor() as cur:  # claimed it, then died before committing
        cur.execute("SELECT id FROM matches WHERE id = %s FOR UPDATE", (match_id,))
        cur.execute("UPDATE seats SET timeouts = 7 WHERE match_id = %s", (match_id,))
    assert run_worker(app, now=_later(view)) == 0
    pid = dead.get_backend_pid()
    dead.close()
    # (its backend ends, and lets the lock go, a moment after the connection closes)
    assert backend_gone(app, pid), "the dead worker's backend did not end"
    assert run_worker(app, now=_later(view)) == 1
    after = get_view(client, match_id, seated[0])
    late = view["hand"]["to_act"][0]
    assert after["seats"][late]["timeouts"] == 1
    assert db_scalar(app, "SELECT count(*) FROM actions") == 1


def test_a_read_after_the_deadline_shows_the_auto_played_turn(client: Any, app: Any) -> None:
    """What a client sees once the worker has run: the seat auto-played, the view says so."""
    match_id, seated = full_match(client, players=2, **SETUP2)
    view = get_view(client, match_id, seated[0])
    late = view["hand"]["to_act"][0]
    run_worker(app, now=_later(view))
    after = get_view(client, match_id, seated[late])
    assert after["seats"][late]["timeouts"] == 1
    assert after["hand"]["to_act"] != view["hand"]["to_act"] or after["hand"]["pending"]
