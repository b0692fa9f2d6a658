"""The `hard` level: determinized Monte Carlo search.

For every decision it draws worlds consistent with what the seat has seen (engine.determinize:
the hidden cards dealt at random among the cards the seat cannot place), tries every legal
action in each world, plays the hand out with the playout policy and scores the result as the
chance to win the match (value.match_value). Every action is scored at the end of the hand it
is taken in, so one that ends the hand itself (a refusal, the deciding card) is measured by
the same value table as the others, not by a playout of the next deal (decision 0021). All
actions share the same worlds and playout seeds, so their comparison is not blurred by luck.
The most valuable action on average wins, except that a weak hand bluffs in the third trick
where a raise costs little and the opponents have been folding to late raises (bluffs.late_bluff,
from the match's `history`: tendencies.py) and a dump goes face down where hiding it costs
nothing (concealment.hide_dump), both with 2 players; and against opponents who call late
raises, a weak raise after the first trick that the search values only a little above its best
other action gives way to that action (bluffs.drop_called_bluff), at any table size.
Worlds are weighted by how well they explain the opponents' calls and card plays
(beliefs.world_weight): a uniform deal would credit a caller with average cards and so accept
far too many calls.

Budget: `playouts` (default DEFAULT_PLAYOUTS) fixes the work, so a decision depends only on the
view and the rng; `budget_ms` (default DEFAULT_BUDGET_MS) is a safety cap checked after each
world. When the cap stops a search early (an overloaded machine) the decision depends on the
clock: that is the trade-off for a bounded answer time. At least MIN_WORLDS worlds are always
searched.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ..determinize import determinize
from ..play import apply
from ..state import MatchState
from .beliefs import world_weight
from .bluffs import drop_called_bluff, late_bluff
from .concealment import hide_dump
from .playout import play_out_hand
from .tendencies import LateAnswers
from .value import match_value

DEFAULT_PLAYOUTS = 360
"""Playouts per decision (worlds × legal actions): the deterministic budget."""
DEFAULT_BUDGET_MS = 250.0
"""Wall-clock cap per decision, a safety net above the playout budget."""
MIN_WORLDS = 6


def choose_hard(view: dict[str, Any], rng: random.Random, *, budget_ms: float | None = None,
                playouts: int | None = None, history: LateAnswers | None = None
                ) -> dict[str, Any]:
    """The most valuable of the view's legal actions over the searched worlds (`playouts`:
    DEFAULT_PLAYOUTS when None; `budget_ms`: DEFAULT_BUDGET_MS when None; `history`: the
    opponents' answers to the team's late raises in the match, None when unknown)."""
    return search(view, view["legal_actions"], rng, world_weight, budget_ms=budget_ms,
                  playouts=playouts, history=history)


Draw = Callable[[dict[str, Any], random.Random, int], MatchState]
"""How a world is drawn from a view: (view, rng, seed of the later hands) -> a state the view's
seat cannot tell from the real one (engine.determinize; bench/headroom.py passes the true deal
to measure what knowing it would be worth)."""


def search(view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random,
           weigh: Callable[[MatchState, int], float], *, budget_ms: float | None = None,
           playouts: int | None = None, draw: Draw = determinize,
           history: LateAnswers | None = None) -> dict[str, Any]:
    """The most valuable of `actions` (legal in `view`) over worlds drawn from the view with
    `draw`, each weighted by `weigh(world, seat)`, every action played out on the same worlds
    and seeds; or its face-down twin, or a late bluff close to it, or the best other action
    instead of a weak raise against callers (concealment, bluffs)."""
    totals, weights = _searched(view, actions, rng, weigh, budget_ms=budget_ms,
                               playouts=playouts, draw=draw)
    best = max(range(len(actions)), key=totals.__getitem__)
    values = _means(totals, weights)
    chosen = hide_dump(view, actions, values, best)
    chosen = drop_called_bluff(view, actions, values, chosen, history)
    return dict(actions[late_bluff(view, actions, values, chosen, history)])


def action_values(view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random, *,
                  budget_ms: float | None = None, playouts: int | None = None) -> list[float]:
    """What `hard`'s search thinks each of `actions` (legal in `view`) is worth: the chance
    that the seat's team wins the match after it, averaged over the same worlds as a decision
    (reviews of finished matches: engine/bots/review.py)."""
    totals, weights = _searched(view, actions, rng, world_weight, budget_ms=budget_ms,
                               playouts=playouts, draw=determinize)
    return _means(totals, weights)


def _means(totals: list[float], weights: float) -> list[float]:
    """Each action's weighted mean match value (the totals as they are without weight)."""
    return [t / weights for t in totals] if weights > 0 else totals


def _searched(view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random,
              weigh: Callable[[MatchState, int], float], *, budget_ms: float | None,
              playouts: int | None, draw: Draw) -> tuple[list[float], float]:
    """Each action's weighted total of match values over the drawn worlds, and the worlds'
    total weight."""
    start = time.perf_counter()
    limit = (DEFAULT_BUDGET_MS if budget_ms is None else budget_ms) / 1000.0
    budget = DEFAULT_PLAYOUTS if playouts is None else playouts
    worlds = max(MIN_WORLDS, -(-budget // len(actions)))
    seat = int(view["you"]["seat"])
    team = seat % 2
    totals = [0.0] * len(actions)
    weights = 0.0
    for done in range(1, worlds + 1):
        world = draw(view, rng, rng.getrandbits(31))
        seed = rng.getrandbits(64)
        weight = weigh(world, seat)
        weights += weight
        for i, action in enumerate(actions):
            after, _ = apply(world, seat, action)
            end = play_out_hand(after, random.Random(seed), hand=world.hand.number)
            totals[i] += weight * match_value(end, team)
        if done >= MIN_WORLDS and time.perf_counter() - start >= limit:
            break
    return totals, weights
