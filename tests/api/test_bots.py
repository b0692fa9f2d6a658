"""Built-in bots move in the background: an answer never waits on a bot (each bot move is a
step of the worker, its own transaction, version and events), a match against a `random`
bot is played to the end through the API, and `?wait=` holds an action's answer until the
caller must act again."""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.api import (act, backend_gone, create, db_rows, db_scalar, get_events,
                               get_view, register, run_worker)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_players_against_a_random_bot_to_the_end(client: Any, app: Any, seed: int) -> None:
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}], seed=seed)
    assert m["status"] == "active"
    assert m["seats"][1]["bot_level"] == "random" and m["seats"][1]["player"] is None
    rng = random.Random(seed)
    steps = 0
    run_worker(app)
    view = get_view(client, m["id"], ana)
    while view["status"] == "active":
        # once the worker is idle, the bot never holds the turn
        assert view["hand"]["to_act"] == [0], view["hand"]
        assert view["legal_actions"]
        r = act(client, m["id"], ana, rng.choice(view["legal_actions"]))
        assert r.status_code == 200, r.get_data(as_text=True)
        assert r.json["you"] == {"seat": 0, "team": 0}
        assert r.json == get_view(client, m["id"], ana)  # the answer is the view at once
        steps += 1
        assert steps < 2000
        run_worker(app)
        view = get_view(client, m["id"], ana)
    assert view["winner_team"] in (0, 1)
    assert max(view["score"]) >= 12
    assert view["legal_actions"] == []
    assert run_worker(app) == 0  # nothing left to do for a finished match

    rows = db_rows(app, "SELECT seat, player_id FROM actions WHERE match_id = :m ORDER BY n",
                   m=m["id"])
    assert {r.player_id for r in rows if r.seat == 0} == {ana.id}
    assert {r.player_id for r in rows if r.seat == 1} == {None}  # the bot's moves are recorded
    assert sum(1 for r in rows if r.seat == 0) == steps
    assert any(r.seat == 1 for r in rows)
    types = {e["type"] for e in get_events(client, m["id"], ana)}
    assert {"match_started", "hand_dealt", "card_played", "hand_won", "match_won"} <= types
    stats = client.get("/v1/players/me", headers=ana.headers).json["stats"]
    assert stats["finished"] == 1 and stats["won"] + stats["lost"] == 1
    assert stats["won"] == (1 if view["winner_team"] == 0 else 0)


def test_the_answer_does_not_wait_for_the_bot(client: Any, app: Any) -> None:
    """A bot that leads: the creation answers with the bot to act and no bot move yet; one
    worker step makes the move, as its own version with its own events."""
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}], seed=11,
               options={"first_dealer": 0})
    assert m["hand"]["dealer"] == 0 and m["hand"]["to_act"] == [1]
    assert db_scalar(app, "SELECT count(*) FROM actions") == 0
    events_before = len(get_events(client, m["id"], ana))
    assert run_worker(app) == 1
    moved = db_rows(app, "SELECT seat, body FROM actions WHERE match_id = :m ORDER BY n",
                    m=m["id"])
    assert [r.seat for r in moved] == [1]
    after = get_view(client, m["id"], ana)
    assert after["version"] == m["version"] + 1
    assert after["hand"]["to_act"] == [0]
    new_events = get_events(client, m["id"], ana)[events_before:]
    assert new_events and {e["version"] for e in new_events} == {after["version"]}
    if moved[0].body["type"] == "play":
        assert after["hand"]["tricks"][0]["plays"][0]["seat"] == 1
    else:
        assert after["hand"]["pending"] == {"kind": "raise", "by_seat": 1, "to": 3}


def test_bots_fill_a_four_player_match_and_each_move_is_a_step(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=4, bots=[{"seat": 1, "level": "random"},
                                             {"seat": 3, "level": "random"}], seed=5)
    assert m["status"] == "waiting"
    assert [s["bot_level"] for s in m["seats"]] == [None, "random", None, "random"]
    assert run_worker(app) == 0  # a waiting match has nothing to do
    r = client.post(f"/v1/matches/{m['id']}/join", json={}, headers=bob.headers)
    assert r.status_code == 200 and r.json["you"]["seat"] == 2
    assert r.json["status"] == "active"
    rng = random.Random(9)
    by_seat = {0: ana, 2: bob}
    for _ in range(40):
        count = db_scalar(app, "SELECT count(*) FROM actions")
        steps = run_worker(app)
        assert db_scalar(app, "SELECT count(*) FROM actions") == count + steps
        view = get_view(client, m["id"], ana)
        if view["status"] != "active":
            break
        assert view["hand"]["to_act"] and set(view["hand"]["to_act"]) <= {0, 2}
        seat = rng.choice(view["hand"]["to_act"])
        mine = get_view(client, m["id"], by_seat[seat])
        r = act(client, m["id"], by_seat[seat], rng.choice(mine["legal_actions"]))
        assert r.status_code == 200


def test_two_workers_never_move_the_same_bot_twice(client: Any, app: Any) -> None:
    """Workers racing on the same due matches: every step is applied once (the row lock and
    SKIP LOCKED), so the stored state is always the replay of the recorded actions."""
    from app.play import store as match_store
    from app.db.extensions import db

    ana = register(client, "ana")
    ids = [create(client, ana, bots=[{"seat": 1, "level": "random"}],
                  options={"first_dealer": 0})["id"] for _ in range(6)]
    barrier = threading.Barrier(4)
    done: list[int] = []

    def work() -> None:
        barrier.wait()
        done.append(run_worker(app))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sum(done) == 6
    assert db_scalar(app, "SELECT count(*) FROM actions") == 6
    with app.app_context():
        for match_id in ids:
            match = match_store.get_match(match_id)
            replayed = match_store.replay(match)
            assert replayed is not None and replayed.to_json() == match.state
            assert match.to_act == [0] and match.due_at is None
        db.session.remove()


