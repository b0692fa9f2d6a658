"""The match service: create, join, leave, act, resign. Each change is one transaction that
locks the match row, asks the engine, stores state, actions and events, and notifies waiters."""
from __future__ import annotations

import random
import secrets
from datetime import datetime, timezone
from typing import Any

from flask import current_app
from sqlalchemy import select, text
from sqlalchemy.orm import joinedload

import engine
from app.errors import ApiError
from app.extensions import db
from app.models import ActionRecord, Event, Match, Player, Seat, id_can_exist, new_id
from engine.bots import AVAILABLE_LEVELS, choose

MAX_BOT_MOVES = 10_000
"""A guard: a request never loops for ever on bots (a match ends far sooner)."""


def _get(match_id: str, lock: bool = False) -> Match:
    if not id_can_exist(match_id):
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    query = (select(Match).where(Match.id == match_id)
             .options(joinedload(Match.seats).joinedload(Seat.player)))
    if lock:
        query = query.with_for_update(of=Match)
    match = db.session.execute(query).unique().scalar_one_or_none()
    if match is None:
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    return match


def get_match(match_id: str) -> Match:
    return _get(match_id)


def lock_match(match_id: str) -> Match:
    """The match row, locked until the transaction ends: one change at a time per match."""
    return _get(match_id, lock=True)


def notify(match: Match) -> None:
    """Wake long polls in every app process; delivered by PostgreSQL at commit."""
    db.session.execute(text("SELECT pg_notify('truco', :payload)"),
                       {"payload": f"{match.id}:{match.version}"})


def _append_events(match: Match, events: list[dict[str, Any]]) -> None:
    """Add events to the log, numbered on from the match's count (the row is locked)."""
    for data in events:
        match.event_count += 1
        db.session.add(Event(match_id=match.id, seq=match.event_count, version=match.version,
                             type=data["type"], data=data))


def _bump(match: Match) -> None:
    match.version += 1
    match.updated_at = datetime.now(timezone.utc)


# --- creation and seats ----------------------------------------------------------------


def create_match(player: Player, body: dict[str, Any]) -> Match:
    """Validate the create body (API.md) and seat the creator; start at once if full."""
    players = body["players"]
    if body["turn_timeout"] is not None:
        raise ApiError(422, "turn_timeout_unsupported",
                       "turn deadlines are not available yet: send turn_timeout null")
    fixed = body["deals"] is not None or body["start_score"] is not None
    if fixed and not current_app.config["FIXED_DEALS_ALLOWED"]:
        raise ApiError(403, "fixed_deals_disabled",
                       "this server does not allow deals or start_score")
    bots = body["bots"]
    bot_seats = [b["seat"] for b in bots]
    errors: dict[str, list[str]] = {}
    if any(not 0 <= s < players for s in bot_seats) or len(set(bot_seats)) != len(bot_seats):
        errors["bots"] = [f"each bot needs its own seat from 0 to {players - 1}"]
    seat = body["seat"]
    if seat is None:
        seat = next((s for s in range(players) if s not in bot_seats), None)
    if seat is None or not 0 <= seat < players or seat in bot_seats:
        errors["seat"] = ["must be a free seat from 0 to players - 1, not a bot's"]
    if errors:
        raise ApiError(422, "validation_error", "the match cannot be created", errors=errors)
    for bot in bots:
        if bot["level"] not in AVAILABLE_LEVELS:
            raise ApiError(422, "bot_level_unavailable",
                           f"bot level {bot['level']!r} is not available yet; "
                           f"available: {', '.join(AVAILABLE_LEVELS)}")
    seed = body["seed"] if body["seed"] is not None else secrets.randbelow(2**62)
    config = {"options": body["options"], "deals": body["deals"],
              "start_score": body["start_score"]}
    _start_state(body["ruleset"], players, seed, config)  # validates everything up front
    match = Match(id=new_id("m_"), ruleset=body["ruleset"], players=players,
                  target_score=body["target_score"],
                  status="waiting", visibility=body["visibility"], created_by=player.id,
                  invite_code=secrets.token_urlsafe(9) if body["visibility"] == "private"
                  else None,
                  seed=seed, fixed_deals=fixed, config=config, version=1, event_count=0,
                  action_count=0,
                  turn_timeout=None, on_timeout=body["on_timeout"],
                  seats=[Seat(seat=seat, player=player)]
                  + [Seat(seat=b["seat"], bot_level=b["level"]) for b in bots])
    db.session.add(match)
    db.session.flush()  # the match row before its events (they refer to it by key only)
    _append_events(match, [{"type": "player_joined", "seat": seat, "player_id": player.id}]
                   + [{"type": "player_joined", "seat": b["seat"], "bot_level": b["level"]}
                      for b in bots])
    _start_if_full(match)
    notify(match)
    db.session.commit()
    return match


def _start_state(ruleset: str, players: int, seed: int,
                 config: dict[str, Any]) -> tuple[engine.MatchState, list[dict[str, Any]]]:
    try:
        return engine.new_match(players=players, ruleset=ruleset, options=config["options"],
                                seed=seed, deals=config["deals"],
                                start_score=config["start_score"])
    except engine.InvalidConfig as exc:
        # each field maps to a list of messages, like every other validation_error
        errors = {k: [v] if isinstance(v, str) else v for k, v in exc.errors.items()}
        raise ApiError(422, "validation_error", "the match cannot be created",
                       errors=errors) from exc


