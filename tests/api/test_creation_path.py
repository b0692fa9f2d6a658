"""Creating and joining a match take two messages each, as an action does
(app/db/hot_sql.py: creation_load, create_and_commit, lock_and_load, seat_and_commit), and
answer exactly what every later view shows: the answer is made before the commit, from the
match the verb holds, never read back."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import D2_SETUP, NOTIFIED, create, join, listening, messages, register


def test_a_creation_and_a_join_are_two_messages_each(client: Any, app: Any) -> None:
    """Nothing but the verb's two messages: the caller's token is one this process knows
    (app/live/known.py: learned by the warm-up's first request), the caller's own row is read
    with the rest, nothing goes through the session, and every connection goes back to the
    pool with no transaction open."""
    from psycopg2.extensions import TRANSACTION_STATUS_IDLE

    ana, bob = register(client, "ana"), register(client, "bob")
    warm = create(client, ana, players=2, visibility="private")  # (statements prepared)
    assert client.get(f"/v1/matches/{warm['id']}", headers=ana.headers).status_code == 200
    listening(app)  # (a view started the listener: tokens are learned from now)
    assert join(client, warm["id"], bob, invite_code=warm["invite_code"]).status_code == 200
    assert create(client, ana, players=2, visibility="private")["status"] == "waiting"
    with messages(app) as (sent, returned):
        m = create(client, ana, players=2, visibility="private", **D2_SETUP)
    ours = [s for s in sent if "truco_" in s]
    assert ours == ["BEGIN; EXECUTE truco_lock_player; EXECUTE truco_creation_load",
                    "EXECUTE truco_create_write; COMMIT" + NOTIFIED]
    assert [s for s in sent if s not in ours] == []
    assert returned and set(returned) == {TRANSACTION_STATUS_IDLE}
    with messages(app) as (sent, returned):
        r = join(client, m["id"], bob, invite_code=m["invite_code"])
    assert r.status_code == 200 and r.json["status"] == "active"
    assert [s for s in sent if "truco_" in s] == [
        "BEGIN; EXECUTE truco_join_lock; EXECUTE truco_join_load",
        "EXECUTE truco_join_write; COMMIT" + NOTIFIED]
    assert [s for s in sent if "truco_" not in s] == []
    assert returned and set(returned) == {TRANSACTION_STATUS_IDLE}


CREATIONS = {
    "waits for a player": {"players": 2, "visibility": "private"},
    "starts against a bot, with deadlines": {
        "players": 2, "seat": 0, "bots": [{"seat": 1, "level": "random"}],
        "turn_timeout": 3600, "on_timeout": "forfeit", "options": {"first_dealer": 1}},
    "a bot leads at once": {"players": 2, "seat": 0, "bots": [{"seat": 1, "level": "easy"}],
                            "options": {"first_dealer": 0}, "deals": D2_SETUP["deals"]},
    "an invitation and a bot": {"players": 4, "visibility": "private", "invite": "bob",
                                "bots": [{"seat": 2, "level": "random"}]},
}


@pytest.mark.parametrize("kind", list(CREATIONS))
def test_a_creation_answers_the_match_as_every_later_view_shows_it(
        client: Any, app: Any, other_app: Any, kind: str) -> None:
    """Byte for byte, ETag included, the view another process reads afterwards (for the
    creator, an invited player and a spectator), and the stored rows hold what it shows."""
    from tests.support.api import db_rows

    ana, bob = register(client, "ana"), register(client, "bob")
    body = dict(CREATIONS[kind])
    if body.get("invite") == "bob":
        body["invite"] = [{"player_id": bob.id, "seat": 1}]
    r = client.post("/v1/matches", json=body, headers=ana.headers)
    assert r.status_code == 201, r.get_data(as_text=True)
    elsewhere = other_app.test_client()
    there = elsewhere.get(f"/v1/matches/{r.json['id']}", headers=ana.headers)
    assert there.get_data() == r.get_data()
    assert there.headers["ETag"] == r.headers["ETag"]
    for viewer in (bob, None):
        headers = {} if viewer is None else viewer.headers
        assert client.get(f"/v1/matches/{r.json['id']}", headers=headers).get_data() == \
            elsewhere.get(f"/v1/matches/{r.json['id']}", headers=headers).get_data()
    (row,) = db_rows(app, "SELECT status, version, event_count, to_act, due_at, deadline,"
                          " state IS NULL AS no_state FROM matches WHERE id = :m",
                     m=r.json["id"])
    assert row.status == r.json["status"] and row.version == r.json["version"]
    assert row.no_state == (r.json["status"] == "waiting")
    events = db_rows(app, "SELECT seq, version FROM events WHERE match_id = :m ORDER BY seq",
                     m=r.json["id"])
    assert [e.seq for e in events] == list(range(1, row.event_count + 1))
    assert {e.version for e in events} == {1}
    if kind == "a bot leads at once":  # (its move is the worker's: due now)
        assert row.to_act == [1] and row.due_at is not None
    if kind.startswith("starts"):  # (the creator leads: their deadline runs)
        assert row.to_act == [0] and row.deadline is not None
        assert r.json["deadline"] is not None


def test_accepting_an_invitation_answers_as_later_views_show_it(client: Any, app: Any,
                                                                other_app: Any) -> None:
    from tests.support.api import db_rows

    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=2, invite=[{"player_id": bob.id, "seat": 1}])
    r = join(client, m["id"], bob)
    assert r.status_code == 200 and r.json["you"]["seat"] == 1
    assert r.json["status"] == "active"
    elsewhere = other_app.test_client()
    assert elsewhere.get(f"/v1/matches/{m['id']}", headers=bob.headers).get_data() == \
        r.get_data()
    assert [tuple(s) for s in db_rows(
        app, "SELECT seat, player_id, invited FROM seats WHERE match_id = :m ORDER BY seat",
        m=m["id"])] == [(0, ana.id, False), (1, bob.id, False)]


def test_the_matches_kept_for_later_views_hold_nothing_of_a_session(client: Any) -> None:
    """A creation and a join keep the match they wrote for the next views (app/live/recent.py);
    its players are copies, not the caller's row of the request's ORM session (which ends
    with the request, and whose objects a commit elsewhere could expire)."""
    from sqlalchemy.orm import object_session
    from sqlalchemy.orm.exc import UnmappedInstanceError

    from app.live.recent import recent

    def in_a_session(player: Any) -> bool:
        try:
            return object_session(player) is not None or player._sa_instance_state.key
        except UnmappedInstanceError:  # (a plain copy: app/db/hot_rows.py, stand_in)
            return False

    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=2, visibility="private")
    r = join(client, m["id"], bob, invite_code=m["invite_code"])
    for body in (m, r.json):
        kept = recent.get(body["id"], body["version"])
        assert kept is not None
        players = [s.player for s in kept.seats if s.player is not None]
        assert {p.id for p in players} == {s["player"]["id"] for s in body["seats"]
                                           if s["player"] is not None}
        assert not any(in_a_session(p) for p in players)
