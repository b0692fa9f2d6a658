"""Reviews of finished matches (`POST` / `GET /v1/matches/{id}/review`): the computer's
judgement of every decision of the match, each made from what its seat could see then
(engine/bots/review.py), worked out by the background worker.

A review is CPU work (about 50 ms a decision, a match has 50 to 300), so no request does it:
asking queues it, and the worker takes it a slice at a time (REVIEW_SLICE_SECONDS) when it has
no bot move or deadline due, and ends a slice early when one falls due, so that reviews
never hold up a game for more than one decision. The queue is fair between
the players who asked: the worker serves the player it served least recently first, and a
player has at most MAX_PENDING reviews waiting. A slice is one transaction that records its
progress, so a worker killed mid-review loses at most that slice. A decision the search
fails on is left out (and logged); a review that cannot be worked out at all (its match will
not replay) is closed as it stands, so that it never holds the queue.

Only the match's players may ask or read (engine.knowledge.sees_everything: once it is over,
they see every card of it, and a review names cards from every hand).
"""
from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert

import engine
from engine.bots.review import MISTAKE_LOSS, REVIEW_PLAYOUTS, ReviewedDecision, review_decision
from engine.knowledge import sees_everything
from app.db.extensions import db
from app.db.models import ActionRecord, Event, Match
from app.db.review_models import MatchReview
from app.db.writes import SESSION_WRITES
from app.infra.encoding import iso
from app.infra.metrics import REVIEWED
from app.infra.problems import DATABASE_ERRORS, ApiError
from app.webhooks.outbox import enqueue_review_done
from app.play.rendering import seat_number
from app.play.replay import RESIGN, replayed, steps_before_actions
from app.play.store import DUE_CHANNEL, FORFEIT, get_match

log = logging.getLogger("app.worker")
MAX_PENDING = 3
"""The most reviews one player may have waiting at once (then 429 `rate_limited`)."""
REVIEW_SLICE_SECONDS = 0.25
"""How long the worker reviews before it looks for game work again (at least one decision)."""
_NOT_DECISIONS = (RESIGN, FORFEIT)

_NEXT = text("""
    SELECT r.match_id FROM match_reviews r
    WHERE r.completed_at IS NULL
    ORDER BY (SELECT max(q.stepped_at) FROM match_reviews q
              WHERE q.requested_by IS NOT DISTINCT FROM r.requested_by) NULLS FIRST,
             r.stepped_at NULLS FIRST, r.requested_at
    LIMIT 1 FOR UPDATE OF r SKIP LOCKED""")
"""The review to work on next: of the player served least recently (every review of theirs
counted), the one worked on least recently."""
_ASKER_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:player, 11))")
"""Held by a player's ask until its commit, so that their asks at once are counted in turn."""


def request_review(player_id: str, match_id: str) -> tuple[int, dict[str, Any]]:
    """Queue the review of `match_id` for `player_id`: 202 and its body when this request
    queued it, 200 when it was already asked for (by anyone). 404, 409 match_not_finished,
    403 not_a_player, 429 rate_limited (MAX_PENDING)."""
    match = _readable(player_id, match_id)
    review = db.session.get(MatchReview, match.id)
    if review is not None:
        return 200, review_body(review, match)
    db.session.execute(_ASKER_LOCK, {"player": player_id})  # (two asks at once count right)
    waiting = db.session.execute(
        select(func.count()).select_from(MatchReview).where(
            MatchReview.requested_by == player_id, MatchReview.completed_at.is_(None))
    ).scalar_one()
    if waiting >= MAX_PENDING:
        raise ApiError(429, "rate_limited", f"you have {waiting} reviews waiting; ask again "
                       "when one is done", retry_after=10)
    made = db.session.execute(
        insert(MatchReview).values(match_id=match.id, requested_by=player_id)
        .on_conflict_do_nothing().returning(MatchReview.match_id)).first()
    SESSION_WRITES.notify(DUE_CHANNEL, match.id)  # (the workers look for work at commit)
    db.session.commit()
    review = db.session.get(MatchReview, match.id, populate_existing=True)
    assert review is not None
    return (202 if made is not None else 200), review_body(review, match)


def review_answer(player_id: str, match_id: str) -> dict[str, Any]:
    """The review of `match_id` as it stands (done, or pending with the decisions reviewed so
    far); 404 match_not_found / review_not_found, 409 match_not_finished, 403 not_a_player."""
    match = _readable(player_id, match_id)
    review = db.session.get(MatchReview, match.id)
    if review is None:
        raise ApiError(404, "review_not_found", "nobody has asked for this match's review "
                       f"yet: POST /v1/matches/{match.id}/review")
    return review_body(review, match)


def _readable(player_id: str, match_id: str) -> Match:
    match = get_match(match_id)
    if match.status != "finished":
        raise ApiError(409, "match_not_finished", "a review is for a finished match; this "
                       f"one is {match.status}")
    if not sees_everything(seat_number(match, player_id), finished=True):
        raise ApiError(403, "not_a_player", "only the match's players may see its review")
    return match


