"""Hidden dumps: with 2 players the hard level plays a card face down where showing it buys
nothing.

A card that cannot take the trick may as well go face down (where the options allow it).
`hard`'s search barely tells the two apart: its playout seats play the easy rule, which reads
nothing from a dumped card, so the face-up twin and the face-down one score alike and the
first listed (face up) won: it hid almost no dump. With 2 players a dump ends the hand (the
follower who cannot take the second or third trick has lost it), so what it shows is not the
hand's cards but what the bot held when it bet: a person who sees the weak card it lost with
after its truco learns its bluffs, and face-down cards stay hidden until the match is over
(rules: face-down cards). So where the face-down twin of the chosen card is valued within
HIDE_MARGIN of it, the card goes face down; in practice a dump, since a card that can take the
trick is worth more face up. Only with 2 players: with partners a hidden card is hidden from
the partner too, whose search then deals it to the opponents, and that cost about 2.4 points
against `hard` (decision 0017).
"""
from __future__ import annotations

from typing import Any

from .observation import play_action

HIDE_PLAYERS = 2
"""The table size that hides its dumps."""
HIDE_MARGIN = 0.01
"""How much chance to win the match (in the search's averages) hiding a card may cost: about
the search's noise between two twins that score alike."""


def hide_dump(view: dict[str, Any], actions: list[dict[str, Any]], values: list[float],
              best: int) -> int:
    """The index of the action to take among `actions` (legal in `view`): the face-down twin
    of the `best` one when it is a face-up play, the table has HIDE_PLAYERS, and the twin is
    valued within HIDE_MARGIN of it (`values`: each action's average value)."""
    chosen = actions[best]
    if "card" not in chosen or chosen.get("face_down") or view["players"] != HIDE_PLAYERS:
        return best  # a call or answer, a card already face down, a blind play by slot
    twin = play_action(actions, chosen["card"], face_down=True)
    if not twin.get("face_down"):
        return best
    at = actions.index(twin)
    return at if values[best] - values[at] <= HIDE_MARGIN else best
