"""Bearer authentication: 401 problem+json for a missing, unknown or malformed token."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import assert_problem, create, db_scalar, full_match, register

BAD_HEADERS = {
    "missing": {},
    "unknown token": {"Authorization": "Bearer tk_this_token_was_never_issued"},
    "empty bearer": {"Authorization": "Bearer "},
    "scheme only": {"Authorization": "Bearer"},
    "basic scheme": {"Authorization": "Basic YW5hOnNlY3JldA=="},
    "bare token": {"Authorization": "tk_abc"},
}


@pytest.fixture()
def match_id(client: Any) -> str:
    match_id, _ = full_match(client, players=2)
    return match_id


def _needs_auth(match_id: str) -> list[tuple[str, str, Any]]:
    return [
        ("GET", "/v1/players/me", None),
        ("GET", "/v1/me/matches", None),
        ("POST", "/v1/matches", {}),
        ("POST", f"/v1/matches/{match_id}/join", {}),
        ("POST", f"/v1/matches/{match_id}/leave", None),
        ("POST", f"/v1/matches/{match_id}/resign", None),
        ("POST", f"/v1/matches/{match_id}/actions", {"type": "raise"}),
    ]


@pytest.mark.parametrize("case", list(BAD_HEADERS))
def test_endpoints_that_need_a_token_answer_401(client: Any, app: Any, match_id: str,
                                                case: str) -> None:
    version = db_scalar(app, "SELECT version FROM matches WHERE id = :m", m=match_id)
    for method, path, body in _needs_auth(match_id):
        r = client.open(path, method=method, json=body, headers=BAD_HEADERS[case])
        assert_problem(r, 401, "unauthorized")
        assert r.headers.get("WWW-Authenticate", "").lower().startswith("bearer"), path
    assert db_scalar(app, "SELECT version FROM matches WHERE id = :m", m=match_id) == version
    assert db_scalar(app, "SELECT count(*) FROM matches") == 1


def test_401_comes_before_body_validation(client: Any, match_id: str) -> None:
    """No token on an endpoint that needs one is 401 whatever the body or query says."""
    assert_problem(client.post("/v1/matches", json={"players": 3}), 401, "unauthorized")
    assert_problem(client.post(f"/v1/matches/{match_id}/actions", json={"type": "dance"}),
                   401, "unauthorized")
    assert_problem(client.post(f"/v1/matches/{match_id}/join", json={"seat": "one"}),
                   401, "unauthorized")
    assert_problem(client.get("/v1/me/matches?status=bogus"), 401, "unauthorized")


@pytest.mark.parametrize("case", [c for c in BAD_HEADERS if c != "missing"])
def test_optional_auth_endpoints_refuse_a_bad_token(client: Any, match_id: str,
                                                    case: str) -> None:
    """A spectator sends no token; a token that is sent must be valid."""
    for path in (f"/v1/matches/{match_id}", f"/v1/matches/{match_id}/events"):
        assert client.get(path).status_code == 200
        assert_problem(client.get(path, headers=BAD_HEADERS[case]), 401, "unauthorized")


def test_lowercase_bearer_scheme_is_accepted(client: Any) -> None:
    ana = register(client, "ana")
    r = client.get("/v1/players/me", headers={"Authorization": f"bearer {ana.token}"})
    assert r.status_code == 200 and r.json["id"] == ana.id


def test_a_token_identifies_only_its_player(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana)
    assert m["you"] == {"seat": 0, "team": 0}
    r = client.get(f"/v1/matches/{m['id']}", headers=bob.headers)
    assert r.json["you"] is None


@pytest.mark.parametrize("path", ["/v1/me/matches?wait=5", "/v1/matches/{match}/events?wait=5"])
def test_a_long_poll_held_with_a_token_replaced_meanwhile_answers_401(
        app: Any, client: Any, path: str) -> None:
    """A rotated token stops working at once (API.md): a long poll held with it when it is
    replaced shows nothing of what changes next (a leaked token's poll must not outlive it)."""
    import threading
    import time

    ana, bob = register(client, "ana"), register(client, "bob")
    match_id = create(client, ana, players=2, seat=0)["id"]
    url = path.format(match=match_id)
    first = client.get(url.replace("wait=5", "wait=0"), headers=ana.headers)
    seen = {"If-None-Match": first.headers.get("ETag", "")}
    after = first.json.get("next_after")
    if after is not None:
        url += f"&after={after}"
    answers: list[Any] = []

    def poll() -> None:  # in a thread of its own, as a server would (contexts are per thread)
        answers.append(app.test_client().get(url, headers={**ana.headers, **seen}))

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    time.sleep(0.5)  # (the poll is waiting)
    rotated = client.post("/v1/players/me/token", headers=ana.headers)
    assert rotated.status_code == 200
    r = client.post(f"/v1/matches/{match_id}/join", json={}, headers=bob.headers)
    assert r.status_code == 200  # ana's match starts: a change for both polls
    poller.join(10)
    assert not poller.is_alive()
    (answer,) = answers
    assert answer.status_code == 401, answer.get_data(as_text=True)[:300]
