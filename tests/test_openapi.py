"""openapi.yaml is generated from the code and committed: it must be in sync, and complete."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _generate() -> str:
    spec = importlib.util.spec_from_file_location("gen_openapi", ROOT / "scripts/gen_openapi.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generate()


def test_committed_openapi_matches_the_code() -> None:
    committed = (ROOT / "openapi.yaml").read_text()
    assert committed == _generate(), "run: python scripts/gen_openapi.py"


def test_openapi_lists_every_api_md_endpoint() -> None:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    expected = {
        ("post", "/v1/players"), ("get", "/v1/players/me"), ("get", "/v1/players/{player_id}"),
        ("get", "/v1/me/matches"), ("post", "/v1/matches"), ("get", "/v1/matches"),
        ("get", "/v1/matches/{match_id}"), ("post", "/v1/matches/{match_id}/join"),
        ("post", "/v1/matches/{match_id}/leave"), ("post", "/v1/matches/{match_id}/resign"),
        ("post", "/v1/matches/{match_id}/actions"), ("get", "/v1/matches/{match_id}/events"),
        ("get", "/v1/rulesets"), ("get", "/healthz"), ("get", "/readyz"),
    }
    found = {(method, path) for path, item in spec["paths"].items() for method in item}
    assert expected <= found, expected - found
    action = spec["paths"]["/v1/matches/{match_id}/actions"]["post"]
    headers = {p["name"] for p in action["parameters"] if p["in"] == "header"}
    assert {"If-Match", "Idempotency-Key"} <= headers
    assert action["security"] == [{"bearerAuth": []}]
    view = spec["components"]["schemas"]["MatchView"]["properties"]
    for field in ("id", "version", "fixed_deals", "deadline", "seats", "score", "games",
                  "winner_team", "you", "hand", "last_hand", "legal_actions", "rules"):
        assert field in view, field
