"""POST /v1/matches/{id}/rematch: the same players, ruleset, options and turn rules, every
seat moved on by one, the other players invited, the bots in their seats; one rematch per
match, whoever asks."""
from __future__ import annotations

from typing import Any

from tests.support.api import (assert_problem, create, db_scalar, full_match, get_view, join,
                               my_matches, register)


def rematch(client: Any, match_id: str, player: Any) -> Any:
    return client.post(f"/v1/matches/{match_id}/rematch", headers=player.headers)


def finished_match(client: Any, players: int = 2, **setup: Any) -> tuple[str, list[Any]]:
    match_id, seated = full_match(client, players, **setup)
    r = client.post(f"/v1/matches/{match_id}/resign", headers=seated[1].headers)
    assert r.status_code == 200 and r.json["status"] == "finished"
    return match_id, seated


def test_the_rematch_moves_every_seat_on_and_invites_the_others(client: Any) -> None:
    setup = {"turn_timeout": 3600, "on_timeout": "forfeit", "ruleset": "mineiro",
             "options": {"first_dealer": 2}}
    old_id, seated = finished_match(client, 4, **setup)
    r = rematch(client, old_id, seated[2])
    assert r.status_code == 201, r.get_data(as_text=True)
    new = r.json
    assert r.headers["Location"] == f"/v1/matches/{new['id']}" and new["id"] != old_id
    assert new["status"] == "waiting" and new["you"] == {"seat": 3, "team": 1}
    assert [(s["seat"], s["player"]["id"], s["invited"]) for s in new["seats"]] == [
        (0, seated[3].id, True), (1, seated[0].id, True), (2, seated[1].id, True),
        (3, seated[2].id, False)]
    assert (new["ruleset"], new["turn_timeout"], new["on_timeout"]) == (
        "mineiro", 3600, "forfeit")
    assert new["rules"]["first_dealer"] == 2 and new["fixed_deals"] is False
    assert get_view(client, old_id, seated[0])["rematch_id"] == new["id"]
    assert get_view(client, old_id)["rematch_id"] == new["id"]  # spectators see it too
    (invited,) = [i for i in my_matches(client, seated[0]) if i["id"] == new["id"]]
    assert invited["invitation"] is True


def test_bots_keep_playing_from_their_next_seat(client: Any) -> None:
    ana = register(client, "ana")
    old = create(client, ana, players=4, seat=0, bots=[
        {"seat": 1, "level": "easy"}, {"seat": 2, "level": "random"},
        {"seat": 3, "level": "medium"}])
    r = client.post(f"/v1/matches/{old['id']}/resign", headers=ana.headers)
    assert r.status_code == 200
    new = rematch(client, old["id"], ana).json
    assert [s["bot_level"] for s in new["seats"]] == ["medium", None, "easy", "random"]
    assert new["you"]["seat"] == 1 and new["status"] == "active"  # nobody to wait for


def test_asking_again_by_anyone_gives_the_same_match(client: Any, app: Any) -> None:
    old_id, (ana, bia) = finished_match(client, 2)
    first = rematch(client, old_id, ana)
    version = get_view(client, old_id, ana)["version"]
    again, other = rematch(client, old_id, ana), rematch(client, old_id, bia)
    assert first.status_code == 201 and again.status_code == other.status_code == 200
    assert first.json["id"] == again.json["id"] == other.json["id"]
    assert again.json == first.json
    assert other.headers["Location"] == f"/v1/matches/{first.json['id']}"
    assert get_view(client, old_id, ana)["version"] == version
    assert db_scalar(app, "SELECT count(*) FROM matches") == 2


def test_a_rematch_accepted_by_every_invited_seat_starts(client: Any) -> None:
    old_id, seated = finished_match(client, 4)
    new_id = rematch(client, old_id, seated[0]).json["id"]
    for player in seated[1:]:
        r = join(client, new_id, player)
        assert r.status_code == 200, r.get_data(as_text=True)
    view = get_view(client, new_id, seated[0])
    assert view["status"] == "active" and view["you"]["seat"] == 1
    assert [s["player"]["id"] for s in view["seats"]] == [seated[3].id] + [
        p.id for p in seated[:3]]


