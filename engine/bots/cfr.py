"""Counterfactual regret minimisation for two-player zero-sum games behind a small interface.

`Solver` runs external-sampling Monte Carlo CFR: each iteration draws the chance moves
(`Game.sample_root`), then walks the tree once for each player, trying every action of the
walking player and one action of the other, drawn from its current strategy. `best_response`
measures a fixed strategy: the best payoff the other player can get against it, computed
exactly over a given list of chance outcomes (all of them for a small game, a sample else).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

S = TypeVar("S")

TERMINAL = -1
"""`Game.player` of a finished game."""

Strategy = Callable[[str, int], Sequence[float]]
"""The probabilities of the `n` actions at an information set (by its key)."""


class Game(Protocol[S]):
    """A two-player zero-sum game with its chance moves made up front."""

    def sample_root(self, rng: random.Random) -> S:
        """A state after every chance move, drawn with `rng`."""
        ...

    def player(self, state: S) -> int:
        """0 or 1, the player to act, or TERMINAL."""
        ...

    def utility(self, state: S) -> float:
        """Player 0's payoff at a terminal state; player 1 gets minus it."""
        ...

    def infoset(self, state: S) -> str:
        """The key of what the player to act knows (equal keys: equal legal actions)."""
        ...

    def actions(self, state: S) -> Sequence[str]:
        """The legal actions' names, in a fixed order."""
        ...

    def child(self, state: S, action: int) -> S:
        """The state after the action of index `action`."""
        ...


def regret_matching(regrets: Sequence[float]) -> list[float]:
    """The strategy proportional to the positive regrets (uniform when none is positive)."""
    positive = [max(0.0, r) for r in regrets]
    total = sum(positive)
    if total <= 0.0:
        return [1.0 / len(regrets)] * len(regrets)
    return [r / total for r in positive]


def normalized(weights: Sequence[float]) -> list[float]:
    """`weights` scaled to sum to 1 (uniform when they sum to 0)."""
    total = sum(weights)
    if total <= 0.0:
        return [1.0 / len(weights)] * len(weights)
    return [w / total for w in weights]


class Solver(Generic[S]):
    """External-sampling MCCFR over `game`; `average` is the strategy that converges."""

    def __init__(self, game: Game[S]) -> None:
        self.game = game
        self.regrets: dict[str, list[float]] = {}
        self.totals: dict[str, list[float]] = {}
        self.iterations = 0

    def iterate(self, rng: random.Random) -> None:
        """One iteration: one chance draw, a walk for each player."""
        self.iterations += 1
        root = self.game.sample_root(rng)
        self._walk(root, 0, rng)
        self._walk(root, 1, rng)

    def current(self, key: str, n: int) -> list[float]:
        """The current (regret-matching) strategy at `key`."""
        regrets = self.regrets.get(key)
        return regret_matching(regrets) if regrets is not None else [1.0 / n] * n

    def average(self, key: str, n: int) -> list[float]:
        """The average strategy at `key` (uniform where it was never reached)."""
        totals = self.totals.get(key)
        return normalized(totals) if totals is not None else [1.0 / n] * n

    def _walk(self, state: S, walker: int, rng: random.Random) -> float:
        """The walker's sampled counterfactual value of `state`."""
        game = self.game
        who = game.player(state)
        if who == TERMINAL:
            value = game.utility(state)
            return value if walker == 0 else -value
        key = game.infoset(state)
        regrets = self.regrets.get(key)
        if regrets is None:
            n = len(game.actions(state))
            regrets = self.regrets[key] = [0.0] * n
            self.totals[key] = [0.0] * n
        n = len(regrets)
        strategy = regret_matching(regrets)
        if who == walker:
            values = [self._walk(game.child(state, i), walker, rng) for i in range(n)]
            mean = 0.0
            for p, v in zip(strategy, values):
                mean += p * v
            for i in range(n):
                regrets[i] += values[i] - mean
            return mean
        totals = self.totals[key]
        x = rng.random()
        pick = n - 1
        for i in range(n):
            p = strategy[i]
            totals[i] += p
            if x >= 0.0:
                x -= p
                if x < 0.0:
                    pick = i
        return self._walk(game.child(state, pick), walker, rng)


