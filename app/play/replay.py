"""Replays of a finished match (`GET /v1/matches/{id}/replay?step=N`): the table after any
event of its log, rebuilt from the recorded actions and seen as the caller may see it.

Step N (1 to the number of events) is the match as it stood once the change that wrote event
N was complete: the events of one change (a trick's last card, its result, the next deal) are
one table, the one every view of that version showed. Step 0 is before the first event. The
match's players see every card and no legal action; anyone else what a spectator saw then.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from datetime import datetime
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from sqlalchemy import select

import engine
from app.db.hot_rows import copy_match
from app.infra.problems import ApiError
from app.db.extensions import db
from app.play.fairness import match_key
from app.play.store import FORFEIT, apply_record, get_match, start_state
from app.db.models import ActionRecord, Event, Match, Player
from app.play.rendering import match_view, seat_number


RESIGN: dict[str, Any] = {"type": "resign"}


@dataclass
class SeatAt:
    """A seat as it stood at one step (what the rendering reads of a seat)."""

    seat: int
    player_id: str | None
    player: Player | None
    bot_level: str | None
    invited: bool = False
    client_seed: str = ""
    timeouts: int = 0
    timeouts_in_row: int = 0


@dataclass
class Table:
    """What the match's changing columns held after one change."""

    version: int = 0
    status: str = "waiting"
    actions: int = 0
    """The recorded actions applied so far."""
    seats: dict[int, SeatAt] = field(default_factory=dict)
    deadline: str | None = None
    at: datetime | None = None


def replay_answer(match_id: str, player_id: str | None, step: int) -> dict[str, Any]:
    """The body of the replay of `match_id` at `step` as `player_id` (None: a spectator) may
    see it, or 404 match_not_found, 409 match_not_finished, 404 step_not_found."""
    match = get_match(match_id)
    if match.status != "finished":
        raise ApiError(409, "match_not_finished", "a replay is for a finished match; this "
                       f"one is {match.status}")
    events = db.session.execute(select(Event).where(Event.match_id == match.id)
                                .order_by(Event.seq)).scalars().all()
    if step > len(events):
        raise ApiError(404, "step_not_found", f"this replay has steps 0 to {len(events)}")
    actions = db.session.execute(select(ActionRecord).where(ActionRecord.match_id == match.id)
                                 .order_by(ActionRecord.n)).scalars().all()
    states, expected = replayed(match, actions)
    table = Table()
    if step:
        upto = events[step - 1].version
        table = _table_after(match, [e for e in events if e.version <= upto], actions,
                             states, expected)
    state = states[table.actions] if table.status != "waiting" else None
    seat = seat_number(match, player_id)
    return {"step": step, "steps": len(events),
            "view": match_view(_moment(match, table, state), seat, state,
                               open_cards=seat is not None)}


def replayed(match: Match, actions: Sequence[ActionRecord]
              ) -> tuple[list[engine.MatchState], list[tuple[int, Mapping[str, Any]]]]:
    """The state after each number of actions (from 0), and every event the engine wrote
    with the number of the action that wrote it (0: the first deal)."""
    state, started = start_state(match.ruleset, match.players, match.seed, match.config,
                                 match_key(match))
    states = [state]
    expected: list[tuple[int, Mapping[str, Any]]] = [(0, e) for e in started]
    for row in actions:
        state, written = apply_record(state, row.seat, row.body)
        states.append(state)
        expected += [(row.n, e) for e in written]
    return states, expected


def steps_before_actions(events: Sequence[Event],
                         expected: list[tuple[int, Mapping[str, Any]]]) -> dict[int, int]:
    """Each recorded action's number: the replay step just before it (the table its seat saw
    when it decided: the last step of the change before the one that applied it). `events`:
    the log in order; `expected`: :func:`replayed`'s."""
    first_of_version: dict[int, int] = {}
    steps: dict[int, int] = {}
    for step, (event, number) in enumerate(_matched(events, expected), start=1):
        first_of_version.setdefault(event.version, step)
        if number:
            steps.setdefault(number, first_of_version[event.version] - 1)
    return steps


