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
        matches, outbox, reviews = backlogs(now)
    assert matches == Backlog(2, now - timedelta(seconds=90))
    assert outbox == Backlog(0, None)
    assert reviews == Backlog(0, None)


def test_reviews_waiting_count_from_when_they_were_asked(app: Any, client: Any) -> None:
    ana = register(client)
    ids = [create(client, ana)["id"] for _ in range(3)]
    now = datetime.now(timezone.utc).replace(microsecond=0)
    with app.app_context():
        for match_id, asked, done in ((ids[0], now - timedelta(seconds=40), None),
                                      (ids[1], now - timedelta(seconds=10), None),
                                      (ids[2], now - timedelta(seconds=90), now)):
            db.session.execute(text(
                "INSERT INTO match_reviews (match_id, requested_by, requested_at, "
                "completed_at) VALUES (:m, :p, :t, :d)"),
                {"m": match_id, "p": ana.id, "t": asked, "d": done})
        db.session.commit()
        reviews = backlogs(now)[2]
    assert reviews == Backlog(2, now - timedelta(seconds=40))
