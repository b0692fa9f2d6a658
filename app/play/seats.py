"""Seats: create a match, join it, leave it. Each verb is one transaction that locks what
it changes, stores the result and notifies waiters (playing is in app.play.moves)."""
from __future__ import annotations

import hmac
import secrets
from datetime import datetime, timezone
from typing import Any

from flask import current_app

import engine
from engine.events import Event
from app.db import hot_sql
from app.play import commitments
from app.play import handles
from app.play.bot_quota import check_bot_quota
from app.infra.problems import ApiError
from app.play.invitation_rules import check_invitation_quota
from app.db.extensions import db
from app.play.level_players import level_of
from app.play.fairness import fairness_config, key_of, match_key, new_secret
from app.play.store import append_events, bump, lock_match, notify, start_state, store
from app.db.models import Match, Player, Seat, new_id
from app.play.rendering import Answer, view_answer
from app.play.seat_gate import refuse_outsider
from app.webhooks.outbox import enqueue_invited
from app.db.writes import BufferedWrites, Writes
from app.live.recent import recent

SEED_BITS = 62
"""Seeds fit PostgreSQL's bigint."""


def server_seed() -> int:
    """A secret seed from the operating system's CSPRNG: deals, the first dealer and the
    bots' choices derive from it, so it is never shown and never derived from a client's
    input, an id or the time."""
    return secrets.randbits(SEED_BITS)


def create_match(player_id: str, body: dict[str, Any]) -> Answer:
    """Validate the create body (API.md) and seat the creator, `player_id` (read with the
    rest, under the lock of their row); start at once if full. The creator's view of the new
    match (201)."""
    players = body["players"]
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
    invites = handles.invited_ids(body["invite"])
    invite_seats = [i["seat"] for i in invites]
    reserved = bot_seats + invite_seats
    seat = body["seat"]
    if seat is None:
        seat = next((s for s in range(players) if s not in reserved), None)
    if seat is None or not 0 <= seat < players or seat in reserved:
        errors["seat"] = ["must be a free seat from 0 to players - 1, not a bot's or an "
                          "invited player's"]
    invite_errors = _invite_errors(player_id, invites, players, bot_seats)
    if invite_errors:
        errors["invite"] = invite_errors
    auditable = body["seed"] is None and body["deals"] is None
    if body["commitment"] is not None and not auditable:
        errors["commitment"] = ["a commitment is for shuffled deals: not with seed or deals"]
    if errors:
        raise ApiError(422, "validation_error", "the match cannot be created", errors=errors)
    with hot_sql.own_connection() as connection:
        found = hot_sql.creation_load(connection, player_id,
                                          [i["player_id"] for i in invites])
        player = found.creator
        unknown = sorted({i["player_id"] for i in invites} - set(found.invited))
        if unknown:
            raise ApiError(422, "validation_error", "the match cannot be created",
                           errors={"invite": [f"no player {pid}" for pid in unknown]})
        if 1 + len(bots) < players:  # the match will wait for players
            _check_waiting_cap(found.waiting)
        check_bot_quota(bots, found.bots_in_flight)
        check_invitation_quota([i["player_id"] for i in invites], found.pending,
                               found.blocked_by)
        seed = body["seed"] if body["seed"] is not None else server_seed()
        config = {"options": body["options"], "deals": body["deals"],
                  "start_score": body["start_score"],
                  **({"rematch_of": body["rematch_of"]} if "rematch_of" in body else {})}
        secret, match_id = new_secret(), new_id("m_")
        if body["commitment"] is not None:  # (the secret and the id were fixed before)
            secret, match_id = commitments.take(connection, player_id, body["commitment"])
        if auditable:
            config["fairness"] = fairness_config(secret)
        client_seed = body["client_seed"] or ""
        seeds = [client_seed if s == seat else "" for s in range(players)]  # (if full now)
        start = start_state(body["ruleset"], players, seed, config,  # (validates it all)
                            key_of(config, match_id, seeds))
        now = datetime.now(timezone.utc)
        match = Match(id=match_id, ruleset=body["ruleset"], players=players,
                      target_score=body["target_score"],
                      status="waiting", visibility=body["visibility"], created_by=player.id,
                      invite_code=secrets.token_urlsafe(9) if body["visibility"] == "private"
                      else None,
                      seed=seed, fixed_deals=fixed, config=config, state=None, version=1,
                      event_count=0, action_count=0, to_act=[],
                      score=list(body["start_score"] or [0, 0]),
                      turn_timeout=body["turn_timeout"], on_timeout=body["on_timeout"],
                      created_at=now, updated_at=now,
                      seats=[Seat(seat=seat, player=player, player_id=player.id,
                                  client_seed=client_seed)]
                      + [Seat(seat=b["seat"], bot_level=b["level"]) for b in bots]
                      + [Seat(seat=i["seat"], player=found.invited[i["player_id"]],
                              player_id=i["player_id"], invited=True) for i in invites])
        writes = BufferedWrites(found.endpoints)
        append_events(match, [{"type": "player_joined", "seat": seat, "player_id": player.id}]
                      + [{"type": "player_joined", "seat": b["seat"], "bot_level": b["level"]}
                         for b in bots]
                      + [{"type": "player_invited", "seat": i["seat"],
                          "player_id": i["player_id"]} for i in invites], writes)
        for invite in invites:
            enqueue_invited(match, invite["player_id"], invite["seat"], writes)
        _start_if_full(match, writes, start)
        notify(match, writes=writes)
        answer = view_answer(match, seat, 201)
        hot_sql.create_and_commit(connection, match, writes)
    recent.remember(match, found.endpoints)
    return answer


