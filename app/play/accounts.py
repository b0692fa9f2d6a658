"""Closing an account (`DELETE /v1/players/me`): what a player who leaves the service leaves
behind. Their unfinished matches are given up as they would give them up themselves (a seat
left, an invitation declined, an active match resigned: the other players are told as
usual), their webhooks and blocks go, and their row stays for the finished matches, ratings
and logs that name it, under a neutral name, without a handle, with a token nobody holds."""
from __future__ import annotations

from sqlalchemy import delete, func, or_, select

from app.db.block_models import PlayerBlock
from app.db.channels import token_replaced
from app.db.extensions import db
from app.db.models import Match, Player, Seat
from app.db.webhook_models import WebhookEndpoint
from app.infra.problems import ApiError
from app.infra.tokens import hash_token, new_token
from app.play import handles
from app.play.moves import resign
from app.play.seats import leave_match

CLOSED_NAME = "Deleted player"
"""The name a closed account's seats show from then on."""

ROUNDS = 3
"""How many times the unfinished matches are looked at: one that started or ended between
the look and the giving up (a waiting match filled meanwhile) is given up the next time."""


def close_account(player: Player) -> None:
    """Give up `player`'s unfinished matches, then close the account, committed: 401 when
    the token they presented was replaced meanwhile (checked under the row's lock, as a
    rotation checks it), and nothing more is changed."""
    presented = player.token_hash
    for _ in range(ROUNDS):
        unfinished = _unfinished(player.id)
        if not unfinished:
            break
        for match_id, status in unfinished:
            try:
                if status == "waiting":
                    leave_match(player, match_id)
                else:
                    resign(player, match_id)
            except ApiError:
                db.session.rollback()  # (it moved on meanwhile: looked at again next round)
    db.session.refresh(player, with_for_update=True)
    if player.token_hash != presented:
        db.session.rollback()
        raise ApiError(401, "unauthorized", "the bearer token is unknown")
    db.session.execute(delete(WebhookEndpoint).where(WebhookEndpoint.player_id == player.id))
    db.session.execute(delete(PlayerBlock).where(
        or_(PlayerBlock.player_id == player.id, PlayerBlock.blocked_id == player.id)))
    player.token_hash = hash_token(new_token())  # (shown to nobody: the account is shut)
    player.closed_at = func.now()
    token_replaced(db.session(), player.id)
    # the new name as a rename: every match they sat in gets a new version, then the commit
    handles.update(player, {"name": CLOSED_NAME, "handle": None})


def _unfinished(player_id: str) -> list[tuple[str, str]]:
    """(match id, status) of every waiting or active match with a seat of `player_id`'s,
    taken or reserved for them."""
    rows = db.session.execute(
        select(Match.id, Match.status).join(Seat, Seat.match_id == Match.id)
        .where(Seat.player_id == player_id, Match.status.in_(("waiting", "active")))
        .order_by(Match.created_at)).all()
    db.session.rollback()  # (each giving up locks its match in a transaction of its own)
    return [(match_id, status) for match_id, status in rows]
