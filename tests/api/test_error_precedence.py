"""When several things are wrong with one request, the answer names the first of: who you are
(401), the match (404), your place in it (403), its state (409), and only then what you sent
(422 validation_error). API.md: "No token, or an unknown one, on an endpoint that needs it:
401"; the actions' failure codes are listed in that order. A rejected request changes
nothing."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import assert_problem, create, full_match, register, snapshot

NO_MATCH = "m_000000000000000000000000"
DEEP = "[" * 40 + "]" * 40
HUGE_NUMBER = '{"seed": ' + "9" * 5000 + "}"


@pytest.mark.parametrize("path", ["/v1/matches", f"/v1/matches/{NO_MATCH}/actions",
                                  f"/v1/matches/{NO_MATCH}/join", "/v1/players/me/token"])
@pytest.mark.parametrize(("data", "content_type"), [
    (DEEP, "application/json"), (HUGE_NUMBER, "application/json"), ("{}", "text/plain"),
    ("{", "application/json")])
@pytest.mark.parametrize("token", [None, "tk_unknown"])
def test_a_missing_or_unknown_token_is_401_whatever_the_body(client: Any, path: str, data: str,
                                                             content_type: str,
                                                             token: str | None) -> None:
    headers = {"Content-Type": content_type}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    assert_problem(client.post(path, data=data, headers=headers), 401, "unauthorized")


def test_an_unknown_optional_token_is_401_before_a_bad_query(client: Any) -> None:
    r = client.get(f"/v1/matches/{NO_MATCH}?wait=x", headers={"Authorization": "Bearer tk_no"})
    assert_problem(r, 401, "unauthorized")


MALFORMED_ACTIONS = [{}, {"type": "fold"}, {"type": "play"}, {"type": "play", "card": "zz"},
                     [1], "not an object"]


@pytest.mark.parametrize("action", MALFORMED_ACTIONS)
def test_an_unknown_match_is_404_before_the_action_body(client: Any, action: Any) -> None:
    eve = register(client, "eve")
    r = client.post(f"/v1/matches/{NO_MATCH}/actions", json=action, headers=eve.headers)
    assert_problem(r, 404, "match_not_found")
    r = client.post(f"/v1/matches/{NO_MATCH}/actions?wait=x", json={"type": "raise"},
                    headers=eve.headers)
    assert_problem(r, 404, "match_not_found")


def test_invalid_json_to_an_unknown_match_is_404(client: Any) -> None:
    eve = register(client, "eve")
    r = client.post(f"/v1/matches/{NO_MATCH}/actions", data="{",
                    headers={**eve.headers, "Content-Type": "application/json"})
    assert_problem(r, 404, "match_not_found")


@pytest.mark.parametrize("action", MALFORMED_ACTIONS)
def test_a_stranger_is_403_before_the_action_body(client: Any, app: Any, action: Any) -> None:
    match_id, seated = full_match(client, players=2)
    eve = register(client, "eve")
    before = snapshot(client, app, match_id, [None, *seated])
    r = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=eve.headers)
    assert_problem(r, 403, "not_a_player")
    assert snapshot(client, app, match_id, [None, *seated]) == before


@pytest.mark.parametrize("action", MALFORMED_ACTIONS)
def test_a_match_not_active_is_409_before_the_action_body(client: Any, app: Any,
                                                          action: Any) -> None:
    ana = register(client, "ana")
    waiting = create(client, ana, players=2)["id"]
    r = client.post(f"/v1/matches/{waiting}/actions", json=action, headers=ana.headers)
    assert_problem(r, 409, "match_not_active")
    match_id, seated = full_match(client, players=2)
    assert client.post(f"/v1/matches/{match_id}/resign",
                       headers=seated[1].headers).status_code == 200
    before = snapshot(client, app, match_id, [None, *seated])
    r = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=seated[0].headers)
    assert_problem(r, 409, "match_not_active")
    assert snapshot(client, app, match_id, [None, *seated]) == before


def test_a_malformed_action_in_an_active_match_is_still_a_validation_error(client: Any) -> None:
    match_id, seated = full_match(client, players=2)
    for action in MALFORMED_ACTIONS:
        r = client.post(f"/v1/matches/{match_id}/actions", json=action,
                        headers=seated[0].headers)
        assert_problem(r, 422, "validation_error")


@pytest.mark.parametrize("verb", ["join", "leave", "resign", "rematch"])
def test_an_unknown_match_is_404_before_a_bad_body_on_every_seat_verb(client: Any,
                                                                      verb: str) -> None:
    eve = register(client, "eve")
    r = client.post(f"/v1/matches/{NO_MATCH}/{verb}", json={"seat": "x", "extra": 1},
                    headers=eve.headers)
    assert_problem(r, 404, "match_not_found")


def test_seat_verbs_answer_the_match_state_before_a_bad_body(client: Any) -> None:
    match_id, seated = full_match(client, players=2)  # active
    eve = register(client, "eve")
    bad = {"seat": "x", "extra": 1}
    post = lambda verb, who: client.post(f"/v1/matches/{match_id}/{verb}",  # noqa: E731
                                         json=bad, headers=who.headers)
    assert_problem(post("join", eve), 409, "match_not_waiting")
    assert_problem(post("leave", eve), 403, "not_a_player")
    assert_problem(post("resign", eve), 403, "not_a_player")
    assert_problem(post("leave", seated[0]), 409, "match_not_waiting")
    assert_problem(post("rematch", seated[0]), 409, "match_not_finished")
    assert_problem(post("rematch", eve), 409, "match_not_finished")
    assert_problem(post("resign", seated[0]), 422, "validation_error")  # (all else is right)


@pytest.mark.parametrize("query", ["wait=x", "wait=61"])
def test_reading_an_unknown_match_is_404_before_a_bad_query(client: Any, query: str) -> None:
    for path in (f"/v1/matches/{NO_MATCH}?{query}", f"/v1/matches/{NO_MATCH}/events?{query}",
                 f"/v1/matches/{NO_MATCH}/events?after=x",
                 f"/v1/matches/{NO_MATCH}/replay?step=x"):
        assert_problem(client.get(path), 404, "match_not_found")
