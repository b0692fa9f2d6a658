"""RULES.md §14 scenarios played over HTTP: one registered player per seat."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.scenario_runner import run_scenario
from tests.support.scenarios import SCENARIOS


class ApiDriver:
    """Plays a scenario through the public API, each seat with its own token."""

    volatile_keys = ("deadline", "updated_at")

    def __init__(self, client: Any) -> None:
        self.client = client
        self.tokens: list[str] = []
        self.match_id = ""

    def _auth(self, seat: int | None) -> dict[str, str]:
        return {} if seat is None else {"Authorization": f"Bearer {self.tokens[seat]}"}

    def create(self, setup: dict[str, Any]) -> None:
        players = setup.get("players", 2)
        for seat in range(players):
            r = self.client.post("/v1/players", json={"name": f"seat {seat}"})
            assert r.status_code == 201, r.json
            self.tokens.append(r.json["token"])
        r = self.client.post("/v1/matches", json={**setup, "seat": 0}, headers=self._auth(0))
        assert r.status_code == 201, r.json
        self.match_id = r.json["id"]
        for seat in range(1, players):
            r = self.client.post(f"/v1/matches/{self.match_id}/join", json={"seat": seat},
                                 headers=self._auth(seat))
            assert r.status_code == 200, r.json
        assert r.json["status"] == "active"

    def act(self, seat: int, action: dict[str, Any]) -> str | None:
        r = self.client.post(f"/v1/matches/{self.match_id}/actions", json=action,
                             headers=self._auth(seat))
        if r.status_code == 200:
            return None
        assert r.headers["Content-Type"] == "application/problem+json"
        if r.status_code == 422 and r.json["code"] == "illegal_action":
            return r.json["reason"]
        return r.json["code"]

    def view(self, seat: int | None) -> dict[str, Any]:
        r = self.client.get(f"/v1/matches/{self.match_id}", headers=self._auth(seat))
        assert r.status_code == 200, r.json
        return r.json


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario_over_http(scenario: Any, client: Any, clean_db: None) -> None:
    run_scenario(scenario, ApiDriver(client))
