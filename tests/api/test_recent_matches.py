"""A view of a version this process has just written renders from the match it wrote
(app/live/recent.py), without reading it back, and is byte for byte the view read from the
database."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import D2_SETUP, act_ok, counted, full_match, get_view, listening, next_move


@pytest.mark.parametrize("turn_timeout", [None, 3600])  # (with a deadline in every view)
def test_a_view_of_a_version_written_here_is_not_read_back(client: Any, app: Any,
                                                           other_app: Any,
                                                           turn_timeout: int | None) -> None:
    match_id, seated = full_match(client, players=2, turn_timeout=turn_timeout, **D2_SETUP)
    get_view(client, match_id, seated[0])
    listening(app)
    elsewhere = other_app.test_client()
    for _ in range(8):  # (through the end of a hand: its score, a new deal)
        mover, action = next_move(client, match_id, seated)
        act_ok(client, match_id, mover, action)
        for viewer in [*seated, None]:
            headers = {} if viewer is None else viewer.headers
            with counted(app) as statements:
                here = client.get(f"/v1/matches/{match_id}", headers=headers)
            assert here.status_code == 200
            assert "EXECUTE truco_match_read" not in statements, statements
            assert not [s for s in statements if "FROM matches" in s], statements
            there = elsewhere.get(f"/v1/matches/{match_id}", headers=headers)
            assert there.get_data() == here.get_data()
            assert (here.json["deadline"] is None) == (turn_timeout is None)
            assert there.headers["ETag"] == here.headers["ETag"]


def test_only_the_version_written_is_taken(app: Any) -> None:
    from app.db.models import Match
    from app.live.recent import RecentMatches

    kept = RecentMatches(size=2)
    matches = [Match(id=f"m_{i}", version=v) for i, v in ((1, 3), (1, 4), (2, 1))]
    for match in matches:
        kept.remember(match)
    assert kept.get("m_1", 3) is None  # (the oldest went: two are kept)
    assert kept.get("m_1", 4) is matches[1]
    assert kept.get("m_1", 5) is None
    assert kept.get("m_2", 1) is matches[2]