def _matched(events: Iterable[Event], expected: list[tuple[int, Mapping[str, Any]]]
             ) -> Iterator[tuple[Event, int | None]]:
    """Each event of the log with the number of the recorded action that wrote it (0: the
    first deal), or None for an event of the service's (a join, a deadline...): the engine's
    events of the log are matched in order with those the replayed actions write."""
    next_expected = 0
    for event in events:
        if next_expected < len(expected) and event.data == expected[next_expected][1]:
            yield event, expected[next_expected][0]
            next_expected += 1
        else:
            yield event, None


def _table_after(match: Match, events: list[Event], actions: Sequence[ActionRecord],
                 states: list[engine.MatchState],
                 expected: list[tuple[int, Mapping[str, Any]]]) -> Table:
    """The table after the last change of `events` (the log from its start)."""
    players = _players(match, events)
    table = Table()
    for version, change in itertools.groupby(_matched(events, expected),
                                             key=lambda matched: matched[0].version):
        table = Table(version, table.status, table.actions,
                      {n: replace(s) for n, s in table.seats.items()})
        for event, number in change:
            data, kind = event.data, event.type
            table.at = event.at
            if number is not None:
                if number > table.actions:
                    table.actions = number
                    acted = actions[number - 1]
                    if acted.player_id is not None and acted.body not in (RESIGN, FORFEIT):
                        table.seats[acted.seat].timeouts_in_row = 0  # (the player is back)
            elif kind in ("player_joined", "player_invited"):
                pid = data.get("player_id")
                table.seats[data["seat"]] = SeatAt(
                    data["seat"], pid, players.get(pid), data.get("bot_level"),
                    kind == "player_invited", _client_seed(match, data["seat"], pid))
            elif kind in ("player_left", "invitation_declined"):
                table.seats.pop(data["seat"], None)
            elif kind == "match_started":
                table.status = "active"
            elif kind == "match_cancelled":
                table.status = "cancelled"
            elif kind == "deadline_set":
                table.deadline = data["deadline"]
            elif kind == "turn_timed_out":
                timed_out = table.seats[data["seat"]]
                timed_out.timeouts += 1
                timed_out.timeouts_in_row = data["timeouts_in_row"]
        if table.status == "active" and states[table.actions].status == "finished":
            table.status = "finished"
    return table


def _players(match: Match, events: list[Event]) -> dict[str | None, Player]:
    """Every player the log names, by id."""
    ids = {e.data["player_id"] for e in events if e.data.get("player_id")}
    found = {s.player_id: s.player for s in match.seats if s.player is not None}
    missing = ids - set(found)
    if missing:
        found.update((p.id, p) for p in db.session.execute(
            select(Player).where(Player.id.in_(missing))).scalars())
    return found


def _client_seed(match: Match, seat: int, player_id: str | None) -> str:
    """The seed the seat's player sent (a seat taken by another player since: "")."""
    held = next((s for s in match.seats if s.seat == seat), None)
    return held.client_seed if held is not None and held.player_id == player_id else ""


def _moment(match: Match, table: Table, state: engine.MatchState | None) -> Match:
    """A stand-in of `match` holding the columns of `table`, for the one rendering."""
    moment = copy_match(match)
    finished = table.status == "finished"
    moment.version, moment.status = table.version, table.status
    moment.winner_team = state.winner_team if finished and state is not None else None
    moment.end_reason = state.end_reason if finished and state is not None else None
    moment.rematch_id = None  # (a rematch is made after the match's last event)
    moment.deadline = None if table.deadline is None else datetime.fromisoformat(
        table.deadline.replace("Z", "+00:00"))
    moment.updated_at = table.at or match.created_at
    moment.state = None
    moment.seats = [table.seats[n] for n in sorted(table.seats)]  # type: ignore[misc]
    return moment
