"""Handles: the names players find each other by, unique regardless of case. The unique
index on lower(handle) decides every race: a write that loses it is 409 `handle_taken`."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from psycopg2 import errors as pg_errors
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from app.infra.problems import ApiError
from app.db.extensions import db
from app.play.inbox import open_matches
from app.play.store import bump, lock_match, notify
from app.db.models import Player

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
    they sit in that is not over gets a new version, so its views (whose ETags name a
    version) show the change."""
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