def _check_waiting_cap(waiting: int) -> None:
    """At most MAX_WAITING_MATCHES open matches made by one player (a full lobby of one
    player's matches helps nobody); `waiting`: the creator's, counted under a lock of their
    row, so that parallel creations count each other (app/db/hot_sql.py: creation_load)."""
    cap = current_app.config["MAX_WAITING_MATCHES"]
    if waiting >= cap:
        raise ApiError(409, "too_many_waiting_matches",
                       f"you already have {waiting} matches waiting for players (at most "
                       f"{cap}); start or leave one first")


def _invite_errors(player_id: str, invites: list[dict[str, Any]], players: int,
                   bot_seats: list[int]) -> list[str]:
    """What is wrong with the create body's `invite` list (nothing: empty)."""
    seats = [i["seat"] for i in invites]
    ids = [i["player_id"] for i in invites]
    errors = []
    if any(not 0 <= s < players for s in seats) or len(set(seats)) != len(seats) \
            or set(seats) & set(bot_seats):
        errors.append(f"each invitation needs its own seat from 0 to {players - 1}, "
                      "not a bot's")
    if len(set(ids)) != len(ids):
        errors.append("a player can be invited to one seat only")
    if player_id in ids:
        errors.append("you take your own seat: do not invite yourself")
    levels = sorted({level for level in map(level_of, ids) if level is not None})
    if levels:  # (its player never joins: the seat would wait for the invitation to expire)
        errors.append(f"a built-in level plays by `bots`, not by invitation: {levels[0]}")
    return errors


def _start_if_full(match: Match, writes: Writes,
                   start: tuple[engine.MatchState, list[Event]] | None = None) -> None:
    """Deal the first hand once every seat is taken by a player or a bot (a seat reserved
    for an invited player counts once they accept); `start`: the match's first state and
    events when the caller has made them already."""
    if match.status != "waiting" or sum(not s.invited for s in match.seats) < match.players:
        return
    state, events = start or start_state(match.ruleset, match.players, match.seed,
                                         match.config, match_key(match))
    match.status = "active"
    append_events(match, [{"type": "match_started"}, *events], writes)
    store(match, state, writes=writes)  # a bot to act first is now due for the workers


def _code_matches(sent: str | None, code: str | None) -> bool:
    """Whether `sent` is the private match's invite `code`, compared in constant time (as
    bytes: a code sent with non-ASCII characters, a lone surrogate included, is simply
    wrong)."""
    return sent is not None and code is not None and hmac.compare_digest(
        sent.encode("utf-8", "surrogatepass"), code.encode())


