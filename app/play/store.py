"""Loading, locking and storing matches: the pieces every service verb uses inside its one
transaction (lock, append events and actions, store the engine's state, schedule the
background work, notify waiters)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import joinedload

import engine
from engine.events import Event
from app.infra.problems import ApiError
from app.db.extensions import db
from app.play.fairness import match_key, reveal_events
from app.play.bot_partners import bot_seats, ready_bots
from app.db.models import ActionRecord, Match, Player, Seat, id_can_exist
from app.infra.encoding import iso
from app.infra.request_ids import current_request_id
from app.db.channels import CHANNEL
from app.webhooks.outbox import on_store as enqueue_webhooks
from app.db.writes import SESSION_WRITES, Writes

FORFEIT: dict[str, Any] = {"type": "forfeit", "reason": "timed_out"}
"""The action recorded for a seat's forfeit by time (a resignation: `{"type": "resign"}`)."""

DUE_CHANNEL = "truco_due"
"""Background work that became due now (a bot's turn, a finished match to settle): payload
the match id (workers listen)."""


def _load(match_id: str) -> Match | None:
    query = (select(Match).where(Match.id == match_id)
             .options(joinedload(Match.seats).joinedload(Seat.player))
             .execution_options(populate_existing=True))
    return db.session.execute(query).unique().scalar_one_or_none()


def get_match(match_id: str) -> Match:
    """The match with its seats and players, or 404."""
    match = _load(match_id) if id_can_exist(match_id) else None
    if match is None:
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    return match


def get_player(player_id: str) -> Player:
    """The player, or 404 `player_not_found`: a closed account (app/play/accounts.py) is
    nobody to look up, invite or block any more."""
    player = db.session.get(Player, player_id) if id_can_exist(player_id) else None
    if player is None or player.closed_at is not None:
        raise ApiError(404, "player_not_found", f"no player {player_id}")
    return player


def lock_match(match_id: str) -> Match:
    """The match row, locked until the transaction ends: one change at a time per match.

    The lock is taken first, in a statement of its own; the match and its seats are read
    after it is held. (Read in the locking statement, the seats would come from the snapshot
    taken before a wait for the lock: a join that waited for another join would not see the
    seat that one took.)"""
    if not id_can_exist(match_id):
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    locked = db.session.execute(
        select(Match.id).where(Match.id == match_id).with_for_update()).scalar_one_or_none()
    if locked is None:
        raise ApiError(404, "match_not_found", f"no match {match_id}")
    return get_match(match_id)


def notify(match: Match, *others: str, writes: Writes = SESSION_WRITES) -> None:
    """Wake long polls in every app process; delivered by PostgreSQL at commit.

    The payload names the match, its version and the players seated in it (and `others`,
    such as a player who just left), so that waits on a match and waits on a player's
    inbox both wake: `<match id>:<version>:<player id>,<player id>...`."""
    # (a seat added in this transaction has its player but no player_id before the flush)
    players = {s.player.id for s in match.seats if s.player is not None} | set(others)
    notify_version(match.id, match.version, players, writes)


def notify_version(match_id: str, version: int, players: set[str],
                   writes: Writes = SESSION_WRITES) -> None:
    """`notify` for a match known by its id, new version and seated players."""
    writes.notify(CHANNEL, f"{match_id}:{version}:{','.join(sorted(players))}")
    writes.changed(match_id, version)


def append_events(match: Match, events: Sequence[Mapping[str, Any]],
                  writes: Writes = SESSION_WRITES) -> None:
    """Add events to the log, numbered on from the match's count (the row is locked)."""
    for data in events:
        match.event_count += 1
        writes.event(match.id, match.event_count, match.version, data)


def bump(match: Match) -> None:
    """A new version of the match (every change, seen by ETags and long polls)."""
    match.version += 1
    match.updated_at = datetime.now(timezone.utc)


def record(match: Match, seat: int, player_id: str | None, body: dict[str, Any],
           writes: Writes = SESSION_WRITES) -> None:
    """Record an applied action: replaying them in order rebuilds the state."""
    match.action_count += 1
    writes.action(match.id, match.action_count, seat, player_id, body)


