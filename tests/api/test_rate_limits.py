"""Rate limits on registration (per address), actions and match creation (per player), shared
by every process through PostgreSQL: 429 problem+json. And the cap on waiting matches."""
from __future__ import annotations

import time
from typing import Any

import pytest

from app import create_app
from tests.support.api import db_execute, run_worker

LIMITS = {"RATE_LIMIT_REGISTER": "3/60", "RATE_LIMIT_ACTION": "2/60",
          "RATE_LIMIT_CREATE": "4/60"}


def _limited_app(database_url: str, **config: Any) -> Any:
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url,
                       **LIMITS, **config})


@pytest.fixture()
def limited_app(database_url: str, clean_db: None) -> Any:
    return _limited_app(database_url)


@pytest.fixture()
def limited_client(limited_app: Any) -> Any:
    return limited_app.test_client()


def test_registration_is_limited_per_address(limited_client: Any) -> None:
    codes = [limited_client.post("/v1/players", json={"name": f"p{i}"}).status_code
             for i in range(4)]
    assert codes == [201, 201, 201, 429]
    r = limited_client.post("/v1/players", json={"name": "late"})
    assert r.status_code == 429
    assert r.headers["Content-Type"] == "application/problem+json"
    assert r.json["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
    assert type(r.json["retry_after"]) is int  # whole seconds, as openapi.yaml says
    assert r.json["retry_after"] == int(r.headers["Retry-After"])


def test_actions_are_limited_per_player_and_a_limited_action_changes_nothing(
        limited_app: Any, limited_client: Any) -> None:
    token = limited_client.post("/v1/players", json={"name": "ana"}).json["token"]
    auth = {"Authorization": f"Bearer {token}"}
    match = limited_client.post("/v1/matches", headers=auth, json={
        "players": 2, "bots": [{"seat": 1, "level": "random"}], "seed": 3}).json
    url = f"/v1/matches/{match['id']}/actions"
    statuses = []
    for _ in range(3):
        run_worker(limited_app)  # the bot's answers
        view = limited_client.get(f"/v1/matches/{match['id']}", headers=auth).json
        r = limited_client.post(url, headers=auth, json=view["legal_actions"][0])
        statuses.append(r.status_code)
    assert statuses == [200, 200, 429]
    after = limited_client.get(f"/v1/matches/{match['id']}", headers=auth).json
    assert after["version"] == view["version"]


@pytest.mark.parametrize("kept_as_jsonb", [False, True])
def test_a_retry_over_the_action_limit_gets_its_stored_answer(
        limited_app: Any, limited_client: Any, kept_as_jsonb: bool) -> None:
    """A client that lost the answer to an action retries with its Idempotency-Key: over the
    limit it still gets the answer stored for that key (a new key or no key gets 429, and a
    key sent with another body 422), and nothing is applied twice. So does a record kept
    as JSONB, as before migration 0010."""
    token = limited_client.post("/v1/players", json={"name": "ana"}).json["token"]
    auth = {"Authorization": f"Bearer {token}"}
    match = limited_client.post("/v1/matches", headers=auth, json={
        "players": 2, "bots": [{"seat": 1, "level": "random"}], "seed": 3,
        "options": {"first_dealer": 1}}).json  # (ana leads: her turn at once)
    url = f"/v1/matches/{match['id']}/actions"
    action = match["legal_actions"][0]
    first = limited_client.post(url, headers={**auth, "Idempotency-Key": "k1"}, json=action)
    assert first.status_code == 200
    if kept_as_jsonb:
        db_execute(limited_app, "UPDATE idempotency_records SET response = answer::jsonb,"
                   " answer = NULL")
    retries = [limited_client.post(url, headers={**auth, "Idempotency-Key": "k1"}, json=action)
               for _ in range(3)]  # (the limit is 2 a minute: the last two are over it)
    assert [r.status_code for r in retries] == [200, 200, 200]
    assert all(r.headers["Idempotent-Replayed"] == "true" and r.json == first.json
               for r in retries)
    fresh = limited_client.post(url, headers={**auth, "Idempotency-Key": "k2"}, json=action)
    bare = limited_client.post(url, headers=auth, json=action)
    assert fresh.status_code == bare.status_code == 429
    assert action["type"] == "play"
    reused = limited_client.post(url, headers={**auth, "Idempotency-Key": "k1"},
                                 json={"type": "raise"})
    assert reused.status_code == 422 and reused.json["code"] == "idempotency_key_reused"
    after = limited_client.get(f"/v1/matches/{match['id']}", headers=auth).json
    assert after["version"] == first.json["version"]


def test_limits_are_shared_by_every_process(database_url: str, clean_db: None) -> None:
    """Two apps (as two worker processes would be) count against one window."""
    one, two = (_limited_app(database_url).test_client() for _ in range(2))
    codes = [c.post("/v1/players", json={"name": f"p{i}"}).status_code
             for i, c in enumerate([one, two, one, two])]
    assert codes == [201, 201, 201, 429]


def test_retry_after_is_a_whole_number_of_seconds(limited_client: Any) -> None:
    for i in range(4):
        r = limited_client.post("/v1/players", json={"name": f"p{i}"})
    assert r.status_code == 429
    assert isinstance(r.json["retry_after"], int) and 1 <= r.json["retry_after"] <= 60
    assert r.headers["Retry-After"] == str(r.json["retry_after"])


def test_a_window_starts_again_after_its_period(database_url: str, clean_db: None) -> None:
    client = _limited_app(database_url, RATE_LIMIT_REGISTER="1/0.5").test_client()
    assert client.post("/v1/players", json={"name": "a"}).status_code == 201
    assert client.post("/v1/players", json={"name": "b"}).status_code == 429
    time.sleep(0.6)
    assert client.post("/v1/players", json={"name": "c"}).status_code == 201


def test_match_creation_is_limited_per_player(limited_client: Any) -> None:
    auth = {"Authorization": "Bearer "
            + limited_client.post("/v1/players", json={"name": "ana"}).json["token"]}
    codes = [limited_client.post("/v1/matches", headers=auth,
                                 json={"visibility": "private"}).status_code for _ in range(5)]
    assert codes == [201, 201, 201, 201, 429]


def test_waiting_matches_per_player_are_capped(database_url: str, clean_db: None) -> None:
    client = _limited_app(database_url, RATE_LIMIT_CREATE="", MAX_WAITING_MATCHES=3
                          ).test_client()
    auth = {"Authorization": "Bearer "
            + client.post("/v1/players", json={"name": "ana"}).json["token"]}
    made = [client.post("/v1/matches", headers=auth, json={}) for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 201]
    over = client.post("/v1/matches", headers=auth, json={})
    assert over.status_code == 409 and over.json["code"] == "too_many_waiting_matches"
    # a match against a bot starts at once and never waits: still allowed
    bot = client.post("/v1/matches", headers=auth,
                      json={"bots": [{"seat": 1, "level": "random"}]})
    assert bot.status_code == 201 and bot.json["status"] == "active"
    # leaving one frees a place
    assert client.post(f"/v1/matches/{made[0].json['id']}/leave", headers=auth).status_code == 200
    assert client.post("/v1/matches", headers=auth, json={}).status_code == 201


def test_malformed_requests_count_toward_the_limits_too(database_url: str,
                                                        clean_db: None) -> None:
    """A body refused as malformed (422 validation_error, a body that is not JSON too)
    still counts ("A refused or failed request still counts"), and over the limit is a 429
    that changes nothing, like any request; a well-formed one over it is refused as well."""
    app = _limited_app(database_url, RATE_LIMIT_SEAT="2/60")
    client = app.test_client()
    assert [client.post("/v1/players", json={"name": ""}).status_code,
            client.post("/v1/players", data="{", content_type="application/json").status_code,
            client.post("/v1/players", json={"name": "ana"}).status_code,
            client.post("/v1/players", json={"name": "bia"}).status_code] == [422, 422, 201, 429]
    token = client.post("/v1/players", json={"name": "ana"}, environ_base={
        "REMOTE_ADDR": "10.0.0.2"}).json["token"]
    auth = {"Authorization": f"Bearer {token}"}
    creates = [client.post("/v1/matches", headers=auth, json={"players": 3}).status_code
               for _ in range(4)]
    assert creates == [422, 422, 422, 422]
    refused = client.post("/v1/matches", headers=auth, json={"players": 2})
    assert (refused.status_code, refused.json["code"]) == (429, "rate_limited")
    other = client.post("/v1/players", json={"name": "cy"}, environ_base={
        "REMOTE_ADDR": "10.0.0.3"}).json["token"]
    other_auth = {"Authorization": f"Bearer {other}"}
    match = client.post("/v1/matches", headers=other_auth, json={
        "players": 2, "bots": [{"seat": 1, "level": "random"}], "seed": 3}).json
    url = f"/v1/matches/{match['id']}/actions"
    run_worker(app)
    view = client.get(f"/v1/matches/{match['id']}", headers=other_auth).json
    actions = [client.post(url, headers=other_auth, json={"type": "fold"}).status_code
               for _ in range(2)]
    assert actions == [422, 422]
    over = client.post(url, headers=other_auth, json=view["legal_actions"][0])
    assert (over.status_code, over.json["code"]) == (429, "rate_limited")
    bad_over = client.post(url, headers=other_auth, json={"type": "fold"})
    assert bad_over.status_code == 429  # (over the limit, a malformed one is no different)
    after = client.get(f"/v1/matches/{match['id']}", headers=other_auth).json
    assert after["version"] == view["version"]
    waiting = client.post("/v1/matches", headers=other_auth, json={"players": 2}).json
    joins = [client.post(f"/v1/matches/{waiting['id']}/join", headers=auth,
                         json={"seat": "one"}).status_code for _ in range(2)]
    assert joins == [422, 422]
    joined = client.post(f"/v1/matches/{waiting['id']}/join", headers=auth, json={})
    assert (joined.status_code, joined.json["code"]) == (429, "rate_limited")
