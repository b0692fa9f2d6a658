"""A version names exactly one body: background steps that make no new version (a deadline
warning, a step woken early, a match over) leave the stored `updated_at` as it was, so two
processes never serve two bodies under one strong ETag."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tests.support.api import db_rows, full_match, get_view, run_worker


def stored(app: Any, match_id: str) -> tuple[int, datetime]:
    (row,) = db_rows(app, "SELECT version, updated_at FROM matches WHERE id = :m", m=match_id)
    return row.version, row.updated_at


def test_a_deadline_warning_keeps_the_version_and_its_body(client: Any, app: Any,
                                                           other_app: Any) -> None:
    m, (ana, _) = full_match(client, 2, options={"first_dealer": 1}, turn_timeout=400)
    view = get_view(client, m, ana)
    before = stored(app, m)
    deadline = datetime.fromisoformat(view["deadline"].replace("Z", "+00:00"))
    assert run_worker(app, now=deadline - timedelta(seconds=101)) == 0  # woken early: nothing
    assert run_worker(app, now=deadline - timedelta(seconds=99)) == 1   # the warning
    assert stored(app, m) == before
    fresh = other_app.test_client().get(f"/v1/matches/{m}", headers=ana.headers)
    assert fresh.json == view  # another process renders the same body for that version
