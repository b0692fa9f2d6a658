"""The `hard` level: determinized Monte Carlo search.

For every decision it draws worlds consistent with what the seat has seen (engine.determinize:
the hidden cards dealt at random among the cards the seat cannot place), tries every legal
action in each world, plays the hand out with the playout policy and scores the result as the
chance to win the match (value.match_value). All actions share the same worlds and playout
seeds, so their comparison is not blurred by luck. The most valuable action on average wins.
Worlds are weighted by how well they explain a pending call (world_weight): a uniform deal
would credit a caller with average cards and so accept far too many calls.

Budget: `playouts` (default DEFAULT_PLAYOUTS) fixes the work, so a decision depends only on the
view and the rng; `budget_ms` (default DEFAULT_BUDGET_MS) is a safety cap checked after each
world. When the cap stops a search early (an overloaded machine) the decision depends on the
clock: that is the trade-off for a bounded answer time. At least MIN_WORLDS worlds are always
searched.
"""
from __future__ import annotations

import random
import time
from typing import Any

from ..cards import strengths
from ..determinize import determinize
from ..play import apply
from ..state import MatchState
from .cardplay import easy_calls
from .playout import play_out_hand
from .value import match_value

BLUFF_WEIGHT = 0.25
"""Relative likelihood of a world in which a pending call was made on cards the easy rule
would not call on."""
DEFAULT_PLAYOUTS = 360
"""Playouts per decision (worlds × legal actions): the deterministic budget."""
DEFAULT_BUDGET_MS = 250.0
"""Wall-clock cap per decision, a safety net above the playout budget."""
MIN_WORLDS = 6


def world_weight(world: MatchState, seat: int) -> float:
    """How likely `world` is given the other seats' choices the seat has seen: a pending call by
    another seat is much likelier when that seat holds the cards the easy rule calls on."""
    h = world.hand
    if h.pending is None or h.pending["kind"] != "raise" or h.pending["by_seat"] == seat:
        return 1.0
    caller = int(h.pending["by_seat"])
    results = [t.winner_team for t in h.tricks if t.done]
    table = strengths(world.ruleset, h.vira)
    return 1.0 if easy_calls(h.hands[caller], table, results, caller % 2) else BLUFF_WEIGHT


def choose_hard(view: dict[str, Any], rng: random.Random, *, budget_ms: float | None = None,
                playouts: int | None = None) -> dict[str, Any]:
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("this seat has nothing to do")
    if len(legal) == 1:
        return dict(legal[0])
    start = time.perf_counter()
    limit = (DEFAULT_BUDGET_MS if budget_ms is None else budget_ms) / 1000.0
    budget = DEFAULT_PLAYOUTS if playouts is None else playouts
    worlds = max(MIN_WORLDS, -(-budget // len(legal)))
    seat = int(view["you"]["seat"])
    team = seat % 2
    totals = [0.0] * len(legal)
    for done in range(1, worlds + 1):
        world = determinize(view, rng, seed=rng.getrandbits(31))
        seed = rng.getrandbits(64)
        weight = world_weight(world, seat)
        for i, action in enumerate(legal):
            after, _ = apply(world, seat, action)
            totals[i] += weight * match_value(play_out_hand(after, random.Random(seed)), team)
        if done >= MIN_WORLDS and time.perf_counter() - start >= limit:
            break
    best = max(range(len(legal)), key=totals.__getitem__)
    return dict(legal[best])
