"""openapi.yaml is generated from the code and committed: it must be in sync, and complete."""
from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.http.schemas import base, inputs
from engine.actions import _FIELDS
from tests.support.spec import event_types_written

ROOT = Path(__file__).resolve().parents[2]


def _generate() -> str:
    spec = importlib.util.spec_from_file_location("gen_openapi", ROOT / "scripts/gen_openapi.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generate()


def _spec() -> dict[str, Any]:
    spec: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    return spec


def _parameters(spec: dict[str, Any], path: str, method: str) -> list[dict[str, Any]]:
    """An operation's parameters, its path's included."""
    item = spec["paths"][path]
    return item.get("parameters", []) + item[method].get("parameters", [])


def test_committed_openapi_matches_the_code() -> None:
    committed = (ROOT / "openapi.yaml").read_text()
    assert committed == _generate(), "run: python scripts/gen_openapi.py"


def test_openapi_lists_every_api_md_endpoint() -> None:
    spec = _spec()
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
    headers = {p["name"] for p in _parameters(spec, "/v1/matches/{match_id}/actions", "post")
               if p["in"] == "header"}
    assert {"If-Match", "Idempotency-Key"} <= headers
    assert action["security"] == [{"bearerAuth": []}]
    view = spec["components"]["schemas"]["MatchView"]["properties"]
    for field in ("id", "version", "fixed_deals", "deadline", "seats", "score", "games",
                  "winner_team", "you", "hand", "last_hand", "legal_actions", "rules"):
        assert field in view, field


LINKED = {
    ("/v1/players", "post", "201"): {"getPlayer", "blockPlayer", "unblockPlayer"},
    ("/v1/matches", "post", "201"): {
        "getMatch", "listEvents", "streamMatch", "sendAction", "joinMatch", "leaveMatch",
        "resignMatch", "createRematch", "getReplay"},
    ("/v1/me/webhooks", "post", "201"): {"getWebhook", "updateWebhook", "rotateWebhookSecret",
                                         "deleteWebhook"},
}


def test_created_resources_link_to_what_takes_their_id() -> None:
    """OpenAPI links (what schemathesis and client generators follow): from a registration,
    a match made (created, a rematch) and a webhook, to every operation that takes its `id`
    as a path parameter; each link names an operation there is and a path parameter it has,
    and the answer it starts from has an `id`."""
    spec = _spec()
    operations = {op["operationId"]: (path, method) for path, item in spec["paths"].items()
                  for method, op in item.items() if method != "parameters"}
    rematch = ("/v1/matches/{match_id}/rematch", "post")
    expected = {**LINKED, **{(*rematch, status): LINKED["/v1/matches", "post", "201"]
                             for status in ("200", "201")}}
    for (path, method, status), targets in expected.items():
        response = spec["paths"][path][method]["responses"][status]
        ref = response["content"]["application/json"]["schema"]["$ref"]
        assert "id" in spec["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
        links = response.get("links", {})
        assert {link["operationId"] for link in links.values()} == targets, (path, status)
        for link in links.values():
            target = operations[link["operationId"]]
            path_params = {p["name"] for p in _parameters(spec, *target) if p["in"] == "path"}
            assert set(link["parameters"]) <= path_params and link["parameters"], link
            assert set(link["parameters"].values()) == {"$response.body#/id"}, link


QUERY_SCHEMAS = {
    ("/v1/me/matches", "get"): "MyMatchesQuerySchema",
    ("/v1/matches/{match_id}", "get"): "WaitQuerySchema",
    ("/v1/matches", "get"): "LobbyQuerySchema",
    ("/v1/matches/{match_id}/events", "get"): "EventsQuerySchema",
}


@pytest.mark.parametrize(("path", "method"), list(QUERY_SCHEMAS))
def test_every_query_parameter_is_documented_beside_the_headers(path: str, method: str) -> None:
    schema = getattr(inputs, QUERY_SCHEMAS[(path, method)])()
    params = _parameters(_spec(), path, method)
    assert {p["name"] for p in params if p["in"] == "query"} == set(schema.fields)
    if path in ("/v1/me/matches", "/v1/matches/{match_id}"):
        assert "If-None-Match" in {p["name"] for p in params if p["in"] == "header"}


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_nullable_objects_are_typed_references() -> None:
    spec = _spec()
    for node in _walk(spec):
        assert "anyOf" not in node or all("$ref" in s for s in node["anyOf"]), node
        if node.get("nullable") and "type" not in node:
            assert len(node["allOf"]) == 1 and set(node["allOf"][0]) == {"$ref"}, node
    view = spec["components"]["schemas"]["MatchView"]["properties"]
    assert view["hand"] == {"allOf": [{"$ref": "#/components/schemas/Hand"}], "nullable": True}


def test_actions_are_a_oneof_with_exactly_the_fields_the_engine_reads() -> None:
    components = _spec()["components"]["schemas"]
    action = components["Action"]
    assert action["discriminator"]["propertyName"] == "type"
    mapping = action["discriminator"]["mapping"]
    assert set(mapping) == set(_FIELDS)
    assert [ref["$ref"] for ref in action["oneOf"]] == list(mapping.values())
    for kind, ref in mapping.items():
        variant = components[ref.rsplit("/", 1)[1]]
        assert set(variant["properties"]) == _FIELDS[kind], kind
        assert variant["properties"]["type"]["enum"] == [kind]
        assert variant["additionalProperties"] is False  # the server refuses other fields


def test_every_event_type_has_its_schema() -> None:
    event = _spec()["components"]["schemas"]["Event"]
    mapping = event["discriminator"]["mapping"]
    written = event_types_written()
    assert {"player_joined", "player_left", "match_cancelled", "match_started", "hand_dealt",
            "card_played", "hand_won", "match_won"} <= written
    assert written <= set(mapping), written - set(mapping)
    assert set(mapping) == written


def test_error_answers_of_actions_have_problem_schemas_and_headers() -> None:
    spec = _spec()
    responses = spec["paths"]["/v1/matches/{match_id}/actions"]["post"]["responses"]

    def schema(status: str) -> Any:
        return responses[status]["content"]["application/problem+json"]["schema"]

    assert schema("412") == {"$ref": "#/components/schemas/VersionMismatchProblem"}
    assert schema("429") == {"$ref": "#/components/schemas/RateLimitedProblem"}
    assert [s["$ref"].rsplit("/", 1)[1] for s in schema("422")["anyOf"]] == [
        "IllegalActionProblem", "ValidationProblem", "Problem"]
    assert set(responses["200"]["headers"]) == {"ETag", "Idempotent-Replayed"}
    assert set(responses["412"]["headers"]) == {"ETag"}
    assert set(responses["429"]["headers"]) == {"Retry-After"}
    components = spec["components"]["schemas"]
    assert components["RateLimitedProblem"]["properties"]["retry_after"]["type"] == "integer"
    assert {"reason", "legal_actions"} <= set(components["IllegalActionProblem"]["required"])
    created = spec["paths"]["/v1/matches"]["post"]["responses"]["201"]
    assert set(created["headers"]) == {"ETag", "Location"}
    assert set(spec["components"]["headers"]) == {"ETag", "Location", "Retry-After",
                                                  "Idempotent-Replayed"}


def test_patterns_are_ecma_regexes_that_accept_what_the_server_accepts() -> None:
    """OpenAPI patterns are ECMA-262: Python's \\A and \\Z anchors mean the letters A and Z
    there, so a client that validates with them refuses every real value (a commitment)."""
    patterns = [node["pattern"] for node in _walk(_spec()) if isinstance(node.get("pattern"), str)]
    assert patterns
    for pattern in patterns:
        assert "\\A" not in pattern and "\\Z" not in pattern and "(?P" not in pattern, pattern
    commitment = _spec()["components"]["schemas"]["MatchCreate"]["properties"]["commitment"]
    assert re.fullmatch(commitment["pattern"].strip("^$"), "9f" * 32)


def test_a_webhook_url_has_the_pattern_every_url_the_server_accepts_has() -> None:
    """Fuzzers made "0000..." from a bare string and had it refused (422): the spec says
    what the server requires of the URL's form (http or https, `//`, no space)."""
    from app.http.schemas.webhooks import WEBHOOK_EXAMPLES
    from app.webhooks.urls import UnsafeUrl, parse

    url = _spec()["components"]["schemas"]["WebhookCreate"]["properties"]["url"]
    for example in WEBHOOK_EXAMPLES.values():
        assert re.search(url["pattern"], example["url"])
    for value in ("0" * 64, "ftp://host/x", "https:host", "https://", "https://a b",
                  " https://a", "mailto:x@y"):
        assert not re.search(url["pattern"], value), value
        with pytest.raises(UnsafeUrl):
            parse(value, allow_http=True)
    for value in ("HTTP://a", "http://[::1]:8080/x?y=1#z", "https://xn--bcher-kva.example/"):
        parse(value, allow_http=True)
        assert re.search(url["pattern"], value), value


def test_every_integer_query_parameter_has_the_bounds_the_server_reads() -> None:
    """A query integer is at most 18 digits (QueryInteger): `after=167902286571129274368000`
    was spec-valid (no maximum) and refused as not an integer. Every integer parameter
    states its bounds; those of the events' `after` and the replay's `step` are the 18
    digits QueryInteger reads."""
    eighteen_digits = set()
    limit = base.QueryInteger.LIMIT
    assert base.QueryInteger().deserialize(str(limit)) == limit
    with pytest.raises(Exception, match="Not a valid integer"):
        base.QueryInteger().deserialize(str(limit + 1))
    for path, item in _spec()["paths"].items():
        for method, op in item.items():
            params = item.get("parameters", []) + (
                op.get("parameters", []) if method != "parameters" else [])
            for p in params:
                schema = p.get("schema", {})
                if p["in"] == "query" and schema.get("type") == "integer":
                    assert "maximum" in schema and "minimum" in schema, (method, p["name"])
                    if schema["maximum"] == limit:
                        eighteen_digits.add((path, p["name"]))
    assert eighteen_digits == {("/v1/matches/{match_id}/events", "after"),
                               ("/v1/matches/{match_id}/replay", "step")}


def test_every_failure_api_md_names_is_declared_with_its_code() -> None:
    """API.md's statuses are in the spec, each a problem naming its code: 401 wherever a token
    is read, the actions' 401, 403, 404, 409, 412 and 422, 404 on every operation on a match
    and on a player's profile, 403 `fixed_deals_disabled` at creation."""
    spec = _spec()
    operations = {op["operationId"]: op for item in spec["paths"].values()
                  for method, op in item.items() if method in ("get", "post", "put", "patch",
                                                               "delete")}

    def declared(operation: str, status: str, code: str) -> None:
        response = operations[operation]["responses"].get(status)
        assert response is not None, (operation, status)
        assert code in response["description"], (operation, status, response["description"])
        assert "application/problem+json" in response["content"], (operation, status)

    for name, op in operations.items():
        if op.get("security"):
            declared(name, "401", "unauthorized")
    for status, code in [("403", "not_a_player"), ("404", "match_not_found"),
                         ("409", "match_not_active"), ("412", "version_mismatch"),
                         ("422", "illegal_action"), ("422", "validation_error")]:
        declared("sendAction", status, code)
    for name in ("getMatch", "listEvents", "streamMatch", "getReplay", "joinMatch",
                 "leaveMatch", "resignMatch", "createRematch"):
        declared(name, "404", "match_not_found")
    declared("joinMatch", "409", "match_not_waiting")
    declared("leaveMatch", "403", "not_a_player")
    declared("leaveMatch", "409", "match_not_waiting")
    declared("resignMatch", "403", "not_a_player")
    declared("resignMatch", "409", "match_not_active")
    declared("createRematch", "403", "not_a_player")
    declared("createRematch", "409", "match_not_finished")
    declared("getReplay", "409", "match_not_finished")
    declared("createMatch", "403", "fixed_deals_disabled")
    declared("getPlayer", "404", "player_not_found")