def store(match: Match, state: engine.MatchState, now: datetime | None = None,
          writes: Writes = SESSION_WRITES) -> None:
    """Keep the engine's state and what the app needs from it in columns (status, winner,
    the seats to act), and schedule what it calls for: a turn deadline for the players to
    act, background work for the bots to act, webhook deliveries for the players."""
    enqueue_webhooks(match, state, writes)  # before the columns change: it compares old and new
    match.state = state.to_json()
    match.to_act = list(state.to_act) if state.status == "active" else []
    match.score = list(state.score)
    if state.status == "finished" and match.status != "finished":
        match.status = "finished"
        match.winner_team = state.winner_team
        match.end_reason = state.end_reason
        writes.notify(DUE_CHANNEL, match.id)  # the workers settle it (app/play/settle.py)
        append_events(match, reveal_events(match), writes)  # the log's last event
    schedule(match, now or datetime.now(timezone.utc), writes)


def schedule(match: Match, now: datetime, writes: Writes = SESSION_WRITES) -> None:
    """Set the turn deadline and `due_at` from the seats to act. Every move starts a new
    deadline for the players then to act (event `deadline_set`), so a seat that must act
    again after its own move gets a full turn too; a bot to act is due now (and the
    workers are told at commit; a bot that leaves its team's answer to a player is not:
    app/play/bot_partners.py)."""
    bots = bot_seats(match)
    people = [s for s in match.to_act if s not in bots] if match.status == "active" else []
    if match.turn_timeout is None or not people:
        match.deadline = match.warn_at = None
    else:
        match.deadline = now + timedelta(seconds=match.turn_timeout)
        match.warn_at = match.deadline - warning_before(match.turn_timeout)
        append_events(match, [{"type": "deadline_set", "seats": people,
                               "deadline": iso(match.deadline)}], writes)
    if match.status == "active" and ready_bots(match):
        match.due_at = now
        cause = current_request_id()  # (named in the worker's line for this work)
        writes.notify(DUE_CHANNEL, f"{match.id} {cause}" if cause else match.id)
    else:
        match.due_at = match.warn_at or match.deadline


def warning_before(turn_timeout: int) -> timedelta:
    """How long before a deadline its players are warned: a quarter of the time per turn,
    at most an hour."""
    return timedelta(seconds=min(3600, turn_timeout / 4))


def load_state(match: Match) -> engine.MatchState:
    """The engine state of a started match."""
    assert match.state is not None, "a waiting match has no state"
    return engine.MatchState.from_json(match.state)


def start_state(ruleset: str, players: int, seed: int, config: dict[str, Any],
                key: bytes | None = None) -> tuple[engine.MatchState, list[Event]]:
    """The state and events of a new match (`key`: its deal key, app/play/fairness.py), or 422
    for a config the engine refuses."""
    try:
        return engine.new_match(players=players, ruleset=ruleset, options=config["options"],
                                seed=seed, deals=config["deals"],
                                start_score=config["start_score"], deal_key=key)
    except engine.InvalidConfig as exc:
        # each field maps to a list of messages, like every other validation_error
        errors = {k: [v] if isinstance(v, str) else v for k, v in exc.errors.items()}
        raise ApiError(422, "validation_error", "the match cannot be created",
                       errors=errors) from exc


def replay(match: Match) -> engine.MatchState | None:
    """The state rebuilt from the creation config and the recorded actions (for checks)."""
    if match.status == "waiting" or match.state is None:
        return None
    state, _ = start_state(match.ruleset, match.players, match.seed, match.config,
                           match_key(match))
    records = db.session.execute(
        select(ActionRecord).where(ActionRecord.match_id == match.id).order_by(ActionRecord.n)
    ).scalars()
    for row in records:
        state, _ = apply_record(state, row.seat, row.body)
    return state


def apply_record(state: engine.MatchState, seat: int,
                 body: dict[str, Any]) -> tuple[engine.MatchState, list[Event]]:
    """What a recorded action did: a resignation, a forfeit by time or a played action."""
    if body == {"type": "resign"}:
        return engine.resign(state, seat)
    if body == FORFEIT:
        return engine.forfeit(state, seat)
    return engine.apply(state, seat, body)