def test_only_a_finished_match_has_a_rematch(client: Any, app: Any) -> None:
    match_id, (ana, _) = full_match(client, 2)
    assert_problem(rematch(client, match_id, ana), 409, "match_not_finished")
    waiting = create(client, ana, players=2)
    assert_problem(rematch(client, waiting["id"], ana), 409, "match_not_finished")
    assert db_scalar(app, "SELECT count(*) FROM matches") == 2
    assert get_view(client, match_id, ana)["rematch_id"] is None
    # a cancelled match (its creator left, so nobody holds a seat) is not finished either
    assert client.post(f"/v1/matches/{waiting['id']}/leave", headers=ana.headers).status_code \
        == 200
    assert get_view(client, waiting["id"])["status"] == "cancelled"
    assert_problem(rematch(client, waiting["id"], ana), 409, "match_not_finished")
    assert db_scalar(app, "SELECT count(*) FROM matches") == 2


def test_only_its_players_may_ask(client: Any, app: Any) -> None:
    old_id, (ana, _) = finished_match(client, 2)
    carla = register(client, "carla")
    assert_problem(rematch(client, old_id, carla), 403, "not_a_player")
    assert_problem(client.post(f"/v1/matches/{old_id}/rematch"), 401, "unauthorized")
    assert_problem(rematch(client, "m_nosuchmatch", carla), 404, "match_not_found")
    assert db_scalar(app, "SELECT count(*) FROM matches") == 1
    # once it exists, asking again gives it to anyone (API.md), as a spectator sees it
    made = rematch(client, old_id, ana).json
    again = rematch(client, old_id, carla)
    assert again.status_code == 200 and again.json["id"] == made["id"]
    assert again.json == get_view(client, made["id"], carla) and again.json["you"] is None
    assert_problem(client.post(f"/v1/matches/{old_id}/rematch"), 401, "unauthorized")
    assert db_scalar(app, "SELECT count(*) FROM matches") == 2


def test_a_rematch_made_by_a_request_that_died_before_naming_it_is_found_again(
        client: Any, app: Any) -> None:
    from sqlalchemy import text

    from app.db.extensions import db

    old_id, (ana, bia) = finished_match(client, 2)
    made = rematch(client, old_id, ana).json["id"]
    with app.app_context():  # as if the request had died after creating, before naming it
        db.session.execute(text("UPDATE matches SET rematch_id = NULL WHERE id = :m"),
                           {"m": old_id})
        db.session.commit()
    assert get_view(client, old_id, bia)["rematch_id"] is None
    again = rematch(client, old_id, bia)
    assert again.status_code == 200 and again.json["id"] == made
    assert get_view(client, old_id, bia)["rematch_id"] == made
    assert db_scalar(app, "SELECT count(*) FROM matches") == 2


def test_a_rematch_is_refused_as_its_creation_would_be(client: Any, app: Any) -> None:
    """The rematch is a creation by its asker: a player who blocked them is not invited
    (403 blocked, nothing made); asked by the player who blocked, it is made."""
    old_id, (ana, bia) = finished_match(client, 2)
    assert client.put(f"/v1/me/blocks/{ana.id}", headers=bia.headers).status_code == 200
    body = assert_problem(rematch(client, old_id, ana), 403, "blocked")
    assert body["player_id"] == bia.id
    assert get_view(client, old_id, ana)["rematch_id"] is None
    assert db_scalar(app, "SELECT count(*) FROM matches") == 1
    made = rematch(client, old_id, bia)
    assert made.status_code == 201 and made.json["you"] == {"seat": 0, "team": 0}
    again = rematch(client, old_id, ana)  # the invited player: the same match, as its view
    assert again.status_code == 200 and again.json["id"] == made.json["id"]
    assert again.json["seats"][1]["player"]["id"] == ana.id
    assert again.json["seats"][1]["invited"] is True


def test_a_rematch_has_fresh_auditable_deals_and_takes_the_invited_seeds(client: Any) -> None:
    old_id, (ana, bia) = finished_match(client, 2, seed=7)  # (a fixed-deal match)
    new = rematch(client, old_id, ana).json
    assert new["fixed_deals"] is False and new["fairness"]["secret"] is None
    assert new["fairness"]["client_seeds"] == [None, ""]  # ana's seat is 1 now
    assert join(client, new["id"], bia, client_seed="bia-9").status_code == 200
    assert get_view(client, new["id"], ana)["fairness"]["client_seeds"] == ["bia-9", ""]
