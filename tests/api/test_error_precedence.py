"""When several things are wrong with one request, the answer names the first of: who you are
(401) before what you sent (415, 422 validation_error). API.md: "No token, or an unknown one,
on an endpoint that needs it: 401"."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import assert_problem

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