@pytest.fixture()
def live_worker(app: Any) -> Iterator[None]:
    """A worker loop in a thread of this process, as `python -m app.worker` runs it."""
    from app.play.background import Worker

    worker = Worker(app, poll_seconds=0.2)
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    yield
    worker.stop.set()
    thread.join(10)


def test_an_action_with_wait_answers_when_the_caller_must_act_again(
        client: Any, app: Any, live_worker: None) -> None:
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}], seed=3,
               options={"first_dealer": 1})
    assert m["hand"]["to_act"] == [0]
    view = m
    moves = 0
    while view["status"] == "active" and moves < 30:
        r = client.post(f"/v1/matches/{m['id']}/actions?wait=10", json=view["legal_actions"][0],
                        headers=ana.headers)
        assert r.status_code == 200, r.get_data(as_text=True)
        view = r.json
        # one request per move: the bot's answers are already in
        assert view["status"] != "active" or view["hand"]["to_act"] == [0], view["hand"]
        assert r.headers["ETag"] == f'"{m["id"]}.v{view["version"]}.seat0"'
        moves += 1
    assert moves == 30 or view["status"] == "finished"


def test_an_action_with_wait_answers_after_the_wait_when_nobody_moves(
        client: Any, app: Any) -> None:
    """No worker runs here: the bot never moves, so the answer comes after the wait with the
    match as it then is (the bot still to act)."""
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}], seed=3,
               options={"first_dealer": 1})
    start = time.monotonic()
    r = client.post(f"/v1/matches/{m['id']}/actions?wait=1", json=m["legal_actions"][0],
                    headers=ana.headers)
    assert 0.9 <= time.monotonic() - start < 5
    assert r.status_code == 200 and r.json["hand"]["to_act"] == [1]


@pytest.mark.parametrize("wait", ["61", "-1", "x", "1_0"])
def test_a_bad_wait_on_an_action_is_422_and_changes_nothing(client: Any, app: Any,
                                                            wait: str) -> None:
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}], options={"first_dealer": 1})
    r = client.post(f"/v1/matches/{m['id']}/actions?wait={wait}", json=m["legal_actions"][0],
                    headers=ana.headers)
    assert r.status_code == 422 and r.json["code"] == "validation_error"
    assert get_view(client, m["id"], ana)["version"] == m["version"]


def test_a_step_held_by_a_dead_worker_is_done_by_another(client: Any, app: Any,
                                                          database_url: str) -> None:
    """A worker that dies mid-step (here: a connection that claimed the match, wrote half a
    move and vanished) loses nothing: while it holds the row others skip the match, and once
    its connection is gone its half-move is rolled back and the next worker does the step."""
    import psycopg2

    from tests.support.database import libpq_url

    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}], seed=4,
               options={"first_dealer": 0})
    dead = psycopg2.connect(libpq_url(database_url))
    with dead.cursor() as cur:
        cur.execute("SELECT id FROM matches WHERE id = %s FOR UPDATE SKIP LOCKED", (m["id"],))
        assert cur.fetchone() == (m["id"],)
        cur.execute("UPDATE matches SET version = version + 1 WHERE id = %s", (m["id"],))
        cur.execute("INSERT INTO actions (match_id, n, seat, body) VALUES (%s, 1, 1, %s)",
                    (m["id"], '{"type": "refuse"}'))
    start = time.monotonic()
    assert run_worker(app) == 0  # skipped, not waited for
    assert time.monotonic() - start < 2
    with app.app_context():  # ... and the worker knows to look again soon
        from datetime import datetime, timezone

        from app.db.extensions import db
        from app.play.background import due_but_held

        assert due_but_held(datetime.now(timezone.utc))
        db.session.remove()
    pid = dead.get_backend_pid()
    dead.close()  # the worker's process is gone: PostgreSQL rolls its transaction back
    assert backend_gone(app, pid)
    assert run_worker(app) == 1
    rows = db_rows(app, "SELECT seat, body FROM actions WHERE match_id = :m", m=m["id"])
    assert len(rows) == 1 and rows[0].body != {"type": "refuse"}
    view = get_view(client, m["id"], ana)
    assert view["version"] == m["version"] + 1 and view["hand"]["to_act"] == [0]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_plays_a_match_to_the_end(client: Any, app: Any, level: str) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=4, bots=[{"seat": 1, "level": level},
                                             {"seat": 2, "level": level},
                                             {"seat": 3, "level": level}], seed=7)
    assert [s["bot_level"] for s in m["seats"]] == [None, level, level, level]
    steps = 0
    run_worker(app)
    view = get_view(client, m["id"], ana)
    while view["status"] == "active":
        # once the worker is idle only ana is to act (and her partner, when it leaves
        # their team's answer to her: app/play/bot_partners.py)
        assert view["hand"]["to_act"] in ([0], [0, 2]), view["hand"]
        r = act(client, m["id"], ana, view["legal_actions"][0])
        assert r.status_code == 200, r.get_data(as_text=True)
        run_worker(app)
        view = get_view(client, m["id"], ana)
        steps += 1
        assert steps < 500
    assert view["winner_team"] in (0, 1)
    rows = db_rows(app, "SELECT seat, body FROM actions WHERE match_id = :m ORDER BY n",
                   m=m["id"])
    assert {r.seat for r in rows} == {0, 1, 2, 3}  # every bot moved