def expected_value(game: Game[S], strategy: Strategy, roots: Sequence[tuple[S, float]]) -> float:
    """Player 0's expected payoff when both players follow `strategy`, over the weighted
    chance outcomes `roots`."""

    def value(state: S) -> float:
        if game.player(state) == TERMINAL:
            return game.utility(state)
        n = len(game.actions(state))
        probs = strategy(game.infoset(state), n)
        return sum(p * value(game.child(state, i)) for i, p in enumerate(probs) if p > 0.0)

    return sum(w * value(root) for root, w in roots)


def best_response(game: Game[S], strategy: Strategy, responder: int,
                  roots: Sequence[tuple[S, float]]) -> tuple[float, dict[Path, int]]:
    """The responder's best expected payoff against the other player's `strategy`, over the
    weighted chance outcomes `roots`, and the best response itself.

    The responder remembers its own past information sets and actions (perfect recall over
    the game's keys: a `Path`), so its choice at a key may differ with the path that led
    there. The answer is exact for `roots`; over a sample of the chance moves it fits that
    sample (`response_value` on another sample measures it fairly).
    """
    groups: dict[Path, list[tuple[S, float]]] = {}

    def collect(state: S, reach: float, path: Path) -> None:
        who = game.player(state)
        if who == TERMINAL or reach == 0.0:
            return
        key = game.infoset(state)
        n = len(game.actions(state))
        if who == responder:
            here = path + (key,)
            groups.setdefault(here, []).append((state, reach))
            for i in range(n):
                collect(game.child(state, i), reach, here + (i,))
        else:
            for i, p in enumerate(strategy(key, n)):
                if p > 0.0:
                    collect(game.child(state, i), reach * p, path)

    for root, weight in roots:
        collect(root, weight, ())
    choice: dict[Path, int] = {}
    for here in sorted(groups, key=len, reverse=True):  # later decisions first
        members = groups[here]
        n = len(game.actions(members[0][0]))
        totals = [sum(r * _responder_value(game, strategy, responder, choice,
                                           game.child(s, i), here + (i,)) for s, r in members)
                  for i in range(n)]
        choice[here] = max(range(n), key=totals.__getitem__)
    return response_value(game, strategy, responder, roots, choice), choice


Path = tuple[object, ...]
"""The responder's information-set keys and actions so far, in order."""


def response_value(game: Game[S], strategy: Strategy, responder: int,
                   roots: Sequence[tuple[S, float]], choice: dict[Path, int]) -> float:
    """The responder's expected payoff over `roots` when it plays `choice` (a best response's
    actions by path; `strategy` where a path is missing) against `strategy`."""
    return sum(w * _responder_value(game, strategy, responder, choice, root, ())
               for root, w in roots)


def _responder_value(game: Game[S], strategy: Strategy, responder: int,
                     choice: dict[Path, int], state: S, path: Path) -> float:
    who = game.player(state)
    if who == TERMINAL:
        value = game.utility(state)
        return value if responder == 0 else -value
    key = game.infoset(state)
    n = len(game.actions(state))
    if who == responder:
        here = path + (key,)
        i = choice.get(here)
        if i is not None:
            return _responder_value(game, strategy, responder, choice, game.child(state, i),
                                    here + (i,))
        return sum(p * _responder_value(game, strategy, responder, choice, game.child(state, j),
                                        here + (j,))
                   for j, p in enumerate(strategy(key, n)) if p > 0.0)
    return sum(p * _responder_value(game, strategy, responder, choice, game.child(state, j),
                                    path)
               for j, p in enumerate(strategy(key, n)) if p > 0.0)
