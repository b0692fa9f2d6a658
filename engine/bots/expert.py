"""The `expert` level: a betting strategy computed offline by CFR, and a card search that reads
the opponents' calls through that strategy.

With 2 players, in the third trick, a call on its turn (play on or raise) is drawn with `rng`
from the mixed strategy of the shipped table (strategy_table.py, trained by
scripts/train_expert.py over the abstract game of abstraction.py) at the seat's information
set (reading.py), so its late bluffs are balanced. A call to answer, and any other spot where
it may raise, is decided by the hard level's search: the table's answers lost to it, most
against `medium`, and so did its raises with partners and in tricks 1 and 2 (decision 0030).
Card play is a determinized search like the hard level's, with each world weighted by how
likely the table makes the opponents' calls of the hand given that world's cards, times the
hard level's card-play likelihood (beliefs.world_weight).

Where `hard`'s search decides, it gets the match's `history` as `hard` does (tendencies.py: its
late bluffs only against folders, its weak late raises dropped against callers; decision 0037).

Hands and options the abstraction does not cover (`covers`: mão de onze and de ferro, raise
caps, all_ties mao_team, forced highest cards, and with 4 or 6 players any response mode but
the default), and information sets the table never reached, are decided by `choose_hard`.
"""
from __future__ import annotations

import random
from typing import Any

from ..determinize import determinize
from ..state import MatchState
from .abstraction import ANSWER, BET
from .beliefs import world_weight
from .hard import choose_hard, search
from .observation import observe
from .reading import Betting, key_at, replay
from .strategy_table import StrategyTable, shipped_table
from .tendencies import LateAnswers

TABLE_TRICK = 3
"""The trick whose bets (play on or raise) the table draws, with 2 players; `hard`'s search
makes the others. Its balanced third-trick raises beat `hard`'s late bluffs (decision 0030)."""
LEAST_LIKELY = 0.05
"""The smallest factor one opponent call gives a world: nothing is ruled out (people bluff,
and other bots play other strategies)."""


def covers(view: dict[str, Any]) -> bool:
    """Whether the abstract game models the view's hand and options."""
    h, rules = view["hand"], view["rules"]
    return (h["special"] is None and h["cards"] is not None and None not in h["cards"]
            and rules["raise_cap"] == "ladder" and rules["all_ties"] == "void"
            and not rules["force_highest_after_first_tie"]
            and (view["players"] == 2 or rules["response_mode"] == "any_accept_all_refuse"))


def choose_expert(view: dict[str, Any], rng: random.Random, *, budget_ms: float | None = None,
                  playouts: int | None = None, history: LateAnswers | None = None
                  ) -> dict[str, Any]:
    """The expert level's choice among the view's legal actions (`playouts` and `budget_ms`
    bound the card search as the hard level's; `history`, the opponents' answers to the team's
    late raises, goes to the hard level's search where it decides)."""
    if not covers(view):
        return choose_hard(view, rng, budget_ms=budget_ms, playouts=playouts, history=history)
    obs = observe(view)
    call = obs.raise_action()
    table_bets = obs.players == 2 and len(obs.results) + 1 == TABLE_TRICK
    if obs.pending is not None or (call is not None and not table_bets):
        # the search's answers and most of its bets beat the table's (decision 0030)
        return choose_hard(view, rng, budget_ms=budget_ms, playouts=playouts, history=history)
    table = shipped_table()
    structure = determinize(view, random.Random(0))  # public facts; the seat's cards are real
    made, now = replay(structure.hand.calls, view["ruleset"])
    if call is not None:
        h = structure.hand
        key = key_at(structure, obs.seat, len(h.tricks) - 1, len(h.tricks[-1].plays), now)
        probs = table.probabilities(key)
        if probs is None:
            return choose_hard(view, rng, budget_ms=budget_ms, playouts=playouts,
                               history=history)
        if _raises(probs, rng):
            return dict(call)
    plays = [a for a in obs.legal if a["type"] == "play"]
    if len(plays) == 1:
        return dict(plays[0])
    return search_card(view, plays, rng, table, made, budget_ms=budget_ms, playouts=playouts)


def _raises(probs: list[float], rng: random.Random) -> bool:
    """Whether a draw from the table's mix `probs` (over BET) is a raise; never when the mix
    is all zeros."""
    total = sum(probs)
    return total > 0.0 and rng.random() * total >= probs[BET.index("play")]


def search_card(view: dict[str, Any], plays: list[dict[str, Any]], rng: random.Random,
                table: StrategyTable, made: list[Betting], *, budget_ms: float | None = None,
                playouts: int | None = None) -> dict[str, Any]:
    """The most valuable of `plays` over worlds weighted by the opponents' card plays and by
    `calls_likelihood` (the hard level's search otherwise)."""
    def weigh(world: MatchState, seat: int) -> float:
        return play_likelihood(world, seat) * calls_likelihood(world, seat, table, made)

    return search(view, plays, rng, weigh, budget_ms=budget_ms, playouts=playouts)


def play_likelihood(world: MatchState, seat: int) -> float:
    """The hard level's likelihood of the opponents' card plays in `world` (its calls left
    out: the table weighs those)."""
    plays_only = world.copy()
    plays_only.hand.calls = []
    plays_only.hand.pending = None
    return world_weight(plays_only, seat)


def calls_likelihood(world: MatchState, seat: int, table: StrategyTable,
                     made: list[Betting]) -> float:
    """How likely the table's strategy makes the opponents' raises and accepts of the hand
    with the cards `world` gives them: the product, over those calls, of the probability of
    the call at the moment of the hand that explains it best (the record does not say in
    which trick a call was made), each at least LEAST_LIKELY."""
    weight = 1.0
    for call in made:
        if call.seat % 2 == seat % 2 or call.action not in ("raise", "accept"):
            continue
        answering = call.pending != 0
        actions = ANSWER if answering else BET
        index = actions.index(call.action)
        best = -1.0
        for trick, before in _moments(world, call.seat, answering):
            probs = table.probabilities(key_at(world, call.seat, trick, before, call))
            if probs is not None and index < len(probs):
                best = max(best, probs[index])
        if best >= 0.0:
            weight *= max(best, LEAST_LIKELY)
    return weight


def _moments(world: MatchState, caller: int, answering: bool) -> list[tuple[int, int]]:
    """(trick index, cards on the table) of every moment `caller` could have made a call:
    its own turns when raising, the other team's turns when answering."""
    h = world.hand
    team = caller % 2 if not answering else 1 - caller % 2
    out = []
    for t, trick in enumerate(h.tricks):
        for k, (s, _, _) in enumerate(trick.plays):
            if (s == caller) if not answering else (s % 2 == team):
                out.append((t, k))
    if h.turn is not None and ((h.turn == caller) if not answering else (h.turn % 2 == team)):
        out.append((len(h.tricks) - 1, len(h.tricks[-1].plays)))
    return out