def join_match(player_id: str, match_id: str, seat: int | None,
               invite_code: str | None, client_seed: str | None = None) -> tuple[Answer, bool]:
    """Seat the player `player_id` with their `client_seed`; (their view, True) when a seat
    was taken now, False when already seated (the seed sent is then ignored). An invited
    player accepts this way: they take the seat reserved for them (no invite code needed; a
    `seat` asked for is ignored). Two round trips, as an action:
    lock and read the match; write and commit (app/db/hot_sql.py)."""
    with hot_sql.own_connection() as connection:
        loaded = hot_sql.lock_and_load(connection, match_id, player_id, None,
                                           caller=True)
        match, player = loaded.match, loaded.caller
        assert player is not None, "read with caller=True"
        held = match.seat_of(player.id)
        if held is not None:
            return view_answer(match, held.seat), False  # (nothing written: rolled back)
        if match.status != "waiting":
            raise ApiError(409, "match_not_waiting", "the match has already started or ended")
        taken = match.invitation_for(player.id)
        if taken is not None:
            taken.invited = False
        else:
            if match.visibility == "private" and not _code_matches(invite_code,
                                                                   match.invite_code):
                raise ApiError(403, "invalid_invite_code",
                               "this private match needs its invite code")
            numbers = {s.seat for s in match.seats}
            free = [s for s in range(match.players) if s not in numbers]
            if seat is None:  # the free seats left may all be reserved for invited players
                if not free:
                    raise ApiError(409, "seat_taken",
                                   "every seat is taken or reserved for an invited player")
                seat = free[0]
            elif not 0 <= seat < match.players:
                raise ApiError(422, "validation_error", "no such seat",
                               errors={"seat": [f"must be from 0 to {match.players - 1}"]})
            elif seat in numbers:
                raise ApiError(409, "seat_taken", f"seat {seat} is taken")
            taken = Seat(seat=seat, player=player, player_id=player.id)
            match.seats.append(taken)  # (a plain list here: app/db/hot_rows.py, stand_in)
            match.seats.sort(key=lambda s: s.seat)
        taken.client_seed = client_seed or ""
        writes = BufferedWrites(loaded.endpoints)
        bump(match)
        append_events(match, [{"type": "player_joined", "seat": taken.seat,
                               "player_id": player.id}], writes)
        _start_if_full(match, writes)
        notify(match, writes=writes)
        answer = view_answer(match, taken.seat)
        hot_sql.seat_and_commit(connection, match, writes, taken)
    recent.remember(match, loaded.endpoints)
    return answer, True


def leave_match(player: Player, match_id: str, invitation_only: bool = False) -> Answer:
    """Give up a seat before the match starts, or decline an invitation. A match left with
    no player who has accepted is cancelled (its pending invitations go with it). The
    match as a spectator sees it now. `invitation_only` (declining in bulk, expiry): only a
    pending invitation is declined, as found under the lock; a seat accepted since is kept
    (409 `not_invited`)."""
    refuse_outsider(match_id, player.id, "leave")
    match = lock_match(match_id)
    invitation = match.invitation_for(player.id)
    seat = match.seat_of(player.id) or invitation
    if seat is None:
        raise ApiError(403, "not_a_player", "you have no seat in this match")
    if invitation_only and invitation is None:
        raise ApiError(409, "not_invited", "the invitation was accepted: the seat is kept")
    if match.status != "waiting":
        raise ApiError(409, "match_not_waiting", "you can leave only before the match starts")
    match.seats.remove(seat)  # delete-orphan: the row goes at the flush
    bump(match)
    append_events(match, [
        {"type": "invitation_declined", "seat": seat.seat, "player_id": player.id}
        if invitation is not None else
        {"type": "player_left", "seat": seat.seat, "player_id": player.id}])
    gone = [player.id]
    if not any(s.player_id and not s.invited for s in match.seats):
        match.status = "cancelled"
        match.end_reason = "cancelled"
        for pending in [s for s in match.seats if s.invited]:
            assert pending.player is not None, "an invitation names its player"
            gone.append(pending.player.id)
            match.seats.remove(pending)
        append_events(match, [{"type": "match_cancelled", "end_reason": "cancelled"}])
    notify(match, *gone)
    answer = view_answer(match, None)
    db.session.commit()
    return answer


