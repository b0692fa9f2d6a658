"""The hot reads' rows as plain stand-ins for the models (a match, its seats, players and
webhook endpoints), built without the ORM; the models and migrations stay the one definition
of the tables."""
from __future__ import annotations

import inspect
from datetime import datetime, timezone
from typing import Any, TypeVar

import orjson

from app.db.models import Match, Player, Seat
from app.db.writes import Endpoint
from app.infra.problems import ApiError


T = TypeVar("T")
_PLAIN: dict[type, type] = {}


def stand_in(model: type[T], **columns: Any) -> T:
    """A stand-in for an instance of `model` holding `columns`: a plain object with the
    model's own methods (`Match.seat_of`, ...) and none of the ORM's instrumentation, whose
    attribute reads and writes cost a tenth of an action's CPU in the process. What the
    service and the rendering do with a model they do with it; it is never added to a
    session (nothing could be flushed) and holds nothing of one."""
    plain = _PLAIN.get(model)
    if plain is None:
        methods = {name: value for name, value in vars(model).items()
                   if inspect.isfunction(value) and not name.startswith("_")}
        plain = _PLAIN[model] = type(f"Plain{model.__name__}", (), methods)
    instance: Any = object.__new__(plain)
    instance.__dict__.update(columns)
    return instance  # type: ignore[no-any-return]


def _utc(moment: datetime | None) -> datetime | None:
    return None if moment is None else moment.astimezone(timezone.utc)


def caller_of(found: str | None) -> Player:
    """The caller read by `hot_statements._CALLER` (401 when the row is gone: a token this process
    knew for a player no longer stored)."""
    if found is None:
        raise ApiError(401, "unauthorized", "the bearer token is unknown")
    fields = orjson.loads(found)
    return player_of(fields["id"], fields)


def endpoints_of(found: str | None) -> list[Endpoint]:
    return [Endpoint(e["id"], e["player_id"], tuple(e["events"]))
            for e in orjson.loads(found or "[]")]


def match_of(row: tuple[Any, ...]) -> Match:
    (mid, ruleset, players, target_score, status, visibility, invite_code, created_by, seed,
     fixed_deals, config, state, version, event_count, action_count, winner_team,
     turn_timeout, on_timeout, deadline, to_act, score, warn_at, due_at, created_at,
     updated_at, end_reason, rematch_id, seats) = row
    return stand_in(
        Match, id=mid, ruleset=ruleset, players=players, target_score=target_score, status=status,
        visibility=visibility, invite_code=invite_code, created_by=created_by, seed=seed,
        fixed_deals=fixed_deals, config=orjson.loads(config),
        state=None if state is None else orjson.loads(state), version=version,
        event_count=event_count, action_count=action_count, winner_team=winner_team,
        turn_timeout=turn_timeout, on_timeout=on_timeout, deadline=_utc(deadline),
        to_act=list(to_act), score=list(score), warn_at=_utc(warn_at), due_at=_utc(due_at),
        created_at=_utc(created_at), updated_at=_utc(updated_at),
        end_reason=end_reason, rematch_id=rematch_id,
        seats=[_seat(mid, s) for s in orjson.loads(seats or "[]")])


_MATCH_FIELDS = tuple(k for k in Match.__table__.columns.keys() if k != "settled_at")
"""Every column of a match that :func:`match_of` reads (`settled_at` is the settlers')."""
_SEAT_FIELDS = ("match_id", "seat", "player_id", "bot_level", "invited", "timeouts",
                "timeouts_in_row", "client_seed", "player", "joined_at")
"""What :func:`_seat` reads of a seat (`joined_at` only for an invitation: when it was
sent, which its summary shows)."""


def copy_match(match: Match) -> Match:
    """A plain copy of `match` (a stand-in, or a model object never in a session: a kept
    match, app/live/recent.py) for a verb to change, its seats copied too. (The verbs replace
    the other values, never change them in place.)"""
    return stand_in(Match, **{name: getattr(match, name) for name in _MATCH_FIELDS},
                    seats=[stand_in(Seat, **{name: getattr(seat, name)
                                             for name in _SEAT_FIELDS})
                           for seat in match.seats])


def player_of(player_id: str, fields: dict[str, Any]) -> Player:
    """The player `player_id` of `hot_statements._PLAYER_FIELDS` read as JSON."""
    return stand_in(Player, id=player_id, name=fields["name"], handle=fields["handle"],
                    bot=fields["bot"],
                    created_at=datetime.fromisoformat(fields["created_at"]))


def _seat(match_id: str, s: dict[str, Any]) -> Seat:
    player = None if s["player_id"] is None else player_of(s["player_id"], s)
    invited_at = s.get("invited_at")
    return stand_in(Seat, match_id=match_id, seat=s["seat"], player_id=s["player_id"],
                    bot_level=s["bot_level"], invited=s["invited"], timeouts=s["timeouts"],
                    timeouts_in_row=s["timeouts_in_row"], client_seed=s["client_seed"],
                    player=player,
                    joined_at=None if invited_at is None else datetime.fromisoformat(invited_at))
