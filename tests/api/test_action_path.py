"""app/db/hot_sql.py reads a match by hand-written SQL: the views it gives are the ones the
ORM's read gives, in every state a match can be in."""
from __future__ import annotations

import random
from typing import Any

from tests.support.api import NOTIFIED, create, full_match, play_out, random_step, register


def _same_views(app: Any, match_id: str, players: int) -> None:
    from app.db.hot_sql import read_match
    from app.db.extensions import db
    from app.play.store import get_match
    from app.play.rendering import match_summary, match_view

    with app.app_context():
        lean = read_match(match_id)
        orm = get_match(match_id)
        assert lean is not None
        for seat in [None, *range(players)]:
            assert match_view(lean, seat) == match_view(orm, seat), seat
        for player in [None, *(s.player for s in orm.seats if s.player is not None)]:
            assert match_summary(lean, player) == match_summary(orm, player)
        assert read_match("m_missing") is None
        db.session.remove()


def test_the_lean_read_renders_what_the_orm_read_renders(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    waiting = create(client, ana, players=4, visibility="private", turn_timeout=600,
                     invite=[{"seat": 2, "player_id": bob.id}],
                     bots=[{"seat": 3, "level": "easy"}])
    _same_views(app, waiting["id"], 4)
    match_id, seated = full_match(client, players=2, start_score=[3, 5])
    _same_views(app, match_id, 2)
    rng = random.Random(3)
    for _ in range(5):
        random_step(client, match_id, seated, rng)
    _same_views(app, match_id, 2)
    play_out(client, match_id, seated, rng)
    _same_views(app, match_id, 2)


def test_a_fresh_process_reads_a_match_before_any_orm_query() -> None:
    """The first request of a new worker may be a view read by hand-written SQL: the mappers
    are configured by create_app, not by a first ORM query (seen in a benchmark: 500s on
    the first views of a fresh worker)."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "from app import create_app\n"
        "create_app({'SQLALCHEMY_DATABASE_URI': 'postgresql://unused@127.0.0.1:1/unused'})\n"
        "from app.db.hot_rows import stand_in\n"
        "from app.db.models import Match, Seat\n"
        "seat = stand_in(Seat, seat=0, player_id='p', invited=False)\n"
        "match = stand_in(Match, id='m', version=3, seats=[seat])\n"
        "print(match.version, match.seat_of('p').seat)\n")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "0"]


def test_an_action_is_two_messages_to_the_database(client: Any, app: Any,
                                                 database_url: str) -> None:
    """On a match this process has not just written: begin, lock and load in one message;
    the write and the commit in one: nothing else (no BEGIN of its own, no session
    statements), and the connection goes back to the pool with no transaction open. On a
    match it wrote last: the write, begun and committed, in one message."""
    from psycopg2.extensions import TRANSACTION_STATUS_IDLE

    from app.live.recent import recent
    from tests.support.api import D2_SETUP, act_ok, get_view, listening, messages, next_move

    match_id, seated = full_match(client, players=2, **D2_SETUP)
    for player in seated:
        get_view(client, match_id, player)  # (the process learns the tokens)
    listening(app)
    act_ok(client, match_id, *next_move(client, match_id, seated))  # (the join's match kept)
    recent.clear()  # (nothing kept: the locked way's statements prepared too)
    act_ok(client, match_id, *next_move(client, match_id, seated))
    recent.clear()
    mover, action = next_move(client, match_id, seated)
    with messages(app) as (sent, returned):
        act_ok(client, match_id, mover, action)
    assert sent == ["BEGIN; EXECUTE truco_action_lock; EXECUTE truco_action_load",
                    "EXECUTE truco_action_write; COMMIT" + NOTIFIED]
    assert returned and set(returned) == {TRANSACTION_STATUS_IDLE}
    mover, action = next_move(client, match_id, seated)
    watch(app, match_id)
    listener = Listener(database_url)
    with messages(app) as (sent, returned):
        version = act_ok(client, match_id, mover, action)["version"]
    assert sent == ["BEGIN; EXECUTE truco_action_write_if_current; COMMIT" + NOTIFIED]
    assert returned and set(returned) == {TRANSACTION_STATUS_IDLE}
    # every process hears of it (the notification follows the commit: app/db/hot_sql.py)
    assert [p.split(":")[:2] for p in listener.heard()] == [[match_id, str(version)]]
    listener.conn.close()


def _stored(app: Any, match_id: str) -> tuple[Any, ...]:
    from tests.support.api import db_rows

    (row,) = db_rows(app, "SELECT version, action_count, event_count, state::text AS state"
                          " FROM matches WHERE id = :m", m=match_id)
    actions = db_rows(app, "SELECT n FROM actions WHERE match_id = :m ORDER BY n", m=match_id)
    events = db_rows(app, "SELECT seq FROM events WHERE match_id = :m ORDER BY seq",
                     m=match_id)
    assert [a.n for a in actions] == list(range(1, row.action_count + 1))
    assert [e.seq for e in events] == list(range(1, row.event_count + 1))
    return tuple(row)


def test_an_action_on_the_match_this_process_wrote_answers_as_the_locked_way(
        client: Any, app: Any, other_app: Any) -> None:
    """Written in one message from the match kept (app/live/recent.py), an action's answer is
    byte for byte (ETag included) the view another process reads afterwards, and the rows
    hold what the locked way stores: the state is the replay of the actions."""
    from app.live.recent import recent
    from tests.support.api import D2_SETUP, next_move, replayed_and_stored

    match_id, seated = full_match(client, players=2, turn_timeout=3600, **D2_SETUP)
    elsewhere = other_app.test_client()
    for _ in range(6):
        mover, action = next_move(client, match_id, seated)
        assert recent.newest(match_id) is not None
        r = client.post(f"/v1/matches/{match_id}/actions", json=action,
                        headers={**mover.headers, "Idempotency-Key": f"k{_}"})
        assert r.status_code == 200, r.get_data(as_text=True)
        there = elsewhere.get(f"/v1/matches/{match_id}", headers=mover.headers)
        assert there.get_data() == r.get_data()
        assert there.headers["ETag"] == r.headers["ETag"]
    version, _, _, _ = _stored(app, match_id)
    assert version == r.json["version"]
    replayed, stored = replayed_and_stored(app, match_id)
    assert replayed == stored


def watch(app: Any, match_id: str) -> None:
    """Someone waits on the match: its actions are notified (app/live/watches.py)."""
    from app.live import watches

    with app.app_context():
        watches.watch([match_id], watches.SECONDS)


class Listener:
    """A connection of the test's own LISTENing as the app's processes do."""

    def __init__(self, database_url: str) -> None:
        import psycopg2

        from app.db.channels import CHANNEL, libpq_dsn

        self.conn = psycopg2.connect(libpq_dsn(database_url))
        self.conn.autocommit = True
        self.conn.cursor().execute(f"LISTEN {CHANNEL}")

    def heard(self, quiet: float = 0.3) -> list[str]:
        """The payloads heard, until nothing more comes for `quiet` seconds."""
        import select

        payloads: list[str] = []
        while select.select([self.conn], [], [], quiet)[0]:
            self.conn.poll()
            payloads += [n.payload for n in self.conn.notifies]
            self.conn.notifies.clear()
        return payloads


def test_an_action_on_a_kept_match_that_moved_on_is_made_again_the_locked_way(
        client: Any, app: Any, database_url: str) -> None:
    """The match changed after this process kept it (another process's write, which this
    process has not heard of): the action applied to the kept match is not written, nor
    notified; the locked way answers from the match as it is, and only its own action is
    stored and notified."""
    from sqlalchemy import text

    from app.db.extensions import db
    from app.live.recent import recent
    from tests.support.api import D2_SETUP, messages, next_move, replayed_and_stored

    match_id, seated = full_match(client, players=2, **D2_SETUP)
    mover, action = next_move(client, match_id, seated)
    kept = recent.newest(match_id)
    assert kept is not None
    # another process's change: a new version of the same state (the action stays legal)
    with app.app_context():
        db.session.execute(text("UPDATE matches SET version = version + 1 WHERE id = :m"),
                           {"m": match_id})
        db.session.commit()
        db.session.remove()
    before = _stored(app, match_id)
    watch(app, match_id)
    listener = Listener(database_url)
    with messages(app) as (sent, _):
        r = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=mover.headers)
    assert r.status_code == 200, r.get_data(as_text=True)
    assert [p.split(":")[:2] for p in listener.heard()] == [[match_id, str(r.json["version"])]]
    listener.conn.close()
    assert [m for m in sent if "truco_" in m] == [
        "BEGIN; EXECUTE truco_action_write_if_current; COMMIT" + NOTIFIED,
        "BEGIN; EXECUTE truco_action_lock; EXECUTE truco_action_load",
        "EXECUTE truco_action_write; COMMIT" + NOTIFIED]
    after = _stored(app, match_id)
    assert r.json["version"] == after[0] == before[0] + 1 == kept.match.version + 2
    assert after[1] == before[1] + 1  # one action stored, not two
    replayed, stored = replayed_and_stored(app, match_id)
    assert replayed == stored


def test_a_used_idempotency_key_on_a_kept_match_is_answered_as_the_locked_way_answers(
        client: Any, app: Any) -> None:
    """The key's stored record stops the write without a read (the insert of the record
    fails): nothing is kept, and the locked way answers (a replay, or 422 for another
    body)."""
    from tests.support.api import D2_SETUP, act_ok, messages, next_move

    match_id, seated = full_match(client, players=2, **D2_SETUP)
    mover, action = next_move(client, match_id, seated)
    headers = {**mover.headers, "Idempotency-Key": "once"}
    first = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=headers)
    assert first.status_code == 200
    while True:  # until the same player is to act again
        player, other = next_move(client, match_id, seated)
        if player is mover:
            break
        act_ok(client, match_id, player, other)
    count = _stored(app, match_id)[1]
    with messages(app) as (sent, _):
        again = client.post(f"/v1/matches/{match_id}/actions", json=other, headers=headers)
    assert [m for m in sent if "truco_" in m][0] == \
        "BEGIN; EXECUTE truco_action_write_if_current; COMMIT" + NOTIFIED
    if other == action:
        assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
        assert again.get_data() == first.get_data()
    else:
        assert again.status_code == 422, again.get_data(as_text=True)
        assert again.json["code"] == "idempotency_key_reused"
    assert _stored(app, match_id)[1] == count


def test_a_match_whose_player_has_a_webhook_endpoint_is_written_the_locked_way(
        client: Any, app: Any) -> None:
    """The write without a read enqueues no delivery: a match with an endpoint, or one that
    gained one after it was kept, goes the locked way and its deliveries are enqueued."""
    from tests.support.api import D2_SETUP, db_scalar, messages, next_move

    match_id, seated = full_match(client, players=2, **D2_SETUP)
    r = client.post("/v1/me/webhooks", headers=seated[1].headers,
                    json={"url": "https://example.org/hook", "events": ["your_turn"]})
    assert r.status_code == 201, r.get_data(as_text=True)
    before = db_scalar(app, "SELECT count(*) FROM webhook_deliveries")
    for _ in range(2):
        mover, action = next_move(client, match_id, seated)
        with messages(app) as (sent, _):
            assert client.post(f"/v1/matches/{match_id}/actions", json=action,
                               headers=mover.headers).status_code == 200
        assert "EXECUTE truco_action_write; COMMIT" + NOTIFIED in sent
    assert db_scalar(app, "SELECT count(*) FROM webhook_deliveries") > before


def test_a_refused_action_leaves_no_transaction_open(client: Any, app: Any) -> None:
    """An action refused after the lock (not your turn, a stale If-Match, a replay) rolls its
    transaction back: the match is not left locked, and the next action goes through."""
    from tests.support.api import D2_SETUP, act, act_ok, get_view, next_move

    match_id, seated = full_match(client, players=2, **D2_SETUP)
    mover, action = next_move(client, match_id, seated)
    waiting = next(p for p in seated if p is not mover)
    assert act(client, match_id, waiting, action).status_code == 422  # not their turn
    stale = {**mover.headers, "If-Match": '"m_x.v1.seat0"'}
    r = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=stale)
    assert r.status_code == 412
    key = {**mover.headers, "Idempotency-Key": "k1"}
    first = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=key)
    assert first.status_code == 200
    again = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=key)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    nxt, step = next_move(client, match_id, seated)
    assert act_ok(client, match_id, nxt, step)["version"] == first.json["version"] + 1
    assert get_view(client, match_id, seated[0])["version"] == first.json["version"] + 1


def test_an_action_is_notified_only_while_its_match_is_watched(
        client: Any, app: Any, database_url: str) -> None:
    """app/live/watches.py: an action on a match nobody waits on wakes no process; one on a
    watched match does, either way it is written; a join is always notified."""
    from app.live.recent import recent
    from tests.support.api import D2_SETUP, act_ok, join, next_move

    ana, bob = register(client, "ana"), register(client, "bob")
    listener = Listener(database_url)
    m = create(client, ana, players=2, visibility="private", **D2_SETUP)
    assert join(client, m["id"], bob, invite_code=m["invite_code"]).status_code == 200
    assert [p.split(":")[:2] for p in listener.heard()] == [[m["id"], "1"], [m["id"], "2"]]
    seated = [ana, bob]
    act_ok(client, m["id"], *next_move(client, m["id"], seated))  # (kept: one message)
    recent.clear()
    act_ok(client, m["id"], *next_move(client, m["id"], seated))  # (the locked way)
    assert listener.heard() == []
    watch(app, m["id"])
    one = act_ok(client, m["id"], *next_move(client, m["id"], seated))["version"]
    recent.clear()
    two = act_ok(client, m["id"], *next_move(client, m["id"], seated))["version"]
    assert [p.split(":")[:2] for p in listener.heard()] == [[m["id"], str(one)],
                                                          [m["id"], str(two)]]
    listener.conn.close()
