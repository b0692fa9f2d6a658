"""Seats: create a match, join it, leave it. Each verb is one transaction that locks what
it changes, stores the result and notifies waiters (playing is in app.play)."""
from __future__ import annotations

import secrets
from typing import Any

from flask import current_app
from sqlalchemy import func, select

from app.errors import ApiError
from app.extensions import db
from app.match_store import append_events, bump, lock_match, notify, start_state, store
from app.models import Match, Player, Seat, new_id
from engine.bots import AVAILABLE_LEVELS

SEED_BITS = 62
"""Seeds fit PostgreSQL's bigint."""


def server_seed() -> int:
    """A secret seed from the operating system's CSPRNG: deals, the first dealer and the
    bots' choices derive from it, so it is never shown and never derived from a client's
    input, an id or the time."""
    return secrets.randbits(SEED_BITS)


def create_match(player: Player, body: dict[str, Any]) -> Match:
    """Validate the create body (API.md) and seat the creator; start at once if full."""
    players = body["players"]
    if body["turn_timeout"] is not None:
        raise ApiError(422, "turn_timeout_unsupported",
                       "turn deadlines are not available yet: send turn_timeout null")
    # Whoever knows the seed can compute every deal: a chosen seed is a fixed deal.
    fixed = any(body[k] is not None for k in ("seed", "deals", "start_score"))
    if fixed and not current_app.config["FIXED_DEALS_ALLOWED"]:
        raise ApiError(403, "fixed_deals_disabled",
                       "this server does not allow seed, deals or start_score")
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
    if 1 + len(bots) < players:  # the match will wait for players
        _check_waiting_cap(player)
    for bot in bots:
        if bot["level"] not in AVAILABLE_LEVELS:
            raise ApiError(422, "bot_level_unavailable",
                           f"bot level {bot['level']!r} is not available yet; "
                           f"available: {', '.join(AVAILABLE_LEVELS)}")
    seed = body["seed"] if body["seed"] is not None else server_seed()
    config = {"options": body["options"], "deals": body["deals"],
              "start_score": body["start_score"]}
    start_state(body["ruleset"], players, seed, config)  # validates everything up front
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
    append_events(match, [{"type": "player_joined", "seat": seat, "player_id": player.id}]
                   + [{"type": "player_joined", "seat": b["seat"], "bot_level": b["level"]}
                      for b in bots])
    _start_if_full(match)
    notify(match)
    db.session.commit()
    return match


def _check_waiting_cap(player: Player) -> None:
    """At most MAX_WAITING_MATCHES open matches made by one player (a full lobby of one
    player's matches helps nobody). The player's row is locked so that parallel creations
    count each other."""
    db.session.execute(select(Player.id).where(Player.id == player.id).with_for_update())
    waiting = db.session.execute(
        select(func.count()).select_from(Match)
        .where(Match.created_by == player.id, Match.status == "waiting")).scalar_one()
    cap = current_app.config["MAX_WAITING_MATCHES"]
    if waiting >= cap:
        raise ApiError(409, "too_many_waiting_matches",
                       f"you already have {waiting} matches waiting for players (at most "
                       f"{cap}); start or leave one first")


def _start_if_full(match: Match) -> None:
    if match.status != "waiting" or len(match.seats) < match.players:
        return
    state, events = start_state(match.ruleset, match.players, match.seed, match.config)
    match.status = "active"
    append_events(match, [{"type": "match_started"}] + events)
    store(match, state)  # a bot to act first is now due for the workers


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
    bump(match)
    append_events(match, [{"type": "player_joined", "seat": seat, "player_id": player.id}])
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
    bump(match)
    append_events(match, [{"type": "player_left", "seat": seat.seat, "player_id": player.id}])
    if not any(s.player_id for s in match.seats):
        match.status = "cancelled"
        append_events(match, [{"type": "match_cancelled"}])
    notify(match, player.id)
    db.session.commit()
    return match


