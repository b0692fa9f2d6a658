"""A built-in bot that shares a team with players (people, or bots of their own over HTTP)
leaves the team's answers to them.

A raise or a mão de onze question is answered by the team: with the default
`response_mode` any member may accept for it. A bot answers at once, so without this a
person beside a bot partner would never answer a truco nor decide a mão de onze. So while
a player of the team may still answer, its bots wait (they are not due, and the player's
turn deadline runs as usual); once the players have refused, each bot still asked refuses
too, so that their answer is the team's.
"""
from __future__ import annotations

from typing import Any

from app.db.models import Match

REFUSE = {"type": "refuse"}


def bot_seats(match: Match) -> set[int]:
    """The seats of the match's built-in bots."""
    return {s.seat for s in match.seats if s.bot_level is not None}


def ready_bots(match: Match) -> list[int]:
    """The built-in bots' seats in `to_act` that may move now (in `to_act`'s order): a bot
    waits while a player of its team is to act too."""
    bots = bot_seats(match)
    waiting_for_players = {s % 2 for s in match.to_act if s not in bots}
    return [s for s in match.to_act if s in bots and s % 2 not in waiting_for_players]


def players_refused(match: Match, view: dict[str, Any]) -> bool:
    """Whether a player (not a built-in bot) of the view's team has refused the question
    now pending in `view` (a seat's view that may answer it)."""
    hand = view.get("hand") or {}
    if not hand.get("pending") or REFUSE not in view["legal_actions"]:
        return False
    team = view["you"]["team"]
    bots = bot_seats(match)
    calls = hand.get("calls") or []
    asked = max((i for i, c in enumerate(calls) if c["action"] == "raise"), default=-1)
    return any(c["action"] == "refuse" and c["seat"] % 2 == team and c["seat"] not in bots
               for c in calls[asked + 1:])
