"""The action verb, as every front calls it: the rate limit (a stored answer replayed past
it), the Idempotency-Key check, then the action itself (app/play/moves.py: If-Match, the
engine, the store, the notification), in that order; and whether its answer waits for the
caller's next turn (`?wait=N`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.db import ratelimit
from app.db.models import Match
from app.infra.problems import ApiError
from app.play import moves
from app.play.rendering import Answer, seat_number, view_answer
from app.play.store import get_match


def send_action(player_id: str, match_id: str, body: dict[str, Any], *,
                if_match: str | None, key_header: str | None) -> Answer:
    """`player_id`'s action `body` on `match_id`: 429 over the rate limit, 422 for an
    unusable Idempotency-Key (`key_header`, as the request sent it), then the action. A
    retry whose key has an answer stored gets that answer even over the limit: retrying
    after a lost answer is what the key is for, and a replay changes nothing."""
    try:
        ratelimit.check("action", player_id)
    except ApiError as over:
        stored = _stored_answer(player_id, match_id, body, key_header)
        if stored is None:
            raise over
        return stored
    return moves.act(player_id, match_id, body, if_match=if_match,
                     idempotency_key=idempotency_key(key_header))


def _stored_answer(player_id: str, match_id: str, body: dict[str, Any],
                   key_header: str | None) -> Answer | None:
    """The answer stored for the request's Idempotency-Key (moves.stored_answer); None
    without a usable key."""
    try:
        key = idempotency_key(key_header)
    except ApiError:
        return None
    return None if key is None else moves.stored_answer(player_id, match_id, body, key)


def idempotency_key(key: str | None) -> str | None:
    """The Idempotency-Key header's value as text (its bytes read as UTF-8 when they are),
    checked in characters (422 when it is unusable)."""
    if key is not None:
        try:
            key = key.encode("latin-1").decode("utf-8")  # (WSGI hands headers as latin-1)
        except UnicodeError:
            pass
    if key is not None and (not 1 <= len(key) <= 255 or "\x00" in key):
        rule = "must be 1 to 255 characters, without NUL"
        raise ApiError(422, "validation_error", f"Idempotency-Key {rule}",
                       errors={"Idempotency-Key": [rule]})
    return key


def waiting_seat(answer: Answer, wait: int) -> int | None:
    """The caller's seat when the answer to their action waits for their next turn: `wait`
    asked, a fresh 200 (not a replay), the match still active and not their turn; else None."""
    seat: int | None = answer.body["you"]["seat"] if answer.status == 200 else None
    if (not wait or seat is None or "Idempotent-Replayed" in answer.headers
            or answer.body["status"] != "active" or seat in answer.body["hand"]["to_act"]):
        return None
    return seat


def turn_or_end(match_id: str, seat: int) -> Callable[[], Match | None]:
    """A long poll's check: the match once `seat` must act again or it is over, else None."""
    def check() -> Match | None:
        match = get_match(match_id)
        return match if match.status != "active" or seat in match.to_act else None
    return check


def after_wait(match_id: str, player_id: str, found: Match | None) -> Answer:
    """The caller's view when the wait ended: of the match it found, or as it is now."""
    match = found or get_match(match_id)
    return view_answer(match, seat_number(match, player_id))
