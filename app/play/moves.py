"""Playing: a player's action, a resignation, a bot's move. Each verb owns its transaction:
lock the match, check, ask the engine, store state, actions and events, notify, commit."""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from datetime import datetime
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import orjson
from sqlalchemy import Text, cast, func, select
from sqlalchemy.orm.attributes import flag_modified

import engine
from app.db import hot_rows, hot_sql
from app.db.extensions import db
from app.db.models import IdempotencyRecord, Match, Player, Seat
from app.db.writes import SESSION_WRITES, BufferedWrites, Endpoint, Writes
from app.infra.encoding import etag_matches, json_bytes
from app.infra.problems import ApiError
from app.live.hub import heard_version
from app.live.recent import recent
from app.play.bot_history import late_answers_in
from app.play.bot_partners import REFUSE, bot_seats, players_refused, ready_bots
from app.play.rendering import Answer, etag, match_view, view_answer
from app.play.seat_gate import refuse_outsider
from app.play.store import (
    FORFEIT,
    append_events,
    bump,
    load_state,
    lock_match,
    notify,
    record,
    store,
)
from app.webhooks.outbox import enqueue_deadline_soon, enqueue_turn_timed_out
from engine.bots import READING_LEVELS, choose


def request_hash(body: dict[str, Any]) -> str:
    """The hash of the action the body means: a retry that writes the card as "7C" or
    spells out a default (`face_down: false`) is the same request."""
    try:
        form = engine.normal_form(body)
    except engine.InvalidAction:
        form = body
    return hashlib.sha256(json.dumps(form, sort_keys=True).encode()).hexdigest()


ABANDONED_AFTER = 3
"""Deadlines in a row after which a seat counts as abandoned: its team forfeits."""
AUTO_PLAY_LEVEL = "easy"
"""The built-in bot that acts for a seat whose deadline passed (`on_timeout: auto_play`)."""


def _record(match: Match, seat: int, player_id: str | None, body: dict[str, Any],
          state: engine.MatchState, events: Sequence[Mapping[str, Any]],
          now: datetime | None = None, writes: Writes = SESSION_WRITES) -> None:
    """Record an applied action as a new version: the action, its events, the state."""
    bump(match)
    record(match, seat, player_id, body, writes)
    append_events(match, events, writes)
    store(match, state, now, writes)


def _apply(match: Match, seat: int, player_id: str | None, body: dict[str, Any],
           writes: Writes = SESSION_WRITES) -> engine.MatchState:
    """Apply one action of `seat` to the locked, active `match`, or raise the API error that
    says why not (nothing changed)."""
    if match.status != "active":
        raise ApiError(409, "match_not_active", f"the match is {match.status}")
    state = load_state(match)
    try:
        new_state, events = engine.apply(state, seat, body)
    except engine.InvalidAction as exc:
        raise ApiError(422, "validation_error", exc.message,
                       errors={exc.field or "_body": [exc.message]}) from exc
    except engine.IllegalAction as exc:
        if exc.reason == "match_not_active":
            raise ApiError(409, "match_not_active", exc.message) from exc
        raise ApiError(422, "illegal_action", exc.message, reason=exc.reason,
                       legal_actions=engine.legal_actions(state, seat)) from exc
    _record(match, seat, player_id, body, new_state, events, writes=writes)
    return new_state


def act(player_id: str, match_id: str, body: dict[str, Any], *, if_match: str | None = None,
        idempotency_key: str | None = None) -> Answer:
    """A player's action (API.md, actions): the caller's view after it. Bots that are to act
    next move in the background, each move its own transaction. The hot path: two round
    trips (app/db/hot_sql.py): begin, lock and read; write and commit; or one, when this
    process wrote the match last (:func:`_act_on_recent`)."""
    answer = _act_on_recent(player_id, match_id, body, if_match, idempotency_key)
    if answer is not None:
        return answer
    with hot_sql.own_connection() as connection:
        loaded = hot_sql.lock_and_load(connection, match_id, player_id, idempotency_key)
        match = loaded.match
        held = match.seat_of(player_id)
        if held is None:
            raise ApiError(403, "not_a_player", "you have no seat in this match")
        seat = held.seat
        if loaded.replay is not None:  # (read only for a key; the transaction rolls back)
            return _replayed(loaded.replay, body)
        if if_match is not None and not etag_matches(if_match, etag(match, seat)):
            raise ApiError(412, "version_mismatch",
                           "the match changed since that representation",
                           current=match_view(match, seat), headers={"ETag": etag(match, seat)})
        writes, answer, idempotency = _made(match, held, player_id, body, loaded.endpoints,
                                     idempotency_key)
        hot_sql.write_and_commit(connection, match, writes, seat, player_id, idempotency)
    recent.remember(match, loaded.endpoints)  # (views of this version render from it)
    return answer


