"""The inbox: a player's matches, most urgent first (GET /v1/me/matches).

Order: the matches where the player's seat is to act, the nearest deadline first; then their
invitations, the most recently sent first (an invited seat's `joined_at` is when it was
reserved: what the invitation's expiry counts from), whatever changed in their matches since;
then every other match, the most recently changed first.
`awaiting` counts the matches where it is the player's turn, `invitations` their pending
invitations, whatever the filters and the page. An expired invitation is not listed.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import ColumnElement, Select, any_, case, func, select, true
from sqlalchemy.orm import selectinload

from app.db.extensions import db
from app.infra.encoding import content_etag, etag_matches, json_bytes
from app.play.invitation_rules import ttl as invitation_ttl
from app.db.models import Match, Player, Seat
from app.play.rendering import match_summary

OVER = ("finished", "cancelled")


def _turn() -> ColumnElement[bool]:
    """True for a (match, seat) row where the seat is to act."""
    return (Match.status == "active") & (Seat.seat == any_(Match.to_act)) & ~Seat.invited


def _waits_for_player() -> ColumnElement[bool]:
    """True for a (match, seat) row where the match waits for the seat's player."""
    return Seat.invited | _turn()


def _listed(now: datetime) -> ColumnElement[bool]:
    """The player's rows that the inbox shows: all but expired invitations."""
    return ~(Seat.invited & (Seat.joined_at <= now - invitation_ttl()))


def page(player: Player, filters: dict[str, Any]) -> dict[str, Any]:
    """A page of the player's matches (invitations included), filtered by `status` and
    `your_turn`, from `offset`, `limit` long: `{"items", "next_offset", "awaiting",
    "invitations"}`."""
    return _page_and_attention(player, filters)[0]


def _page_and_attention(player: Player,
                        filters: dict[str, Any]) -> tuple[dict[str, Any], tuple[int, int, int]]:
    """:func:`page`, and the player's :func:`attention`, read in the statement that reads the
    page's matches (one snapshot), so that a move committed meanwhile never gives a page whose
    `awaiting` disagrees with its items (nor a long poll a page newer than its attention)."""
    now = datetime.now(timezone.utc)
    waits, turn = _waits_for_player(), _turn()
    counts = _attention_query(player, now).subquery()
    query = (select(Match, counts.c.turn, counts.c.over, counts.c.invited)
             .join(Seat, Seat.match_id == Match.id).join(counts, true())
             .where(Seat.player_id == player.id, _listed(now))
             .options(selectinload(Match.seats).selectinload(Seat.player))
             .order_by(turn.desc(), Seat.invited.desc(),
                       case((turn, Match.deadline)).asc().nulls_last(),
                       case((Seat.invited, Seat.joined_at)).desc().nulls_last(),
                       Match.updated_at.desc(), Match.id)
             .offset(filters["offset"]).limit(filters["limit"] + 1))
    if "status" in filters:
        query = query.where(Match.status == filters["status"])
    if "your_turn" in filters:
        query = query.where(waits if filters["your_turn"] else ~func.coalesce(waits, False))
    rows = db.session.execute(query).all()
    more = len(rows) > filters["limit"]
    # (nothing listed: nothing for the counts to disagree with, read on their own)
    counts_now = (int(rows[0][1]), int(rows[0][2]), int(rows[0][3])) if rows \
        else attention(player)
    return ({"items": [match_summary(row[0], player) for row in rows[:filters["limit"]]],
             "next_offset": filters["offset"] + filters["limit"] if more else None,
             "awaiting": counts_now[0], "invitations": counts_now[2]}, counts_now)


def _attention_query(player: Player, now: datetime) -> Select[int, int, int]:
    """(turn, over, invited): the counts of `attention`, as a query."""
    return (select(func.count().filter(_turn()).label("turn"),
                   func.count().filter(Match.status.in_(OVER)).label("over"),
                   func.count().filter(Seat.invited).label("invited"))
            .select_from(Match).join(Seat, Seat.match_id == Match.id)
            .where(Seat.player_id == player.id, _listed(now)))


def attention(player: Player) -> tuple[int, int, int]:
    """(matches where it is the player's turn, matches of theirs that are over, pending
    invitations): a long poll on the inbox answers when one changes (their turn came, a match
    ended, an invitation arrived, was withdrawn or expired)."""
    row = db.session.execute(_attention_query(player, datetime.now(timezone.utc))).one()
    return int(row[0]), int(row[1]), int(row[2])


def news(player: Player, filters: dict[str, Any], seen: str | None,
         start: tuple[int, int, int] | None) -> dict[str, Any] | None:
    """The page, or None while a long poll begun at attention `start` has nothing to say:
    the page is the one `seen` (an If-None-Match), or empty under `your_turn=true`, or
    neither was asked for (then only a change of attention answers), and the player's
    attention is still `start`."""
    listed, now = _page_and_attention(player, filters)
    your_turn = filters.get("your_turn")
    idle = (etag_matches(seen, list_tag(listed))
            or (your_turn and not listed["items"])
            or (seen is None and your_turn is not True))
    return None if idle and now == start else listed


def open_matches(player: Player) -> list[str]:
    """The matches of the player that actions can still change (waiting or active): what an
    inbox long poll watches (app/live/watches.py; a match the player joins later is notified by
    its join)."""
    return list(db.session.execute(
        select(Match.id).join(Seat, Seat.match_id == Match.id)
        .where(Seat.player_id == player.id, Match.status.in_(("waiting", "active")))
    ).scalars())


def list_tag(listed: dict[str, Any]) -> str:
    """The ETag of a page: a hash of the page itself, so that it differs whenever the body
    does: from one player's page of the same matches to another's (`you`, `your_turn`)."""
    return content_etag(json_bytes(listed))
