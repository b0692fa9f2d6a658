"""How many invitations one player may be sent, and for how long one holds: at most
MAX_INVITATIONS_PER_INVITEE pending for one invitee, MAX_INVITATIONS_PER_PAIR of them from
one inviter; each expires INVITATION_TTL seconds after it was sent (the worker then declines
it for the invitee, app/invitation_expiry.py). Counted at creation with the rest of what it
reads (app/db/hot_sql.py: creation_load); parallel creations of different inviters may pass
the cap by as many as run at once."""
from __future__ import annotations

from datetime import datetime, timedelta

from flask import current_app

from app.infra.problems import ApiError




def ttl() -> timedelta:
    return timedelta(seconds=current_app.config["INVITATION_TTL"])


def expires_at(sent_at: datetime) -> datetime:
    """When an invitation sent at `sent_at` expires."""
    return sent_at + ttl()


def check_invitation_quota(invited: list[str], pending: dict[str, dict[str, int]],
                           blocked_by: list[str]) -> None:
    """403 `blocked` when one of `invited` has blocked the creator (`blocked_by`:
    :data:`app.db.hot_statements.BLOCKED_BY`); 409 `too_many_invitations` when inviting them
    would take one past a cap (0: no cap); `pending`: their pending invitations
    (:data:`app.db.hot_statements.PENDING_INVITATIONS`)."""
    if blocked_by:
        raise ApiError(403, "blocked", "a player you invite does not take your invitations",
                       player_id=sorted(blocked_by)[0])
    per_invitee = current_app.config["MAX_INVITATIONS_PER_INVITEE"]
    per_pair = current_app.config["MAX_INVITATIONS_PER_PAIR"]
    for player_id in invited:
        counts = pending.get(player_id, {"all": 0, "mine": 0})
        if per_invitee and counts["all"] >= per_invitee:
            raise ApiError(409, "too_many_invitations",
                           f"{player_id} has {counts['all']} invitations pending (at most "
                           f"{per_invitee})", player_id=player_id, limit=per_invitee)
        if per_pair and counts["mine"] >= per_pair:
            raise ApiError(409, "too_many_invitations",
                           f"you have {counts['mine']} invitations pending for {player_id} "
                           f"(at most {per_pair})", player_id=player_id, limit=per_pair)
