"""Which webhook events a change of a match causes, written to the outbox in the change's own
transaction (a worker sends them later: never inside the request).

A payload carries only what its player may know: ids, the match's version and status, the
player's seat and team, whether it is their turn, and per event the winner or the deadline.
Never a card."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from typing import Any

import engine
from app.db.models import Match, Seat
from app.infra.encoding import iso
from app.db.writes import SESSION_WRITES, Writes


DELIVERY_CHANNEL = "truco_webhooks"
"""Notified (empty payload) with every change that enqueues a delivery
(app/webhooks/dispatch.py listens)."""


def _player_of(seat: Seat) -> str | None:
    # (a seat added in this transaction has its player but no player_id before the flush)
    return seat.player.id if seat.player is not None else seat.player_id


def _payload(match: Match, event: str, player_id: str, seat: int | None,
             your_turn: bool, extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": event,
        "timestamp": iso(datetime.now(timezone.utc)),
        "data": {"match_id": match.id, "version": match.version, "status": match.status,
                 "player_id": player_id, "seat": seat,
                 "team": None if seat is None else seat % 2, "your_turn": your_turn,
                 **extra},
    }


def enqueue(match: Match, wanted: Iterable[tuple[str, str, int | None, bool, dict[str, Any]]],
            writes: Writes = SESSION_WRITES) -> int:
    """Add a delivery per (event, player, seat, your_turn, extra data) and per active
    endpoint of that player subscribed to the event; the number added. The caller commits."""
    wanted = list(wanted)
    if not wanted:
        return 0
    endpoints = writes.endpoints({w[1] for w in wanted})
    now = datetime.now(timezone.utc)
    added = 0
    for event, player_id, seat, your_turn, extra in wanted:
        for endpoint in endpoints:
            if endpoint.player_id == player_id and event in endpoint.events:
                writes.delivery(endpoint.id, event,
                                _payload(match, event, player_id, seat, your_turn, extra), now)
                added += 1
    if added:
        writes.notify(DELIVERY_CHANNEL, "")  # the senders start at the commit
    return added


def on_store(match: Match, state: engine.MatchState,
             writes: Writes = SESSION_WRITES) -> None:
    """Called by `match_store.store` before it writes `state` into the match's columns: the
    columns still hold the previous state, so what changed is known here. `match_started`
    (the match had no state), `your_turn` (a seat entered the seats to act),
    `match_finished` (it has just ended)."""
    started = match.state is None
    finished = state.status == "finished" and match.status != "finished"
    before = set(match.to_act or [])
    after = set(state.to_act) if state.status == "active" else set()
    wanted: list[tuple[str, str, int | None, bool, dict[str, Any]]] = []
    for seat in match.seats:
        player_id = _player_of(seat)
        if player_id is None or seat.invited:
            continue  # a built-in bot, or an invitation not accepted (the match waits)
        turn = seat.seat in after
        if started:
            wanted.append(("match_started", player_id, seat.seat, turn, {}))
        if turn and seat.seat not in before:
            wanted.append(("your_turn", player_id, seat.seat, True, {}))
        if finished:
            wanted.append(("match_finished", player_id, seat.seat, False,
                           {"status": "finished", "winner_team": state.winner_team,
                            "end_reason": state.end_reason}))
    enqueue(match, wanted, writes)


def enqueue_invited(match: Match, player_id: str, seat: int | None = None,
                    writes: Writes = SESSION_WRITES) -> int:
    """`invited`: a seat of `match` (`seat`, when one is reserved) is kept for `player_id`;
    `your_turn` is true, as in the inbox: the match waits for them to answer."""
    return enqueue(match, [("invited", player_id, seat, True, {})], writes)


def enqueue_deadline_soon(match: Match, player_id: str) -> int:
    """`deadline_soon`: `player_id` is to act in `match` and its turn deadline
    (`match.deadline`) is near. For the turn-deadline feature to call in its own
    transaction (once per turn)."""
    seat = match.seat_of(player_id)
    number = None if seat is None else seat.seat
    deadline = iso(match.deadline)
    return enqueue(match, [("deadline_soon", player_id, number,
                            number is not None and number in (match.to_act or []),
                            {"deadline": deadline})])


def enqueue_turn_timed_out(match: Match, player_id: str, seat: int, outcome: str,
                           abandoned: bool) -> int:
    """`turn_timed_out`: `player_id`'s deadline in `match` passed and `outcome` happened
    (`auto_play`: the easy bot acted for them; `forfeit`: their team lost the match;
    `abandoned`: the third deadline in a row). In the worker's transaction that times out,
    after the match holds its new state: `your_turn` says whether the seat must act again
    (the auto-played card won the trick, and it leads the next)."""
    your_turn = match.status == "active" and seat in (match.to_act or [])
    return enqueue(match, [("turn_timed_out", player_id, seat, your_turn,
                            {"outcome": outcome, "abandoned": abandoned})])


def enqueue_review_done(match: Match, tallies: Mapping[int, Mapping[str, Any]]) -> int:
    """`review_done`: the computer's review of finished `match` is done (app/play/reviews.py,
    in the transaction that closes it); to each of its players, with their own seat's tally
    from `tallies` (decisions, mistakes, loss: counts, never a card)."""
    wanted: list[tuple[str, str, int | None, bool, dict[str, Any]]] = []
    for seat in match.seats:
        player_id = _player_of(seat)
        if player_id is None or seat.invited:
            continue
        tally = tallies.get(seat.seat, {})
        wanted.append(("review_done", player_id, seat.seat, False, {"review": {
            "decisions": tally.get("decisions", 0), "mistakes": tally.get("mistakes", 0),
            "loss": tally.get("loss", 0.0)}}))
    return enqueue(match, wanted)
