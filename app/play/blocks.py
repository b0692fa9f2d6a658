"""Blocking a player: their invitations to the blocker are refused (403 `blocked` at
creation, app/play/invitation_rules.py), and those pending are declined at once."""
from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert

from app.db.block_models import PlayerBlock
from app.infra.problems import ApiError
from app.db.extensions import db
from app.play.invitations import decline_all
from app.db.models import Player, id_can_exist
from app.play.store import get_player
from app.infra.encoding import iso


def block(player: Player, blocked_id: str) -> dict[str, Any]:
    """Block `blocked_id` for `player` (again: no change); how many invitations from them
    were declined."""
    if blocked_id == player.id:
        raise ApiError(422, "validation_error", "you cannot block yourself",
                       errors={"player_id": ["is you"]})
    get_player(blocked_id)  # (404 for nobody, or a closed account)
    db.session.execute(insert(PlayerBlock).values(player_id=player.id, blocked_id=blocked_id)
                       .on_conflict_do_nothing())
    db.session.commit()
    return {"player_id": blocked_id, "declined": decline_all(player, inviter=blocked_id)}


def unblock(player: Player, blocked_id: str) -> None:
    """Take `blocked_id` off `player`'s blocks (not there: no change)."""
    if not id_can_exist(blocked_id):
        return
    db.session.execute(delete(PlayerBlock).where(PlayerBlock.player_id == player.id,
                                                 PlayerBlock.blocked_id == blocked_id))
    db.session.commit()


def blocked(player: Player) -> dict[str, list[dict[str, Any]]]:
    """The players `player` has blocked (`items`), the most recent first."""
    rows = db.session.execute(select(PlayerBlock).where(PlayerBlock.player_id == player.id)
                              .order_by(PlayerBlock.created_at.desc())).scalars()
    return {"items": [{"player_id": r.blocked_id, "created_at": iso(r.created_at)}
                      for r in rows]}
