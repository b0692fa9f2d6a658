"""The work due now: matches with a background step due to the workers (a bot's move, a
warning, a deadline), webhook deliveries due, and the match reviews waiting (asked for and not
done); each as a depth and its oldest due time."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text

from app.db.extensions import db


@dataclass(frozen=True)
class Backlog:
    """How many items are due, and when the most overdue of them fell due (None: none)."""

    depth: int
    oldest: datetime | None


def backlogs(now: datetime) -> tuple[Backlog, Backlog, Backlog]:
    """(the workers' matches, the webhook outbox, the reviews) due at `now`, read in one
    transaction that ends here; a database failure is raised after it."""
    try:
        matches = db.session.execute(text(
            "SELECT count(*), min(due_at) FROM matches WHERE status = 'active' "
            "AND due_at <= :now"), {"now": now}).one()
        outbox = db.session.execute(text(
            "SELECT count(*), min(next_attempt_at) FROM webhook_deliveries "
            "WHERE status = 'pending' AND next_attempt_at <= :now"), {"now": now}).one()
        reviews = db.session.execute(text(
            "SELECT count(*), min(requested_at) FROM match_reviews "
            "WHERE completed_at IS NULL AND requested_at <= :now"), {"now": now}).one()
    finally:
        db.session.rollback()
    return Backlog(*matches), Backlog(*outbox), Backlog(*reviews)
