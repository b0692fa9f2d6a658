"""Authentication as each route declares it in the contract: where `bearerAuth` is required
a missing token is 401, and where it is optional a bad one is 401, before any body or query
is read, for every operation of openapi.yaml."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from tests.support.api import assert_problem, create, db_scalar, register

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
BAD_QUERY = "?limit=lots&offset=-1&wait=forever&after=x&status=bogus&format=none&step=-1"
BAD_BODY = {"players": "three", "type": "dance", "seat": "one", "name": "", "url": 7,
            "handle": "no spaces allowed"}
METHODS = ("get", "post", "put", "patch", "delete")
TABLES = ("players", "matches", "seats", "events", "webhook_endpoints", "commitments")


def operations(security: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(method.upper(), path) for path, item in SPEC["paths"].items()
            for method, op in item.items()
            if method in METHODS and op.get("security") == security]


def sent(client: Any, method: str, path: str, match_id: str, **headers: str) -> Any:
    url = re.sub(r"\{[a-z_]+\}", match_id, path) + BAD_QUERY
    body = BAD_BODY if method in ("POST", "PUT", "PATCH") else None
    return client.open(url, method=method, json=body, headers=headers)


def counts(app: Any) -> list[int]:
    return [db_scalar(app, f"SELECT count(*) FROM {table}") for table in TABLES]


def test_every_operation_that_needs_a_player_is_401_before_its_input(client: Any,
                                                                   app: Any) -> None:
    match_id = create(client, register(client, "ana"))["id"]
    before = counts(app)
    needing = operations([{"bearerAuth": []}])
    assert ("POST", "/v1/matches") in needing and ("PATCH", "/v1/players/me") in needing
    for method, path in needing:
        r = sent(client, method, path, match_id)
        assert_problem(r, 401, "unauthorized")
        assert r.headers["WWW-Authenticate"].lower().startswith("bearer"), (method, path)
    assert counts(app) == before


def test_every_operation_open_to_spectators_refuses_a_bad_token_before_its_input(
        client: Any, app: Any) -> None:
    match_id = create(client, register(client, "ana"))["id"]
    before = counts(app)
    optional = operations([{}, {"bearerAuth": []}])
    assert (("GET", "/v1/matches") in optional
            and ("GET", "/v1/matches/{match_id}/events") in optional)
    for method, path in optional:
        for bad in ("Bearer tk_this_token_was_never_issued", "Basic YW5hOnNlY3JldA=="):
            assert_problem(sent(client, method, path, match_id, Authorization=bad),
                           401, "unauthorized")
        # (a replay of a match not finished is 409 before its query: test_error_precedence)
        expected = 409 if path.endswith("/replay") else 422
        assert sent(client, method, path, match_id).status_code == expected, (method, path)
    assert counts(app) == before
