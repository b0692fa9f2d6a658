"""Text PostgreSQL cannot store (a NUL character; a lone surrogate, which a JSON "\\ud800"
escape makes) in any string a client sends is a 4xx problem (or, for a DELETE of what
cannot exist, 204), never a 500, and changes nothing: each string field of each body, query
and path that reaches the database, in turn."""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from tests.support.api import PROBLEM, create, db_scalar, register

BAD = ["\x00", "a\x00b", "\ud800", "ab\udfffc"]


def _requests(ana_id: str, match_id: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    """(method, path, body) with BAD in place of `X` (a string in the body, or the path)."""
    return [
        ("POST", "/v1/players", {"name": "X"}),
        ("POST", "/v1/players", {"name": "ana", "handle": "X"}),
        ("PATCH", "/v1/players/me", {"name": "X"}),
        ("PATCH", "/v1/players/me", {"handle": "X"}),
        ("GET", "/v1/players?handle=X", None),
        ("GET", "/v1/players/X", None),
        ("POST", "/v1/matches", {"invite": [{"seat": 1, "player_id": "X"}]}),
        ("POST", "/v1/matches", {"invite": [{"seat": 1, "handle": "X"}]}),
        ("POST", "/v1/matches", {"client_seed": "X"}),
        ("POST", "/v1/matches", {"commitment": "X"}),
        ("POST", "/v1/matches", {"ruleset": "X"}),
        ("POST", f"/v1/matches/{match_id}/join", {"invite_code": "X"}),
        ("POST", f"/v1/matches/{match_id}/join", {"client_seed": "X"}),
        ("POST", f"/v1/matches/{match_id}/actions", {"type": "play", "card": "X"}),
        ("POST", f"/v1/matches/{match_id}/actions", {"type": "X"}),
        ("GET", "/v1/matches/X", None),
        ("GET", "/v1/matches/X/events", None),
        ("POST", "/v1/me/webhooks", {"url": "https://example.com/X"}),
        ("POST", "/v1/me/webhooks", {"url": "https://example.com/", "events": ["X"]}),
        ("PUT", "/v1/me/blocks/X", None),
        ("DELETE", "/v1/me/blocks/X", None),
        ("GET", "/v1/leaderboard?format=X", None),
    ]


def _fill(value: Any, bad: str) -> Any:
    if isinstance(value, str):
        return value.replace("X", bad)
    if isinstance(value, list):
        return [_fill(v, bad) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, bad) for k, v in value.items()}
    return value


@pytest.mark.parametrize("bad", BAD)
def test_unstorable_text_is_a_problem_not_a_500(client: Any, app: Any, bad: str) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    match_id = create(client, ana, players=2, visibility="private")["id"]
    counts = "SELECT (SELECT count(*) FROM players) + (SELECT count(*) FROM matches) * 100"
    before = db_scalar(app, counts)
    for method, path, body in _requests(ana.id, match_id):
        url = path.replace("X", quote(bad.encode("utf-8", "surrogatepass"), safe=""))
        caller = bob if path.endswith("/join") else ana  # (ana sits there: 200 whatever)
        r = client.open(url, method=method, headers=caller.headers,
                        json=_fill(body, bad) if body is not None else None)
        where = f"{method} {path} {body} with {bad!r}"
        if method == "DELETE":  # no such block: nothing to take off, as for any unknown id
            assert r.status_code == 204, f"{where}: {r.status_code}"
        else:
            assert 400 <= r.status_code < 500, \
                f"{where}: {r.status_code} {r.get_data(as_text=True)}"
            assert r.mimetype == PROBLEM, where
        assert db_scalar(app, counts) == before, where
