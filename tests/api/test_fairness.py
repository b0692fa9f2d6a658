"""Auditable deals (API.md, "Auditable deals"): the commitment from creation on, the players'
seeds, commitments fetched first, the secret revealed when the match is finished, fixed
deals without any of it, and matches stored under the seed scheme."""
from __future__ import annotations

import hashlib
import json
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.deal import shuffled_cards
from tests.support.api import (D2, act_ok, assert_problem, client_fetch, create, db_execute,
                               db_scalar, deal, full_match, get_events, get_view, join,
                               register, run_worker, stored_secret)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import verify_deals  # noqa: E402

HEX64 = set("0123456789abcdef")


def _resign(client: Any, match_id: str, player: Any) -> dict[str, Any]:
    r = client.post(f"/v1/matches/{match_id}/resign", headers=player.headers)
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.json


def test_a_match_shows_its_commitment_from_creation_and_each_seat_its_own_seed(
        client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=2, client_seed="ana-77")
    fairness = m["fairness"]
    assert fairness["scheme"] == "truco-commit-v1" and fairness["secret"] is None
    assert len(fairness["commitment"]) == 64 and set(fairness["commitment"]) <= HEX64
    assert fairness["client_seeds"] == ["ana-77", None]
    assert get_view(client, m["id"])["fairness"]["client_seeds"] == [None, None]
    assert get_view(client, m["id"], bob)["fairness"]["client_seeds"] == [None, None]
    secret = stored_secret(app, m["id"])
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == fairness["commitment"]
    r = join(client, m["id"], bob, client_seed="b0b.1")
    assert r.status_code == 200 and r.json["status"] == "active"
    for viewer in (ana, bob, None):
        seen = get_view(client, m["id"], viewer)["fairness"]
        assert seen == {**fairness, "client_seeds": ["ana-77", "b0b.1"]}


def test_bots_and_seats_without_a_seed_have_the_empty_seed(client: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=4, seat=2, client_seed="x_Y.9-z",
               bots=[{"seat": s, "level": "random"} for s in (0, 1, 3)])
    assert m["status"] == "active"
    assert m["fairness"]["client_seeds"] == ["", "", "x_Y.9-z", ""]
    match_id, _ = full_match(client, players=2)
    assert get_view(client, match_id)["fairness"]["client_seeds"] == ["", ""]


def test_an_invited_player_sends_their_seed_when_accepting(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, client_seed="a1", invite=[{"seat": 1, "player_id": bob.id}])
    assert m["fairness"]["client_seeds"] == ["a1", None]
    r = join(client, m["id"], bob, client_seed="b.2")
    assert r.status_code == 200 and r.json["status"] == "active"
    assert r.json["fairness"]["client_seeds"] == ["a1", "b.2"]
    again = join(client, m["id"], bob, client_seed="other")  # seated already: ignored
    assert again.json["fairness"]["client_seeds"] == ["a1", "b.2"]


