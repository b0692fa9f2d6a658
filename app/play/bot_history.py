"""What a reading bot learns from its match's log before it moves (engine.bots.READING_LEVELS).

Only the event types that mark hands, tricks, raises and their answers are read, and of them
only the seat and `team_refused`: the count reads no card, so it cannot leak one to the bot.
"""
from __future__ import annotations

from sqlalchemy import select

from app.db.extensions import db
from app.db.models import Event
from engine.bots import COUNTED_EVENTS, LateAnswers, late_answers


def late_answers_in(match_id: str, team: int) -> LateAnswers:
    """How `team`'s opponents answered its late raises so far in match `match_id`."""
    rows = db.session.execute(
        select(Event.type, Event.data["seat"].astext, Event.data["team_refused"].astext)
        .where(Event.match_id == match_id, Event.type.in_(COUNTED_EVENTS))
        .order_by(Event.seq)).all()
    return late_answers(({"type": kind, "seat": seat, "team_refused": refused != "false"}
                         for kind, seat, refused in rows), team)
