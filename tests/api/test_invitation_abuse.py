"""Invitations under abuse: bounded per invitee and per inviter, expiring (and saying when),
listed after real turns and counted apart from them, and declined all at once
(app/play/invitation_rules.py, app/play/inbox.py, app/play/invitations.py)."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from tests.support.api import (assert_problem, db_execute, db_scalar, full_match, my_matches,
                               register)


@pytest.fixture()
def caps(app: Any) -> Iterator[None]:
    keys = ("MAX_INVITATIONS_PER_INVITEE", "MAX_INVITATIONS_PER_PAIR")
    saved = {k: app.config[k] for k in keys}
    app.config.update(MAX_INVITATIONS_PER_INVITEE=3, MAX_INVITATIONS_PER_PAIR=2)
    yield
    app.config.update(saved)


def invite(client: Any, inviter: Any, invitee: Any) -> Any:
    return client.post("/v1/matches", json={"invite": [{"seat": 1, "player_id": invitee.id}]},
                       headers=inviter.headers)


def test_pending_invitations_are_bounded_per_invitee_and_per_inviter(
        client: Any, app: Any, caps: None) -> None:
    ana, bia, carl, bot = (register(client, n) for n in ("ana", "bia", "carl", "robo"))
    assert invite(client, ana, bot).status_code == 201
    assert invite(client, ana, bot).status_code == 201
    before = db_scalar(app, "SELECT count(*) FROM matches")
    body = assert_problem(invite(client, ana, bot), 409, "too_many_invitations")
    assert (body["limit"], body["player_id"]) == (2, bot.id)
    assert db_scalar(app, "SELECT count(*) FROM matches") == before  # nothing made
    assert invite(client, bia, bot).status_code == 201  # another inviter: 3 pending
    assert assert_problem(invite(client, carl, bot), 409, "too_many_invitations")["limit"] == 3


def test_real_turns_come_before_any_number_of_invitations(client: Any, app: Any) -> None:
    match_id, (bot, other) = full_match(client, players=2, options={"first_dealer": 1})
    spammers = [register(client, f"spam{i}") for i in range(3)]
    for i in range(55):
        assert invite(client, spammers[i % 3], bot).status_code == 201
    listed = client.get("/v1/me/matches?your_turn=true", headers=bot.headers).json
    assert listed["items"][0]["id"] == match_id  # the real turn first
    assert listed["items"][0]["invitation"] is False
    assert (listed["awaiting"], listed["invitations"]) == (1, 55)


def test_an_invitation_says_when_it_expires_and_then_is_declined(client: Any,
                                                                  app: Any) -> None:
    from app.db.extensions import db
    from app.play.invitations import expire_due

    ana, bot = register(client, "ana"), register(client, "robo")
    match_id = invite(client, ana, bot).json["id"]
    (item,) = my_matches(client, bot)
    sent = db_scalar(app, "SELECT joined_at FROM seats WHERE match_id = :m AND invited",
                     m=match_id)
    expires = datetime.fromisoformat(item["invitation_expires_at"].replace("Z", "+00:00"))
    assert expires == (sent + timedelta(seconds=app.config["INVITATION_TTL"])).replace(
        microsecond=expires.microsecond)
    db_execute(app, "UPDATE seats SET joined_at = now() - interval '8 days' WHERE invited")
    listed = client.get("/v1/me/matches", headers=bot.headers).json
    assert (listed["items"], listed["invitations"]) == ([], 0)  # expired: not listed
    with app.app_context():
        try:
            assert expire_due(datetime.now(timezone.utc)) == 1
        finally:
            db.session.remove()
    assert db_scalar(app, "SELECT count(*) FROM seats WHERE invited") == 0
    events = client.get(f"/v1/matches/{match_id}/events", headers=ana.headers).json["items"]
    assert events[-1]["type"] == "invitation_declined"


def test_a_player_declines_every_invitation_at_once(client: Any, app: Any) -> None:
    bot = register(client, "robo")
    inviters = [register(client, f"p{i}") for i in range(3)]
    made = [invite(client, p, bot).json["id"] for p in inviters]
    r = client.post("/v1/me/invitations/decline", headers=bot.headers)
    assert r.status_code == 200 and r.json == {"declined": 3}
    assert my_matches(client, bot) == []
    for match_id, inviter in zip(made, inviters):
        view = client.get(f"/v1/matches/{match_id}", headers=inviter.headers).json
        assert view["status"] == "waiting" and view["seats"][1]["player"] is None
    assert client.post("/v1/me/invitations/decline", headers=bot.headers).json == {
        "declined": 0}
    assert client.post("/v1/me/invitations/decline").status_code == 401


def test_a_blocked_player_cannot_invite_and_their_pending_invitations_go(client: Any,
                                                                         app: Any) -> None:
    bot, pest, friend = register(client, "robo"), register(client, "pest"), register(client, "pal")
    pending = invite(client, pest, bot).json["id"]
    assert invite(client, friend, bot).status_code == 201
    r = client.put(f"/v1/me/blocks/{pest.id}", headers=bot.headers)
    assert r.status_code == 200 and r.json == {"player_id": pest.id, "declined": 1}
    assert client.put(f"/v1/me/blocks/{pest.id}", headers=bot.headers).json["declined"] == 0
    assert [i["invitation"] for i in my_matches(client, bot)] == [True]  # the friend's
    assert client.get(f"/v1/matches/{pending}").json["seats"][1]["player"] is None
    before = db_scalar(app, "SELECT count(*) FROM matches")
    body = assert_problem(invite(client, pest, bot), 403, "blocked")
    assert body["player_id"] == bot.id
    assert db_scalar(app, "SELECT count(*) FROM matches") == before
    listed = client.get("/v1/me/blocks", headers=bot.headers).json["items"]
    assert [b["player_id"] for b in listed] == [pest.id]
    assert_problem(client.put("/v1/me/blocks/p_nobody", headers=bot.headers), 404,
                   "player_not_found")
    assert_problem(client.put(f"/v1/me/blocks/{bot.id}", headers=bot.headers), 422,
                   "validation_error")
    assert client.delete(f"/v1/me/blocks/{pest.id}", headers=bot.headers).status_code == 204
    assert invite(client, pest, bot).status_code == 201  # unblocked


def test_an_invitation_accepted_after_the_expiry_sweep_read_it_is_kept(client: Any,
                                                                      app: Any) -> None:
    """The sweep reads the expired invitations, then declines each under its match's lock:
    one accepted in between (a join racing the worker) keeps its seat."""
    from app.db.extensions import db
    from app.play.invitations import _decline, _pending
    from app.db.models import Seat

    ana, bot = register(client, "ana"), register(client, "robo")
    match_id = client.post("/v1/matches", json={
        "players": 4, "invite": [{"seat": 1, "player_id": bot.id}]},
        headers=ana.headers).json["id"]
    db_execute(app, "UPDATE seats SET joined_at = now() - interval '8 days' WHERE invited")
    with app.app_context():
        try:
            found = _pending(Seat.joined_at <= datetime.now(timezone.utc) - timedelta(days=7))
            assert found == [(match_id, bot.id)]
            # the invitee accepts after the sweep read it, before it declines it
            r = client.post(f"/v1/matches/{match_id}/join", json={}, headers=bot.headers)
            assert r.status_code == 200 and r.json["you"]["seat"] == 1
            assert _decline(found) == 0
        finally:
            db.session.remove()
    view = client.get(f"/v1/matches/{match_id}", headers=bot.headers).json
    assert view["you"] == {"seat": 1, "team": 1} and view["status"] == "waiting"
    events = client.get(f"/v1/matches/{match_id}/events", headers=ana.headers).json["items"]
    assert events[-1]["type"] == "player_joined"


def test_declining_every_invitation_keeps_a_seat_accepted_meanwhile(client: Any,
                                                                    app: Any) -> None:
    """Declining all at once (or blocking the inviter) declines invitations only: a seat
    the player accepted after the list was read is not given up."""
    from app.db.extensions import db
    from app.db.models import Player, Seat
    from app.play.invitations import _decline, _pending

    ana, bot = register(client, "ana"), register(client, "robo")
    match_id = client.post("/v1/matches", json={
        "players": 4, "invite": [{"seat": 1, "player_id": bot.id}]},
        headers=ana.headers).json["id"]
    with app.app_context():
        try:
            found = _pending(Seat.player_id == bot.id)
            assert client.post(f"/v1/matches/{match_id}/join", json={},
                               headers=bot.headers).status_code == 200
            assert db.session.get(Player, bot.id) is not None
            assert _decline(found) == 0
        finally:
            db.session.remove()
    assert db_scalar(app, "SELECT count(*) FROM seats WHERE match_id = :m AND player_id = :p",
                     m=match_id, p=bot.id) == 1
