"""Rate limits on registration (per address) and actions (per player): 429 problem+json."""
from __future__ import annotations

from typing import Any

import pytest

from app import create_app
from app.ratelimit import _windows


@pytest.fixture()
def limited_client(database_url: str, clean_db: None) -> Any:
    _windows.clear()
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url,
                      "RATE_LIMIT_REGISTER": "3/60", "RATE_LIMIT_ACTION": "2/60"})
    yield app.test_client()
    _windows.clear()


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
        limited_client: Any) -> None:
    token = limited_client.post("/v1/players", json={"name": "ana"}).json["token"]
    auth = {"Authorization": f"Bearer {token}"}
    match = limited_client.post("/v1/matches", headers=auth, json={
        "players": 2, "bots": [{"seat": 1, "level": "random"}], "seed": 3}).json
    url = f"/v1/matches/{match['id']}/actions"
    statuses = []
    for _ in range(3):
        view = limited_client.get(f"/v1/matches/{match['id']}", headers=auth).json
        r = limited_client.post(url, headers=auth, json=view["legal_actions"][0])
        statuses.append(r.status_code)
    assert statuses == [200, 200, 429]
    after = limited_client.get(f"/v1/matches/{match['id']}", headers=auth).json
    assert after["version"] == view["version"]
