"""RULES.md §14 scenarios (tests/support/scenarios.py) run against the engine."""
from __future__ import annotations

import json

import pytest

import engine
from tests.support.scenario_runner import run_scenario
from tests.support.scenarios import SCENARIOS


def _jsonish(value):
    """What the service would send: the view through a JSON round trip (int keys become strings)."""
    return json.loads(json.dumps(value))


class EngineDriver:
    """The scenario-runner driver for the pure engine (docs/engine-api.md)."""

    volatile_keys = ()

    def __init__(self):
        self.state = None

    def create(self, setup: dict) -> None:
        self.state, _events = engine.new_match(
            players=setup.get("players", 2),
            ruleset=setup.get("ruleset", "paulista"),
            options=setup.get("options", {}),
            seed=setup.get("seed", 0),
            deals=setup.get("deals"),
            start_score=setup.get("start_score"),
        )

    def act(self, seat: int, action: dict) -> str | None:
        try:
            self.state, _events = engine.apply(self.state, seat, dict(action))
        except engine.IllegalAction as e:
            return e.reason
        except engine.InvalidAction:
            return "validation_error"
        return None

    def view(self, seat: int | None) -> dict:
        v = _jsonish(engine.view(self.state, seat))
        if seat is not None:
            # The view's legal_actions must be what legal_actions() says (docs/engine-api.md).
            direct = sorted(json.dumps(a, sort_keys=True)
                            for a in _jsonish(engine.legal_actions(self.state, seat)))
            shown = sorted(json.dumps(a, sort_keys=True) for a in v.get("legal_actions") or [])
            assert direct == shown, (
                f"view(state, {seat})['legal_actions'] {shown}"
                f" != legal_actions(state, {seat}) {direct}")
        return v


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario):
    run_scenario(scenario, EngineDriver())