def _replayed(stored: Mapping[str, Any], body: dict[str, Any]) -> Answer:
    """The answer stored for an Idempotency-Key (`stored`: its record's `request_hash`,
    `status_code`, `answer` and `headers`), marked as a replay; 422 `idempotency_key_reused`
    when the key came with another body."""
    if stored["request_hash"] != request_hash(body):
        raise ApiError(422, "idempotency_key_reused",
                       "this Idempotency-Key was used with another body")
    return Answer(stored["status_code"], orjson.loads(stored["answer"]),
                  {**stored["headers"], "Idempotent-Replayed": "true"})


def stored_answer(player_id: str, match_id: str, body: dict[str, Any],
                  idempotency_key: str) -> Answer | None:
    """The answer stored for the caller's Idempotency-Key on this match, as `act` replays it
    (or 422 for another body); None when the key has no answer stored. Read without the
    match's lock: a stored answer never changes."""
    r = IdempotencyRecord
    found = db.session.execute(
        select(r.request_hash, r.status_code,
               func.coalesce(r.answer, cast(r.response, Text)).label("answer"), r.headers)
        .where(r.player_id == player_id, r.match_id == match_id, r.key == idempotency_key)
    ).mappings().one_or_none()
    return None if found is None else _replayed(dict(found), body)


def _made(match: Match, held: Seat, player_id: str, body: dict[str, Any],
          endpoints: list[Endpoint], idempotency_key: str | None,
          ) -> tuple[BufferedWrites, Answer, hot_sql.IdempotencyRecord | None]:
    """Apply `body` for the caller's seat `held` to `match` (or raise the API error that says
    why not) and make everything the write keeps: the buffered writes (for the players'
    webhook `endpoints`), the caller's answer, encoded once, and the idempotency record."""
    writes = BufferedWrites(endpoints)
    state = _apply(match, held.seat, player_id, body, writes)
    held.timeouts_in_row = 0  # the player is here: the count of deadlines missed restarts
    notify(match, writes=writes)
    answer = view_answer(match, held.seat, state=state)
    encoded = json_bytes(answer.body)
    idempotency = None if idempotency_key is None else (
        idempotency_key, request_hash(body), answer.status, encoded, answer.headers)
    return writes, replace(answer, encoded=encoded), idempotency


def _act_on_recent(player_id: str, match_id: str, body: dict[str, Any], if_match: str | None,
                 idempotency_key: str | None) -> Answer | None:
    """The action applied to the match as this process wrote it last (app/live/recent.py) and
    written in one round trip, if the match is still at that version when the write runs
    (`hot_sql.write_if_current`); None when that cannot tell the answer: nothing recent,
    a version heard of since, a webhook endpoint to serve, a check that fails here (the
    caller's seat, If-Match, the engine's verdict: on a match that may have moved on), a
    used Idempotency-Key, or the match changed before the write. The caller then does it
    all the locked way, which gives every answer, errors and replays included."""
    last = recent.newest(match_id)
    if last is None or last.endpoints or last.match.status != "active" \
            or heard_version(match_id) not in (None, last.match.version):
        return None
    match = hot_rows.copy_match(last.match)
    held = match.seat_of(player_id)
    if held is None or (if_match is not None
                        and not etag_matches(if_match, etag(match, held.seat))):
        return None
    try:
        writes, answer, stored = _made(match, held, player_id, body, [], idempotency_key)
    except ApiError:
        return None
    with hot_sql.own_connection() as connection:
        if not hot_sql.write_if_current(connection, match, writes, held.seat, player_id,
                                            stored):
            return None
    recent.remember(match)
    return answer


