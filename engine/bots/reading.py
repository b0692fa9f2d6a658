"""A position of a real hand read as an information set of the expert's abstract game.

`replay` follows the hand's public betting (`hand.calls`) through the abstract game's betting
states; `key_at` names what a seat knew at one moment of a trick, from a match state (a
determinized world, or the structure of the seat's own view). Both are exact for 2 players.
With 4 or 6 players a seat reads the position as if its team were one player: its side "leads"
when its side is to play on an empty table or the other side is to play on cards; the top card
on the table stands for the lead; a trick its partner is winning counts as one it beats; and a
partner's raise or accept this hand (a signal of a good card) lifts the weakest class of its
bucket to the class of a 2 or a 3.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..cards import strengths
from ..rules import RULESETS
from ..state import MatchState
from .abstraction import beat, bucket, card_class, infoset_key, key_prefix, score_band

SIGNAL_CLASS = card_class(9)
"""The class a partner's raise or accept lifts the seat's weakest card to (a 2 or a 3)."""


class Betting(NamedTuple):
    """The abstract betting state when a call was made, or now."""

    seat: int
    """Who made the call (now: who made the pending call, -1 when none)."""
    action: str
    """"raise", "accept" or "refuse" ("" now)."""
    stake: int
    last: int
    """The team of the last call the abstract game counts, -1 when none."""
    pending: int
    """The value of the call being answered, 0 when none."""


def replay(calls: Sequence[dict[str, Any]], ruleset: str) -> tuple[list[Betting], Betting]:
    """Each call of the hand with the betting state it was made in, and the state now."""
    stake, last, pending, caller = RULESETS[ruleset].base, -1, 0, -1
    made: list[Betting] = []
    for call in calls:
        if "kind" in call:
            continue
        seat, action = int(call["seat"]), str(call["action"])
        made.append(Betting(seat, action, stake, last, pending))
        if action == "raise":
            if pending:
                stake, last = pending, seat % 2
            pending, caller = int(call["to"]), seat
        elif action == "accept":
            stake, last, pending, caller = pending, caller % 2, 0, -1
    return made, Betting(caller, "", stake, last, pending)


def key_at(state: MatchState, seat: int, trick: int, before: int, betting: Betting) -> str:
    """The key of `seat` deciding in trick index `trick` with the first `before` cards of it on
    the table, in `betting`; only the seat's own cards and the public table are read."""
    h = state.hand
    table = strengths(state.ruleset, h.vira)
    team = seat % 2
    current = h.tricks[trick]
    plays = current.plays[:before]
    results = "".join("t" if t.tie else "w" if t.winner_team == team else "l"
                      for t in h.tricks[:trick])
    turn = current.plays[before][0] if before < len(current.plays) else h.turn
    assert turn is not None
    leads = (turn % 2 == team) == (not plays)  # 2 players: exactly whether it leads the trick
    held = list(h.hands[seat]) + [c for t in h.tricks[trick:] for s, c, _ in t.plays if s == seat]
    values = [table[c] for c in held]
    partners = [c for c in h.calls if "kind" not in c and c["seat"] != seat
                and c["seat"] % 2 == team and c["action"] in ("raise", "accept")]
    if partners and values:
        weakest = min(range(len(values)), key=values.__getitem__)
        if card_class(values[weakest]) < SIGNAL_CLASS:
            values[weakest] = 9
    top, top_team = -1, -1
    for s, c, face_down in plays:
        v = 0 if face_down else table[c]
        if v > top:
            top, top_team = v, s % 2
        elif v == top and s % 2 != top_team:
            top_team = -1
    lead_class = card_class(top) if plays else None
    beats = None
    if plays and not leads:
        beats = 2 if top_team == team else beat(max(table[c] for c in held), top)
    bands = (score_band(state.score[team]), score_band(state.score[1 - team]))
    ladder = RULESETS[state.ruleset].ladder
    last = "n" if betting.last < 0 else "m" if betting.last == team else "o"
    return infoset_key(key_prefix(state.ruleset, bands, trick + 1, results, leads), ladder,
                       lead_class, betting.stake, last, betting.pending or None,
                       bucket(values), beats)
