"""Rematch: a finished match's players play again, every seat moved on by one (API.md,
`POST /v1/matches/{id}/rematch`).

At most one rematch per match, whoever asks and however many at once: the finished match's
row is locked while its rematch is made, and its `rematch_id` names the rematch from then on.
The rematch records `rematch_of` in its config, so that one made by a request that died
before naming it is found again, never made twice.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from app.db import ratelimit
from app.infra.problems import ApiError
from app.db.extensions import db
from app.play.store import bump, get_match, lock_match, notify
from app.play.seats import create_match
from app.db.models import Match
from app.play.rendering import Answer, seat_number, view_answer


CreateBody = Callable[[dict[str, Any]], dict[str, Any]]
"""A creation body as the API reads it: validated, defaults filled (the route's schema)."""


def rematch(player_id: str, match_id: str, read_body: CreateBody) -> Answer:
    """The caller's view of the rematch of the finished `match_id`: 201 when this request
    made it, 200 when it existed (to anyone: the finished match's view names it already).
    409 before the match is finished (or once cancelled), then 403 for a caller without a
    seat there while there is no rematch. `read_body` reads the rematch's creation body as a
    creation's."""
    old = lock_match(match_id)
    if old.status != "finished":  # (first: everyone has left a cancelled match)
        raise ApiError(409, "match_not_finished",
                       f"the match is {old.status}: a rematch follows a finished match")
    if old.seat_of(player_id) is None and old.rematch_id is None:
        raise ApiError(403, "not_a_player", "you have no seat in this match")
    made = old.rematch_id or _lost_rematch(old)
    if made is None:
        ratelimit.check("create", player_id)
        answer = create_match(player_id, rematch_body(old, player_id, read_body))
        made = answer.body["id"]
    else:
        answer = None
    if old.rematch_id is None:
        old.rematch_id = made
        bump(old)
        notify(old)
    db.session.commit()
    if answer is not None:
        return answer
    new = get_match(made)
    return view_answer(new, seat_number(new, player_id))


def rematch_body(old: Match, player_id: str, read_body: CreateBody) -> dict[str, Any]:
    """The create body of `old`'s rematch asked by `player_id`: the same ruleset, options,
    target, visibility and turn rules; seat s moves to s + 1; bots keep their levels, the
    other players are invited, the caller is seated. Fresh deals (nothing fixed)."""
    players = old.players
    moved = {s.seat: (s.seat + 1) % players for s in old.seats}
    body = read_body({
        "ruleset": old.ruleset, "players": players, "target_score": old.target_score,
        "visibility": old.visibility, "turn_timeout": old.turn_timeout,
        "on_timeout": old.on_timeout, "options": old.config.get("options") or {},
        "seat": next(moved[s.seat] for s in old.seats if s.player_id == player_id),
        "bots": [{"seat": moved[s.seat], "level": s.bot_level}
                 for s in old.seats if s.bot_level is not None],
        "invite": [{"seat": moved[s.seat], "player_id": s.player_id} for s in old.seats
                   if s.player_id is not None and s.player_id != player_id]})
    return {**body, "rematch_of": old.id}


def _lost_rematch(old: Match) -> str | None:
    """A rematch of `old` made by a request that ended before naming it, if any (its
    creator is one of `old`'s players)."""
    players = [s.player_id for s in old.seats if s.player_id is not None]
    return db.session.execute(
        select(Match.id).where(Match.created_by.in_(players),
                               Match.config["rematch_of"].astext == old.id)
    ).scalars().first()
