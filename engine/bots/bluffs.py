"""Bluffs the hard level makes or drops after the first trick, by what the match says.

Late bluffs (late_bluff): third-trick raises on weak cards, with 2 players. Left to its search,
`hard` almost never raises in the third trick without strong cards (its playout opponents, on
the easy rule, accept on one good thing, so a bluff there looks bad), and a person learns to
fold every middling hand to its last truco. So where the search values a raise within
BLUFF_MARGIN of its best play, a weak hand raises instead: the spots where a bluff costs the
least in the search's own terms. Which spots pass the margin varies with the worlds drawn, so
the bluffs come in some hands and not in others, not by a fixed rule a person can read off the
cards. Given the match so far (tendencies.late_answers), only against opponents who have
folded to the team's late raises at least as often as a bluffed truco needs (BLUFF_FOLD_RATE):
against a caller a bluff only loses (decision 0035). Only with 2 players: with partners two
opponents answer a bluff, it cost 5 points against `hard`, and folding to late raises gained a
person little there (decision 0016 measures both).

Called bluffs (drop_called_bluff): the search's own raises on weak cards after the first trick,
at any table size. Its playout opponents answer by the easy rule, so it raises where they would
fold; against opponents who call the team's late raises, a weak raise the search values only a
little above playing on (CALLED_MARGIN) is dropped for its best other action (decision 0036).
"""
from __future__ import annotations

from typing import Any

from .cardplay import easy_calls
from .observation import Observation, observe
from .tendencies import LateAnswers

BLUFF_PLAYERS = 2
"""The table size that bluffs late."""
BLUFF_TRICK = 3
"""The trick whose raises get bluffs: the one where `hard`'s raises were nearly all strong."""
BLUFF_MARGIN = 0.12
"""How much chance to win the match (in the search's averages) a bluff may cost. Closes most
of what `late_folder` gained on `easy`'s figure at a cost against `hard` within noise (0016)."""
CALLED_MARGIN = 0.05
"""How much more than the best other action (in the search's averages) a weak raise may be
worth and still be dropped against callers: a raise the search values clearly higher is kept
(decision 0036)."""
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
            or against_callers(history):
        return best
    obs = observe(view)
    if (obs.players != BLUFF_PLAYERS or obs.pending is not None
            or len(obs.results) + 1 != BLUFF_TRICK or not weak(obs)):
        return best
    return raise_at


def drop_called_bluff(view: dict[str, Any], actions: list[dict[str, Any]], values: list[float],
                      chosen: int, history: LateAnswers | None) -> int:
    """The index of the action to take among `actions` (legal in `view`): the most valuable
    one that is not a raise (`values`: each action's average value) instead of the `chosen`
    raise, when that raise is weak, made on the seat's turn after the hand's first trick, and
    the opponents call the team's late raises (`history`, against_callers); else `chosen`."""
    if actions[chosen]["type"] != "raise" or not against_callers(history):
        return chosen
    obs = observe(view)
    if obs.pending is not None or not obs.results or not weak(obs):
        return chosen
    others = [i for i, a in enumerate(actions) if a["type"] != "raise"]
    other = max(others, key=values.__getitem__, default=chosen)
    return other if values[chosen] - values[other] < CALLED_MARGIN else chosen


def against_callers(history: LateAnswers | None) -> bool:
    """Whether the match so far says a late bluff does not pay: the opponents fold to the
    team's late raises less often than BLUFF_FOLD_RATE (None, nothing known: it may pay)."""
    return history is not None and history.fold_rate < BLUFF_FOLD_RATE


def weak(obs: Observation) -> bool:
    """Whether a raise from the seat of `obs` would be a bluff: the easy rule would not call
    with its cards and tricks."""
    return obs.cards is not None and not easy_calls(obs.cards, obs.strength, obs.results,
                                                    obs.team)
