"""Handles: the names players find each other by, unique regardless of case. The unique
index on lower(handle) decides every race: a write that loses it is 409 `handle_taken`."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from psycopg2 import errors as pg_errors
from sqlalchemy import func, select
from sqlalchemy import update as sql_update
from sqlalchemy.exc import IntegrityError

from app.infra.problems import ApiError
from app.db.extensions import db
from app.play.inbox import OVER, open_matches
from app.play.store import bump, lock_match, notify, notify_version
from app.db.models import Match, Player, Seat

INDEX = "uq_players_handle"


def find(handle: str) -> Player | None:
    """The player with this handle, compared regardless of case (the index's expression)."""
    return db.session.execute(
        select(Player).where(func.lower(Player.handle) == handle.lower())).scalar_one_or_none()


def found(handle: str) -> Player:
    """The player with this handle, or 404 `player_not_found`."""
    player = find(handle)
    if player is None:
        raise ApiError(404, "player_not_found", f"no player has the handle {handle}")
    return player


@contextmanager
def claimed() -> Iterator[None]:
    """Commit the session's changes: 409 `handle_taken` (and nothing changed) when a handle
    written is someone else's."""
    try:
        yield
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        orig = exc.orig
        if isinstance(orig, pg_errors.UniqueViolation) and orig.diag.constraint_name == INDEX:
            raise ApiError(409, "handle_taken", "another player has this handle") from exc
        raise


def update(player: Player, body: dict[str, Any]) -> None:
    """Set the caller's `name` and/or `handle` (null: none) and commit, or 409. Each match
    they sit in gets a new version, so its views (whose ETags name a version) show the
    change, and no ETag ever names two bodies."""
    with claimed():
        if "name" in body:
            player.name = body["name"].strip()
        if "handle" in body:
            player.handle = body["handle"]
        db.session.flush()  # (the index decides before any match is locked)
        for match_id in sorted(open_matches(player)):
            match = lock_match(match_id)
            bump(match)
            notify(match)
        _bump_over(player)


def _bump_over(player: Player) -> None:
    """A new version of each finished or cancelled match the player sits in, in one
    statement (a player may have thousands); locked in id order first, as `lock_match`
    locks one. Their `updated_at` stays when they were last played (the inbox orders by it)."""
    ids = list(db.session.execute(
        select(Match.id).join(Seat, Seat.match_id == Match.id)
        .where(Seat.player_id == player.id, Match.status.in_(OVER))
        .order_by(Match.id).with_for_update(of=Match)).scalars())
    if not ids:
        return
    versions = db.session.execute(
        sql_update(Match).where(Match.id.in_(ids))
        .values(version=Match.version + 1, updated_at=Match.updated_at)
        .returning(Match.id, Match.version).execution_options(synchronize_session=False)).all()
    seated: dict[str, set[str]] = {match_id: set() for match_id in ids}
    for match_id, player_id in db.session.execute(
            select(Seat.match_id, Seat.player_id).where(Seat.match_id.in_(ids))):
        if player_id is not None:
            seated[match_id].add(player_id)
    for match_id, version in versions:
        notify_version(match_id, version, seated[match_id])


def invited_ids(invites: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The create body's invitations with each `handle` replaced by its player's id, or 422
    `validation_error` naming the handles nobody has."""
    wanted = {i["handle"].lower() for i in invites if "handle" in i}
    if not wanted:
        return invites
    rows = db.session.execute(select(func.lower(Player.handle), Player.id)
                              .where(func.lower(Player.handle).in_(wanted))).all()
    ids: dict[str, str] = {handle: pid for handle, pid in rows}
    unknown = sorted(wanted - set(ids))
    if unknown:
        raise ApiError(422, "validation_error", "the match cannot be created",
                       errors={"invite": [f"no player has the handle {h}" for h in unknown]})
    return [{"seat": i["seat"], "player_id": ids[i["handle"].lower()]} if "handle" in i else i
            for i in invites]
