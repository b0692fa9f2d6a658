"""The rules the server checks across a body's fields are in openapi.yaml too, where JSON Schema
can say them: a client (or a fuzzer such as schemathesis) that validates against the spec does
not send a body the spec calls valid and the server refuses, nor the other way round."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMMITMENT = "ab" * 32


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0 to JSON Schema: `nullable: true` becomes a null type beside the others."""
    if isinstance(node, list):
        return [_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _json_schema(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def _validator(component: str) -> Any:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    root = {"$ref": f"#/components/schemas/{component}",
            "components": _json_schema(spec["components"])}
    return jsonschema_rs.Draft7Validator(root)


def _player(client: Any, name: str) -> tuple[dict[str, str], dict[str, Any]]:
    body = client.post("/v1/players", json={"name": name}).get_json()
    return {"Authorization": f"Bearer {body['token']}"}, body


CASES = [
    # (component, method, path, body, the server accepts it)
    ("PlayerUpdate", "patch", "/v1/players/me", {}, False),
    ("PlayerUpdate", "patch", "/v1/players/me", {"name": "Ana"}, True),
    ("WebhookCreate", "post", "/v1/me/webhooks",
     {"url": "https://push.example/t", "events": ["invited", "invited"]}, False),
    ("WebhookCreate", "post", "/v1/me/webhooks",
     {"url": "https://push.example/t", "events": ["invited", "your_turn"]}, True),
    ("MatchCreate", "post", "/v1/matches",
     {"invite": [{"seat": 1, "player_id": "{other}", "handle": "someone"}]}, False),
    ("MatchCreate", "post", "/v1/matches", {"invite": [{"seat": 1}]}, False),
    ("MatchCreate", "post", "/v1/matches", {"invite": [{"seat": 1, "player_id": "{other}"}]},
     True),
    ("MatchCreate", "post", "/v1/matches", {"seed": 7, "commitment": COMMITMENT}, False),
    ("MatchCreate", "post", "/v1/matches",
     {"deals": [{"vira": "4c", "hands": [["5c", "6c", "7c"], ["Qc", "Jc", "Kc"]]}],
      "commitment": COMMITMENT}, False),
    ("MatchCreate", "post", "/v1/matches", {"seed": 7, "commitment": None}, True),
]


@pytest.mark.parametrize(("component", "method", "path", "body", "accepted"), CASES)
def test_the_spec_and_the_server_agree_on_cross_field_rules(
        client: Any, clean_db: None, component: str, method: str, path: str,
        body: dict[str, Any], accepted: bool) -> None:
    auth, _ = _player(client, "Bia")
    _, other = _player(client, "Caio")
    if "invite" in body:
        body = {"invite": [{k: other["id"] if v == "{other}" else v for k, v in i.items()}
                           for i in body["invite"]]}
    if body.get("commitment") is not None:
        made = client.post("/v1/commitments", headers=auth)
        assert made.status_code in (200, 201), made.get_json()
        body = {**body, "commitment": made.get_json()["commitment"]}
    answer = getattr(client, method)(path, headers=auth, json=body)
    assert (answer.status_code < 300) is accepted, answer.get_json()
    if not accepted:
        assert answer.status_code == 422 and answer.get_json()["code"] == "validation_error"
    assert _validator(component).is_valid(body) is accepted, body
