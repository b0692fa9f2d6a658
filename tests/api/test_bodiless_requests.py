"""The endpoints that take no body (leave, resign, rematch, commitments, declining every
invitation, rotating the token) refuse one that says something: malformed JSON, a JSON
value other than {} or null, or fields, are 422 `validation_error` and change nothing (a
`{` sent to leave used to leave). No body, `{}` and `null` are what a client sends."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import (
    assert_problem,
    create,
    db_scalar,
    full_match,
    register,
    resigned_match,
)

BAD_BODIES = ["{", '{"seat": 1}', "[]", "0", "false", '"leave"']


def _state(app: Any) -> tuple[Any, ...]:
    return tuple(db_scalar(app, sql) for sql in (
        "SELECT count(*) FROM seats", "SELECT count(*) FROM matches",
        "SELECT coalesce(sum(version), 0) FROM matches", "SELECT count(*) FROM commitments",
        "SELECT string_agg(token_hash, ',' ORDER BY id) FROM players"))


@pytest.mark.parametrize("body", BAD_BODIES)
def test_a_body_sent_where_none_is_taken_is_422_and_changes_nothing(client: Any, app: Any,
                                                                    body: str) -> None:
    ana = register(client, "ana")
    waiting = create(client, ana, players=2)["id"]
    active, (bia, _) = full_match(client, 2)
    finished, (cris, _) = resigned_match(client, 2, 1)
    before = _state(app)
    for path, who in ((f"/v1/matches/{waiting}/leave", ana),
                      (f"/v1/matches/{active}/resign", bia),
                      (f"/v1/matches/{finished}/rematch", cris),
                      ("/v1/commitments", ana),
                      ("/v1/me/invitations/decline", ana),
                      ("/v1/players/me/token", ana)):
        r = client.post(path, data=body, headers={**who.headers,
                                                  "Content-Type": "application/json"})
        assert_problem(r, 422, "validation_error")
        assert _state(app) == before, path


@pytest.mark.parametrize("body", ["", "{}", "null", " {} "])
def test_no_body_an_empty_object_or_null_is_what_leave_and_resign_take(client: Any, app: Any,
                                                                        body: str) -> None:
    ana = register(client, "ana")
    waiting = create(client, ana, players=2)["id"]
    active, (bia, _) = full_match(client, 2)
    for path, who in ((f"/v1/matches/{waiting}/leave", ana),
                      (f"/v1/matches/{active}/resign", bia)):
        r = client.post(path, data=body, headers={**who.headers,
                                                  "Content-Type": "application/json"})
        assert r.status_code == 200, (path, r.get_data(as_text=True))
