"""Late bluffs: the hard level's third-trick raises on weak cards, with 2 players.

Left to its search, `hard` almost never raises in the third trick without strong cards (its
playout opponents, on the easy rule, accept on one good thing, so a bluff there looks bad),
and a person learns to fold every middling hand to its last truco. So where the search values
a raise within BLUFF_MARGIN of its best play, a weak hand raises instead: the spots where a
bluff costs the least in the search's own terms. Which spots pass the margin varies with the
worlds drawn, so the bluffs come in some hands and not in others, not by a fixed rule a person
can read off the cards. Given the match so far (tendencies.late_answers), only against
opponents who have folded to the team's late raises at least as often as a bluffed truco
needs (BLUFF_FOLD_RATE): against a caller a bluff only loses (decision 0035). Only with 2
players: with partners two opponents answer a bluff, it cost 5 points against `hard`, and
folding to late raises gained a person little there (decision 0016 measures both).
"""
from __future__ import annotations

from typing import Any

from .cardplay import easy_calls
from .observation import observe
from .tendencies import LateAnswers

BLUFF_PLAYERS = 2
"""The table size that bluffs late."""
BLUFF_TRICK = 3
"""The trick whose raises get bluffs: the one where `hard`'s raises were nearly all strong."""
BLUFF_MARGIN = 0.12
"""How much chance to win the match (in the search's averages) a bluff may cost. Closes most
of what `late_folder` gained on `easy`'s figure at a cost against `hard` within noise (0016)."""
BLUFF_FOLD_RATE = 0.5
"""The fold rate a bluff needs: a truco (1 to 3) bluffed on a lost hand wins 1 when refused and
loses 3 when accepted, where playing on loses 1, so it pays when refused half the time."""


def late_bluff(view: dict[str, Any], actions: list[dict[str, Any]], values: list[float],
               best: int, history: LateAnswers | None = None) -> int:
    """The index of the action to take among `actions` (legal in `view`): the raise instead of
    the `best` one when the seat may bluff late (`values`: each action's average value;
    `history`: how the opponents answered the team's late raises so far, None when unknown)."""
    raise_at = next((i for i, a in enumerate(actions) if a["type"] == "raise"), None)
    if raise_at is None or actions[best]["type"] != "play" \
            or values[best] - values[raise_at] > BLUFF_MARGIN \
            or history is not None and history.fold_rate < BLUFF_FOLD_RATE:
        return best
    obs = observe(view)
    if (obs.players != BLUFF_PLAYERS or obs.pending is not None or obs.cards is None
            or len(obs.results) + 1 != BLUFF_TRICK
            or easy_calls(obs.cards, obs.strength, obs.results, obs.team)):
        return best
    return raise_at
