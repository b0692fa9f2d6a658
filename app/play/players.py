"""Players: registration, token rotation, profile changes and look-ups by id."""
from __future__ import annotations

from typing import Any

from app.db.channels import token_replaced
from app.db.extensions import db
from app.db.models import Player
from app.infra.problems import ApiError
from app.infra.tokens import hash_token, new_token
from app.live.hub import hub
from app.play import handles
from app.play.profiles import profile
from app.play.store import get_player


def register(name: str, bot: bool, handle: str | None) -> tuple[Player, str]:
    """A new player, committed, and their token (only its hash is kept); 409
    `handle_taken` when another player has `handle`."""
    token = new_token()
    player = Player(name=name.strip(), bot=bot, token_hash=hash_token(token), handle=handle)
    with handles.claimed():
        db.session.add(player)
    return player, token


def rotate_token(player: Player) -> str:
    """A new token for `player`, committed: the old one stops working at once here, and in
    other processes when the notification sent with the commit arrives. The row is locked
    and the token the caller presented checked under the lock: of two rotations at once the
    second finds that token replaced (401), so no answer hands out a token that is already
    dead."""
    presented = player.token_hash
    db.session.refresh(player, with_for_update=True)
    if player.token_hash != presented:
        db.session.rollback()
        raise ApiError(401, "unauthorized", "the bearer token is unknown")
    token = new_token()
    player.token_hash = hash_token(token)
    token_replaced(db.session(), player.id)
    db.session.commit()
    return token


def still_theirs(player_id: str, token_hash: str) -> None:
    """401 once the token that hashes to `token_hash` no longer belongs to `player_id`
    (replaced by :func:`rotate_token`): what a stream or a long poll, checked when it began,
    checks again before it tells anything new (as this process knows the token, else read)."""
    known = hub().known
    if known.player(token_hash) == player_id:
        return
    generation = known.generation
    found = db.session.execute(
        db.select(Player.id).where(Player.token_hash == token_hash)).scalar_one_or_none()
    if found != player_id:
        raise ApiError(401, "unauthorized", "the bearer token is unknown")
    known.learn_token(generation, token_hash, found)


def update_profile(player: Player, changes: dict[str, Any]) -> dict[str, Any]:
    """`player`'s profile after setting the `name` and/or `handle` in `changes` (a null
    handle removes it); 409 `handle_taken`, and nothing changed, when the handle is taken."""
    handles.update(player, changes)
    return profile(player)


def player_profile(player_id: str) -> dict[str, Any]:
    """The public profile of the player `player_id`, or 404 `player_not_found`."""
    return profile(get_player(player_id))


def handle_profile(handle: str) -> dict[str, Any]:
    """The public profile of the player with `handle` (regardless of case), or 404
    `player_not_found`."""
    return profile(handles.found(handle))