@pytest.mark.parametrize("seed", ["", "a" * 65, "a b", "ção", "a|b", 7, ["a"]])
def test_a_bad_client_seed_is_422_and_changes_nothing(client: Any, app: Any, seed: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    r = client.post("/v1/matches", json={"client_seed": seed}, headers=ana.headers)
    assert "client_seed" in assert_problem(r, 422, "validation_error")["errors"]
    assert db_scalar(app, "SELECT count(*) FROM matches") == 0
    m = create(client, ana)
    r = join(client, m["id"], bob, client_seed=seed)
    assert "client_seed" in assert_problem(r, 422, "validation_error")["errors"]
    assert get_view(client, m["id"])["status"] == "waiting"
    assert db_scalar(app, "SELECT count(*) FROM seats WHERE match_id = :m", m=m["id"]) == 1


def test_the_longest_seed_is_kept_whole(client: Any) -> None:
    ana = register(client, "ana")
    seed = "A" * 32 + "z" * 29 + "._-"
    m = create(client, ana, client_seed=seed, bots=[{"seat": 1, "level": "random"}])
    assert m["fairness"]["client_seeds"] == [seed, ""]


@pytest.mark.parametrize("fixed", [{"seed": 5}, {"deals": [D2]}])
def test_fixed_deals_have_no_fairness(client: Any, app: Any, fixed: dict[str, Any]) -> None:
    match_id, seated = full_match(client, players=2, **deal(fixed))
    assert get_view(client, match_id, seated[0])["fairness"] is None
    _resign(client, match_id, seated[0])
    assert get_view(client, match_id, seated[0])["fairness"] is None
    assert "deals_revealed" not in [e["type"] for e in get_events(client, match_id, seated[0])]
    assert db_scalar(app, "SELECT config ? 'fairness' FROM matches WHERE id = :m",
                     m=match_id) is False


def test_a_start_score_alone_keeps_the_deals_auditable(client: Any) -> None:
    match_id, seated = full_match(client, players=2, start_score=[11, 5])
    view = get_view(client, match_id, seated[0])
    assert view["fixed_deals"] is True and view["fairness"]["scheme"] == "truco-commit-v1"
    _resign(client, match_id, seated[1])
    view, events = verify_deals.download(client_fetch(client, seated[0]), match_id)
    assert verify_deals.check(view, events) == []


def test_a_commitment_fetched_first_is_the_matchs(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    assert_problem(client.post("/v1/commitments"), 401, "unauthorized")
    before = datetime.now(timezone.utc)
    r = client.post("/v1/commitments", headers=ana.headers)
    assert r.status_code == 201, r.get_data(as_text=True)
    commitment = r.json["commitment"]
    expires = datetime.fromisoformat(r.json["expires_at"].replace("Z", "+00:00"))
    assert timedelta(minutes=9) < expires - before <= timedelta(minutes=10, seconds=5)
    assert set(r.json) == {"commitment", "expires_at", "match_id"}
    m = create(client, ana, commitment=commitment, client_seed="mine",
               bots=[{"seat": 1, "level": "random"}])
    assert m["fairness"]["commitment"] == commitment
    assert m["id"] == r.json["match_id"]  # (the key's id, fixed before the seed was sent)
    secret = stored_secret(app, m["id"])
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == commitment
    r = client.post("/v1/matches", json={"commitment": commitment}, headers=ana.headers)
    assert_problem(r, 409, "commitment_used")
    assert db_scalar(app, "SELECT count(*) FROM matches") == 1


def test_a_player_holds_at_most_twenty_unused_commitments(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    for _ in range(20):
        assert client.post("/v1/commitments", headers=ana.headers).status_code == 201
    assert_problem(client.post("/v1/commitments", headers=ana.headers), 409,
                   "too_many_commitments")
    assert db_scalar(app, "SELECT count(*) FROM commitments") == 20
    db_execute(app, "UPDATE commitments SET expires_at = now() - interval '1 second'")
    assert client.post("/v1/commitments", headers=ana.headers).status_code == 201
    assert db_scalar(app, "SELECT count(*) FROM commitments") == 1  # (the expired are gone)


def test_a_commitment_that_cannot_be_used_is_a_problem_and_changes_nothing(
        client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    mine = client.post("/v1/commitments", headers=ana.headers).json["commitment"]
    cases = [("0" * 64, 422, "commitment_unknown"), ("f" * 63, 422, "validation_error")]
    for commitment, status, code in cases:
        r = client.post("/v1/matches", json={"commitment": commitment}, headers=ana.headers)
        assert_problem(r, status, code)
    r = client.post("/v1/matches", json={"commitment": mine}, headers=bob.headers)
    assert_problem(r, 403, "commitment_not_yours")
    r = client.post("/v1/matches", json={"commitment": mine, "seed": 3}, headers=ana.headers)
    assert "commitment" in assert_problem(r, 422, "validation_error")["errors"]
    r = client.post("/v1/matches", json={"commitment": mine, "options": {"nope": 1}},
                    headers=ana.headers)  # a creation that fails leaves it unused
    assert_problem(r, 422, "validation_error")
    assert db_scalar(app, "SELECT count(*) FROM matches") == 0
    assert db_scalar(app, "SELECT used_at FROM commitments WHERE commitment = :c",
                     c=mine) is None
    db_execute(app, "UPDATE commitments SET expires_at = now() - interval '1 second'")
    r = client.post("/v1/matches", json={"commitment": mine}, headers=ana.headers)
    assert_problem(r, 422, "commitment_expired")
    assert db_scalar(app, "SELECT count(*) FROM matches") == 0
    assert client.post("/v1/commitments", headers=ana.headers).status_code == 201
    r = client.post("/v1/matches", json={"commitment": mine}, headers=ana.headers)
    assert_problem(r, 422, "commitment_unknown")  # (dropped by the fetch)



@pytest.mark.parametrize("players", [2, 4])
def test_the_secret_is_revealed_to_everyone_once_the_match_is_finished(
        client: Any, app: Any, players: int) -> None:
    match_id, seated = full_match(client, players=players)
    secret = stored_secret(app, match_id)
    rng = random.Random(players)
    view = get_view(client, match_id, seated[0])
    for _ in range(6):
        seat = rng.choice(view["hand"]["to_act"])
        mine = get_view(client, match_id, seated[seat])
        act_ok(client, match_id, seated[seat], rng.choice(mine["legal_actions"]))
        view = get_view(client, match_id, seated[0])
        if view["status"] != "active":
            break
    assert view["fairness"]["secret"] is None
    answer = _resign(client, match_id, seated[1])
    assert answer["fairness"]["secret"] == secret
    for viewer in [*seated, None]:
        assert get_view(client, match_id, viewer)["fairness"]["secret"] == secret
        events = get_events(client, match_id, viewer)
        assert events[-1]["type"] == "deals_revealed" and events[-1]["secret"] == secret
        assert [e["type"] for e in events].count("deals_revealed") == 1
    view, events = verify_deals.download(client_fetch(client, seated[0]), match_id)
    assert verify_deals.check(view, events) == []


def test_a_forfeit_by_time_reveals_the_secret(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=2, turn_timeout=600, on_timeout="forfeit")
    view = get_view(client, match_id, seated[0])
    deadline = datetime.fromisoformat(view["deadline"].replace("Z", "+00:00"))
    run_worker(app, now=deadline + timedelta(seconds=1))
    after = get_view(client, match_id, seated[0])
    assert after["status"] == "finished"
    assert after["fairness"]["secret"] == stored_secret(app, match_id)
    assert get_events(client, match_id)[-1]["type"] == "deals_revealed"


def test_a_match_stored_under_the_seed_scheme_deals_from_its_seed_as_before(
        client: Any, app: Any) -> None:
    """A row as stored before truco-commit-v1: no fairness in its config, its state dealt
    from the seed with no scheme recorded. It shows no fairness, deals its next hand from its
    seed and replays to its stored state."""
    from app.play.store import get_match, replay

    match_id, (ana, bob) = full_match(client, players=2)
    seed = db_scalar(app, "SELECT seed FROM matches WHERE id = :m", m=match_id)
    old, _ = engine.new_match(players=2, seed=seed)
    stored = old.to_json()
    del stored["deal_scheme"], stored["deal_key"]
    db_execute(app, "UPDATE matches SET config = config - 'fairness', version = version + 1, "
                    "state = CAST(:state AS jsonb) WHERE id = :m",
               m=match_id, state=json.dumps(stored))
    view = get_view(client, match_id, ana)
    assert view["fairness"] is None and view["hand"]["cards"] == old.hand.hands[0]
    by_seat = {0: ana, 1: bob}
    while view["hand"]["number"] == 1:
        (seat,) = view["hand"]["to_act"]
        mine = get_view(client, match_id, by_seat[seat])
        act_ok(client, match_id, by_seat[seat], {"type": "play", "slot": 0}
               if any(a["type"] == "play" for a in mine["legal_actions"])
               else mine["legal_actions"][0])
        view = get_view(client, match_id, ana)
    hands, vira = shuffled_cards(seed, 2, 2)
    assert view["hand"]["cards"] == hands[0] and view["hand"]["vira"] == vira
    assert get_view(client, match_id, bob)["hand"]["cards"] == hands[1]
    state = db_scalar(app, "SELECT state FROM matches WHERE id = :m", m=match_id)
    assert state["deal_scheme"] == "seed-blake2b"
    with app.app_context():
        assert replay(get_match(match_id)).to_json() == state
