"""The work due (app/play/backlog.py, what /metrics shows of the workers' queue and the
outbox): only what is due at the moment asked counts, dated by its most overdue item."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import text

from app.db.extensions import db
from app.play.backlog import Backlog, backlogs
from tests.support.api import create, register

pytestmark = pytest.mark.usefixtures("clean_db")


def test_only_active_matches_due_by_now_count_and_the_oldest_is_dated(app: Any,
                                                                     client: Any) -> None:
    ana = register(client)
    ids = [create(client, ana)["id"] for _ in range(4)]
    now = datetime.now(timezone.utc).replace(microsecond=0)
    due = {ids[0]: ("active", now - timedelta(seconds=90)),
           ids[1]: ("active", now - timedelta(seconds=5)),
           ids[2]: ("active", now + timedelta(seconds=60)),  # not yet
           ids[3]: ("waiting", now - timedelta(seconds=300))}  # nothing to do while waiting
    with app.app_context():
        for match_id, (status, at) in due.items():
            db.session.execute(text("UPDATE matches SET status = :s, due_at = :t WHERE id = :m"),
                               {"s": status, "t": at, "m": match_id})
        db.session.commit()
        matches, outbox = backlogs(now)
    assert matches == Backlog(2, now - timedelta(seconds=90))
    assert outbox == Backlog(0, None)