def review_body(review: MatchReview, match: Match) -> dict[str, Any]:
    """The API's body of `match`'s review (docs/api.md)."""
    decisions = review.decisions
    seats = _tallies(decisions)
    return {"match_id": review.match_id,
            "status": "pending" if review.completed_at is None else "done",
            "requested_at": iso(review.requested_at), "completed_at": iso(review.completed_at),
            "progress": {"reviewed": min(review.next_action - 1, match.action_count),
                         "actions": match.action_count},
            "playouts": REVIEW_PLAYOUTS, "mistake_loss": MISTAKE_LOSS,
            "seats": [seats[s] for s in sorted(seats)], "decisions": decisions}


def _tallies(decisions: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Each seat's decisions, mistakes and summed loss, by seat; turns auto-played for an
    absent player are not theirs."""
    seats: dict[int, dict[str, Any]] = {}
    for d in decisions:
        if d["auto_played"]:
            continue
        tally = seats.setdefault(d["seat"], {"seat": d["seat"], "decisions": 0, "mistakes": 0,
                                             "loss": 0.0})
        tally["decisions"] += 1
        tally["mistakes"] += d["mistake"]
        tally["loss"] = round(tally["loss"] + d["loss"], 3)
    return seats


def review_due(seconds: float = REVIEW_SLICE_SECONDS, now: datetime | None = None,
               game_work: Callable[[], bool] = lambda: False) -> bool:
    """Work on the next pending review for about `seconds` (at least one action), in one
    transaction, stopping early once `game_work()` says a game has work due; whether there
    was a review to work on. Needs an app context."""
    claimed = db.session.execute(_NEXT).scalar_one_or_none()
    if claimed is None:
        db.session.rollback()
        return False
    try:
        return _slice(claimed, seconds, now, game_work)
    except DATABASE_ERRORS:
        raise
    except Exception:  # noqa: BLE001 - a review that cannot be worked out must not stall others
        db.session.rollback()
        log.exception("the review of match %s cannot be worked out; closed as it stands",
                      claimed)
        at = now or datetime.now(timezone.utc)
        closed = db.session.execute(
            update(MatchReview).where(MatchReview.match_id == claimed,
                                      MatchReview.completed_at.is_(None))
            .values(completed_at=at, stepped_at=at)
            .returning(MatchReview.decisions)).scalar_one_or_none()
        if closed is not None:  # (not closed meanwhile by another worker: told once)
            enqueue_review_done(get_match(claimed), _tallies(closed))
        db.session.commit()
        return True


def _slice(claimed: str, seconds: float, now: datetime | None,
           game_work: Callable[[], bool]) -> bool:
    """review_due's slice of review `claimed` (its row locked)."""
    review = db.session.get(MatchReview, claimed)
    assert review is not None
    match = get_match(claimed)
    rows = db.session.execute(select(ActionRecord).where(ActionRecord.match_id == match.id)
                              .order_by(ActionRecord.n)).scalars().all()
    states, expected = replayed(match, rows)
    events = db.session.execute(select(Event).where(Event.match_id == match.id)
                                .order_by(Event.seq)).scalars().all()
    steps = steps_before_actions(events, expected)
    held = {s.seat for s in match.seats if s.player_id is not None}
    began, found = time.perf_counter(), list(review.decisions)
    before, n = len(found), review.next_action
    while n <= len(rows) and (n == review.next_action or (
            time.perf_counter() - began < seconds and not game_work())):
        row = rows[n - 1]
        try:
            decision = _reviewed(match.id, states[n - 1], row, auto=row.player_id is None
                                 and row.seat in held, step=steps.get(n))
        except Exception:  # noqa: BLE001 - one decision the search fails on is left out
            log.exception("review of match %s: action %s cannot be judged; left out",
                          match.id, n)
            decision = None
        if decision is not None:
            found.append(decision)
        n += 1
    review.decisions = found
    review.next_action = n
    review.stepped_at = now or datetime.now(timezone.utc)
    if n > len(rows):
        review.completed_at = review.stepped_at
        enqueue_review_done(match, _tallies(found))
    db.session.commit()
    REVIEWED.inc(len(found) - before)
    return True


def _reviewed(match_id: str, state: engine.MatchState, row: ActionRecord,
              auto: bool, step: int | None) -> dict[str, Any] | None:
    """The review of recorded action `row` taken in `state`, or None where its seat had no
    choice (or it was no decision: a resignation, a forfeit by time)."""
    if row.body in _NOT_DECISIONS:
        return None
    view = engine.view(state, row.seat)
    if len(view["legal_actions"]) < 2:
        return None
    seed = int.from_bytes(hashlib.sha256(f"{match_id}:{row.n}".encode()).digest()[:8], "big")
    judged = review_decision(view, row.body, seed)
    return _decision_json(row, state, judged, auto, step)


def _decision_json(row: ActionRecord, state: engine.MatchState, judged: ReviewedDecision,
                   auto: bool, step: int | None) -> dict[str, Any]:
    return {"action_number": row.n, "step": step, "seat": row.seat, "hand": state.hand.number,
            "trick": len(state.hand.tricks) or 1, "auto_played": auto,
            "cards": list(state.hand.hands[row.seat]),
            "played": judged.options[judged.played][0],
            "best": judged.options[judged.best][0],
            "loss": round(judged.loss, 3), "mistake": judged.mistake,
            "options": [{"action": a, "chance": round(v, 3)} for a, v in judged.options]}