def _start_if_full(match: Match) -> None:
    if match.status != "waiting" or len(match.seats) < match.players:
        return
    state, events = _start_state(match.ruleset, match.players, match.seed, match.config)
    match.status = "active"
    _append_events(match, [{"type": "match_started"}] + events)
    _run_bots(match, state)  # stores the state, after the bots' moves if any


def join_match(player: Player, match_id: str, seat: int | None,
               invite_code: str | None) -> tuple[Match, bool]:
    """Seat the player; (match, True) when a seat was taken now, False when already seated."""
    match = lock_match(match_id)
    if match.seat_of(player.id) is not None:
        db.session.rollback()
        return match, False
    if match.status != "waiting":
        raise ApiError(409, "match_not_waiting", "the match has already started or ended")
    if match.visibility == "private" and invite_code != match.invite_code:
        raise ApiError(403, "invalid_invite_code", "this private match needs its invite code")
    taken = {s.seat for s in match.seats}
    if seat is None:  # a waiting match has a free seat: it starts when the last is taken
        seat = min(s for s in range(match.players) if s not in taken)
    elif not 0 <= seat < match.players:
        raise ApiError(422, "validation_error", "no such seat",
                       errors={"seat": [f"must be from 0 to {match.players - 1}"]})
    elif seat in taken:
        raise ApiError(409, "seat_taken", f"seat {seat} is taken")
    match.seats.append(Seat(seat=seat, player=player))
    _bump(match)
    _append_events(match, [{"type": "player_joined", "seat": seat, "player_id": player.id}])
    _start_if_full(match)
    notify(match)
    db.session.commit()
    return match, True


def leave_match(player: Player, match_id: str) -> Match:
    match = lock_match(match_id)
    seat = match.seat_of(player.id)
    if seat is None:
        raise ApiError(403, "not_a_player", "you have no seat in this match")
    if match.status != "waiting":
        raise ApiError(409, "match_not_waiting", "you can leave only before the match starts")
    match.seats.remove(seat)  # delete-orphan: the row goes at the flush
    _bump(match)
    _append_events(match, [{"type": "player_left", "seat": seat.seat, "player_id": player.id}])
    if not any(s.player_id for s in match.seats):
        match.status = "cancelled"
        _append_events(match, [{"type": "match_cancelled"}])
    notify(match)
    db.session.commit()
    return match


# --- play ------------------------------------------------------------------------------


def _store(match: Match, state: engine.MatchState) -> None:
    match.state = state.to_json()
    if state.status == "finished":
        match.status = "finished"
        match.winner_team = state.winner_team


def _record(match: Match, seat: int, player_id: str | None, body: dict[str, Any]) -> None:
    """Record an applied action: replaying them in order rebuilds the state."""
    match.action_count += 1
    db.session.add(ActionRecord(match_id=match.id, n=match.action_count, seat=seat,
                                player_id=player_id, body=body))


def _run_bots(match: Match, state: engine.MatchState) -> engine.MatchState:
    """Let built-in bots act while one of them is to act, inside this transaction."""
    bots = {s.seat: s.bot_level for s in match.seats if s.bot_level is not None}
    rng = random.Random(f"bots:{match.seed}:{match.version}")
    for _ in range(MAX_BOT_MOVES):
        seat = next((s for s in state.to_act if s in bots), None)
        if state.status != "active" or seat is None:
            break
        action = choose(bots[seat], engine.view(state, seat), rng)
        state, events = engine.apply(state, seat, action)
        _record(match, seat, None, action)
        _append_events(match, events)
    _store(match, state)
    return state


def act(match: Match, seat: int, player: Player, body: dict[str, Any]) -> engine.MatchState:
    """Apply one action of `seat` to the locked `match`, then the bots' answers."""
    if match.status != "active":
        raise ApiError(409, "match_not_active", f"the match is {match.status}")
    state = engine.MatchState.from_json(match.state)
    try:
        state, events = engine.apply(state, seat, body)
    except engine.InvalidAction as exc:
        raise ApiError(422, "validation_error", exc.message,
                       errors={exc.field or "_body": [exc.message]}) from exc
    except engine.IllegalAction as exc:
        if exc.reason == "match_not_active":
            raise ApiError(409, "match_not_active", exc.message) from exc
        raise ApiError(422, "illegal_action", exc.message, reason=exc.reason,
                       legal_actions=engine.legal_actions(state, seat)) from exc
    _bump(match)
    _record(match, seat, player.id, body)
    _append_events(match, events)
    return _run_bots(match, state)


def resign(player: Player, match_id: str) -> Match:
    match = lock_match(match_id)
    seat = match.seat_of(player.id)
    if seat is None:
        raise ApiError(403, "not_a_player", "you have no seat in this match")
    if match.status != "active":
        raise ApiError(409, "match_not_active", f"the match is {match.status}")
    state, events = engine.resign(engine.MatchState.from_json(match.state), seat.seat)
    _bump(match)
    _record(match, seat.seat, player.id, {"type": "resign"})
    _append_events(match, events)
    _store(match, state)
    notify(match)
    db.session.commit()
    return match


def replay(match: Match) -> engine.MatchState | None:
    """The state rebuilt from the creation config and the recorded actions (for checks)."""
    if match.status == "waiting" or match.state is None:
        return None
    state, _ = _start_state(match.ruleset, match.players, match.seed, match.config)
    records = db.session.execute(
        select(ActionRecord).where(ActionRecord.match_id == match.id).order_by(ActionRecord.n)
    ).scalars()
    for record in records:
        if record.body == {"type": "resign"}:
            state, _ = engine.resign(state, record.seat)
        else:
            state, _ = engine.apply(state, record.seat, record.body)
    return state
