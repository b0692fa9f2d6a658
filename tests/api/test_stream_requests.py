"""The streams' refusals: a bad resume point, an unknown match, a bad or missing token, each
a problem answered before anything is streamed."""
from __future__ import annotations

from typing import Any

from tests.api.helpers import assert_problem, create, register


def test_a_bad_last_event_id_is_a_validation_error(client: Any) -> None:
    ana = register(client)
    match_id = create(client, ana)["id"]
    for bad in ("abc", "-1", "1.5", "9" * 30):
        r = client.get(f"/v1/matches/{match_id}/stream", headers={
            **ana.headers, "Last-Event-ID": bad})
        assert_problem(r, 422, "validation_error")
    assert_problem(client.get(f"/v1/matches/{match_id}/stream?after=x", headers=ana.headers),
                   422, "validation_error")


def test_an_unknown_match_is_not_found(client: Any) -> None:
    assert_problem(client.get("/v1/matches/nope/stream"), 404, "match_not_found")


def test_a_bad_token_is_unauthorized_on_both_streams(client: Any) -> None:
    ana = register(client)
    match_id = create(client, ana)["id"]
    bad = {"Authorization": "Bearer not-a-token"}
    assert_problem(client.get(f"/v1/matches/{match_id}/stream", headers=bad), 401,
                   "unauthorized")
    assert_problem(client.get("/v1/me/stream", headers=bad), 401, "unauthorized")
    assert_problem(client.get("/v1/me/stream"), 401, "unauthorized")
