"""Every request example documented in openapi.yaml is accepted by the server (2xx)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.api import act_ok, create, full_match, register

pytestmark = pytest.mark.usefixtures("clean_db")

ROOT = Path(__file__).resolve().parents[2]
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text())
# Seat 0 leads (first_dealer 1) holding 7c, 4s and the zap 5c; seat 1 cannot beat the zap.
LEAD = {"vira": "4d", "hands": [["7c", "4s", "5c"], ["2c", "Kd", "6d"]]}

Request = tuple[str, dict[str, str]]  # the URL and the headers of a request ready to send


def _documented() -> list[tuple[str, str, str, Any]]:
    """(method, path, example name, body) of every request body example in the spec."""
    found = []
    for path, item in SPEC["paths"].items():
        for method, operation in item.items():
            if method == "parameters":  # the path's own, not an operation
                continue
            media = operation.get("requestBody", {}).get("content", {}).get(
                "application/json", {})
            for name, example in media.get("examples", {}).items():
                found.append((method, path, name, example["value"]))
    return found


EXAMPLES = _documented()


def _action_ready(client: Any, name: str) -> Request:
    """A 2-player match in which example `name` is legal for the player it returns."""
    match_id, (ana, bob) = full_match(client, options={"first_dealer": 1}, deals=[LEAD])
    player = ana
    if name == "play_face_down":  # trick 2, which ana leads after winning trick 1
        act_ok(client, match_id, ana, {"type": "play", "card": "5c"})
        act_ok(client, match_id, bob, {"type": "play", "card": "2c"})
    elif name in ("accept", "refuse"):
        act_ok(client, match_id, ana, {"type": "raise"})
        player = bob
    return f"/v1/matches/{match_id}/actions", player.headers


def _join_ready(client: Any, name: str) -> Request:
    match_id = create(client, register(client, "host"), players=4, seat=0)["id"]
    return f"/v1/matches/{match_id}/join", register(client, "guest").headers


SETUPS: dict[tuple[str, str], Callable[[Any, str], Request]] = {
    ("post", "/v1/players"): lambda client, name: ("/v1/players", {}),
    ("post", "/v1/matches"): lambda client, name: ("/v1/matches",
                                                   register(client, "host").headers),
    ("post", "/v1/matches/{match_id}/join"): _join_ready,
    ("post", "/v1/matches/{match_id}/actions"): _action_ready,
    ("post", "/v1/me/webhooks"): lambda client, name: ("/v1/me/webhooks",
                                                       register(client, "host").headers),
}


def test_every_request_body_has_examples() -> None:
    documented = {(method, path) for method, path, _, _ in EXAMPLES}
    assert documented == set(SETUPS)
    actions = {name for _, path, name, _ in EXAMPLES if path.endswith("/actions")}
    assert actions == {"play", "play_face_down", "play_slot", "raise", "accept", "refuse"}


@pytest.mark.parametrize(("method", "path", "name", "body"), EXAMPLES,
                         ids=[f"{m} {p} {n}" for m, p, n, _ in EXAMPLES])
def test_documented_example_is_accepted(client: Any, method: str, path: str, name: str,
                                        body: Any) -> None:
    url, headers = SETUPS[(method, path)](client, name)
    r = client.open(url, method=method.upper(), json=body, headers=headers)
    assert 200 <= r.status_code < 300, (name, r.get_data(as_text=True))
