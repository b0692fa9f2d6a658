"""Fuzzing every operation of openapi.yaml with schemathesis against the WSGI app: no 5xx,
and every answer is documented (status code, content type, headers, body schema).

Valid (positive) and invalid (negative) requests. Bounded: a few examples per operation and
mode, derandomized (the same cases every run); long polls
are asked not to wait (`wait=0`), since the test client has no way to wake them.
"""
from __future__ import annotations

import itertools
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode, checks

MAX_EXAMPLES = 15
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]
"""What the spec promises of each answer. Not the stateful or negative-acceptance checks
(`positive_data_acceptance` and friends): a generated match id is rightly a 404."""


def _target(app: Any) -> dict[str, str]:
    """A player's token and id, and an active match of theirs against a `random` bot."""
    client = app.test_client()
    player = client.post("/v1/players", json={"name": "fuzzer"}).get_json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    match = client.post("/v1/matches", headers=auth, json={
        "bots": [{"seat": 1, "level": "random"}]}).get_json()
    return {"token": player["token"], "player_id": player["id"], "match_id": match["id"]}


def _call(case: Any, target: dict[str, str]) -> None:
    """Send `case` as the fuzzing player, on their match (generated ids are only 404s, and
    generated tokens only 401s), without waiting, and check the answer against the spec."""
    if case.query and "wait" in case.query:
        case.query["wait"] = 0
    for name in ("match_id", "player_id"):
        if case.path_parameters and name in case.path_parameters:
            case.path_parameters[name] = target[name]
    response = case.call(headers={"Authorization": f"Bearer {target['token']}"})
    if case.operation.label == "POST /v1/players/me/token" and response.status_code == 200:
        target["token"] = response.json()["token"]  # the old one is retired at once
    # A 304 has no body and no Content-Type; the spec declares it as empty text only so that
    # generated clients keep the 200's type (app/http/schemas/docs.py: not_modified_doc).
    case.validate_response(response, checks=CHECKS if response.status_code != 304 else [
        check for check in CHECKS if check is not checks.content_type_conformance])


def test_every_answer_is_documented(app: Any, clean_db: None) -> None:
    target = _target(app)
    app.config["STREAM_MAX_SECONDS"] = 0  # a stream sends its first messages and ends
    schema = schemathesis.openapi.from_wsgi("/openapi.yaml", app)
    failures: dict[str, str] = {}
    unsatisfiable: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15
    for operation, mode in itertools.product(operations, GenerationMode):

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=MAX_EXAMPLES, derandomize=True, deadline=None,
                  suppress_health_check=list(HealthCheck), database=None)
        def fuzz(case: Any) -> None:
            _call(case, target)

        try:
            fuzz()
        except Unsatisfiable:
            # nothing to make invalid (no parameters, no body): no negative case exists
            assert mode == GenerationMode.NEGATIVE, operation.label
            unsatisfiable.append(operation.label)
        except Exception as exc:  # noqa: BLE001 - gathered, reported together below
            failures[f"{operation.label} ({mode})"] = str(exc)[:3000]
    assert failures == {}
    assert sorted(unsatisfiable) == ["GET /healthz", "GET /readyz",
                                     "GET /v1/matches/{match_id}/ratings",
                                     "GET /v1/players/{player_id}", "GET /v1/rulesets"]
