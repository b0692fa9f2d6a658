"""Which cards a seat may see: decided here only, for views, events and the bots.

Beyond its own cards (unless blind), the table's face-up cards and the vira, a seat sees
exactly two more things (RULES.md §7.2, §9.3): its partners' hands while its team is the team
on 11 (10) in a mão de onze with more than 2 players, and the cards it played face down itself.
Once a match is finished its players see every card of it (its log, its replay).
"""
from __future__ import annotations


def partners_seen(players: int, eleven_team: int | None, seat: int | None) -> list[int]:
    """The partners whose hands `seat` (None: a spectator) sees; `eleven_team` is the team on
    11 (10) in a mão de onze hand, None in any other hand."""
    if seat is None or eleven_team is None or players == 2 or seat % 2 != eleven_team:
        return []
    return [p for p in range(seat % 2, players, 2) if p != seat]


def sees_everything(seat: int | None, finished: bool) -> bool:
    """Whether `seat` (None: a spectator) sees every card of the match: a player, once the
    match is finished."""
    return finished and seat is not None


def play_seen(player: int, face_down: bool, viewer: int | None) -> bool:
    """Whether `viewer` sees the card `player` put on the table (face down: only its player)."""
    return not face_down or player == viewer