def resign(player: Player, match_id: str) -> Answer:
    """The caller's team concedes the match: their view after it."""
    refuse_outsider(match_id, player.id, "resign")
    match = lock_match(match_id)
    seat = match.seat_of(player.id)
    if seat is None:
        raise ApiError(403, "not_a_player", "you have no seat in this match")
    if match.status != "active":
        raise ApiError(409, "match_not_active", f"the match is {match.status}")
    state, events = engine.resign(load_state(match), seat.seat)
    _record(match, seat.seat, player.id, {"type": "resign"}, state, events)
    notify(match)
    answer = view_answer(match, seat.seat, state=state)
    db.session.commit()
    return answer


def bot_rng(match: Match, seat: int) -> random.Random:
    """A bot's randomness: from the match's secret seed, its version and the seat, so the
    same position gives the same move (and a match replays) but no client can predict it."""
    return random.Random(f"bot:{match.seed}:{match.version}:{seat}")


Step = Literal["bot_moved", "timed_out", "warned", "nothing"]


def advance(match: Match, now: datetime) -> Step:
    """The background step due in the locked `match` (the caller commits): a built-in bot's
    move when one is to act, else the turn deadline when it has passed, else the warning
    that it is near (webhook `deadline_soon`), else nothing (woken early: it is due again
    at its next time)."""
    levels = {s.seat: s.bot_level for s in match.seats if s.bot_level is not None}
    seat = next(iter(ready_bots(match)), None)
    if match.status != "active":
        match.due_at = match.deadline = None
        return _no_new_version(match, "nothing")
    if seat is not None:
        view = engine.view(load_state(match), seat)
        action = (dict(REFUSE) if players_refused(match, view)
                  else _bot_move(match, seat, levels[seat], view))
        _apply(match, seat, None, action)
    elif match.deadline is not None and match.deadline <= now:
        _time_out(match, now)
    elif match.warn_at is not None and match.warn_at <= now:
        for number in match.to_act:  # (no bot is ready here; one that waits has no player)
            player_id = next(s.player_id for s in match.seats if s.seat == number)
            if player_id is not None:
                enqueue_deadline_soon(match, player_id)
        match.warn_at = None
        match.due_at = match.deadline
        return _no_new_version(match, "warned")
    else:
        match.due_at = match.warn_at or match.deadline
        return _no_new_version(match, "nothing")
    notify(match)
    return "bot_moved" if seat is not None else "timed_out"


def _bot_move(match: Match, seat: int, level: str, view: dict[str, Any]) -> dict[str, Any]:
    """The built-in bot's choice for `seat`, with what the match's log says of the opponents
    when its level reads it (engine.bots.READING_LEVELS) and has a choice to make (the only
    legal action is taken without asking the bot, so the log is not read for it)."""
    reads = level in READING_LEVELS and len(view["legal_actions"]) > 1
    history = late_answers_in(match.id, seat % 2) if reads else None
    return choose(level, view, bot_rng(match, seat), history=history)


def _no_new_version(match: Match, step: Step) -> Step:
    """A step that makes no new version keeps what readers see: `updated_at` is written as it
    was (not the model's `onupdate`), so one version names exactly one body."""
    flag_modified(match, "updated_at")
    return step


def _time_out(match: Match, now: datetime) -> None:
    """The deadline passed: the first player to act loses their turn. `auto_play`: the
    `easy` bot acts for them (a match goes on); `forfeit`, or the third deadline in a row
    (the seat is abandoned): their team loses the match."""
    bots = bot_seats(match)
    number = next(s for s in match.to_act if s not in bots)
    seat = next(s for s in match.seats if s.seat == number)
    seat.timeouts += 1
    seat.timeouts_in_row += 1
    abandoned = seat.timeouts_in_row >= ABANDONED_AFTER
    forfeit = match.on_timeout == "forfeit" or abandoned
    notice: dict[str, Any] = {"type": "turn_timed_out", "seat": number, "player_id": seat.player_id,
              "outcome": "forfeit" if forfeit else "auto_play", "abandoned": abandoned,
              "timeouts_in_row": seat.timeouts_in_row}
    state = load_state(match)
    if forfeit:
        body: dict[str, Any] = dict(FORFEIT)
        state, events = engine.forfeit(state, number)
    else:
        body = choose(AUTO_PLAY_LEVEL, engine.view(state, number), bot_rng(match, number))
        state, events = engine.apply(state, number, body)
    _record(match, number, None, body, state, [notice, *events], now)
    if seat.player_id is not None:
        enqueue_turn_timed_out(match, seat.player_id, number, notice["outcome"], abandoned)
