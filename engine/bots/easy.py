"""The `easy` level: sensible card play, calls and answers from a count of good cards.

`easy_rule` is the rule itself, read off a `Sight`; the level reads the sight off a view, the
hard bot's playouts off a world's state (playout.py), so both play one rule.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from .cardplay import Play, choose_card, easy_calls, simple_strength, strong_cards
from .observation import observe, play_action, playable_cards, raise_action


class Sight(NamedTuple):
    """What the easy rule reads of a seat's position: only what that seat may see."""

    seat: int
    legal: list[dict[str, Any]]
    cards: list[str] | None
    """The seat's cards, None in a blind mão de ferro."""
    partner_hands: list[list[str]]
    """The partners' hands the seat sees (its team's in a mão de onze), else none."""
    strength: dict[str, int]
    plays: Sequence[Play]
    """The open trick's plays."""
    results: list[int | None]
    """Done tricks' winning teams, None for a tie."""
    pending: dict[str, Any] | None


def easy_rule(sight: Sight, rng: random.Random, call_odds: float = 1.0) -> dict[str, Any]:
    """The easy rule's choice among `sight.legal`: a call it allows is made with chance
    `call_odds` (0: never, 1: always, drawing nothing from `rng`)."""
    if sight.pending is not None:
        return _answer(sight)
    if sight.cards is None:
        return dict(rng.choice(sight.legal))  # blind: every slot is alike
    team = sight.seat % 2
    call = raise_action(sight.legal)
    if (call is not None and call_odds > 0
            and easy_calls(sight.cards, sight.strength, sight.results, team)
            and (call_odds >= 1 or rng.random() < call_odds)):
        return call
    choice = choose_card(playable_cards(sight.legal), sight.strength, sight.plays, sight.seat,
                         sight.results)
    return play_action(sight.legal, choice.card)


def _answer(sight: Sight) -> dict[str, Any]:
    assert sight.pending is not None
    accept, refuse = {"type": "accept"}, {"type": "refuse"}
    cards = sight.cards or []
    if sight.pending["kind"] == "mao_de_onze":
        team_cards = cards + [c for hand in sight.partner_hands for c in hand]
        enough = 1 + len(sight.partner_hands)
        return accept if strong_cards(team_cards, sight.strength) >= enough else refuse
    good = simple_strength(cards, sight.strength, sight.results, sight.seat % 2)
    counter = raise_action(sight.legal)
    if counter is not None and good >= 3:
        return counter
    return accept if good >= 1 else refuse


def choose_easy(view: dict[str, Any], rng: random.Random, *,
                budget_ms: float | None = None) -> dict[str, Any]:
    """The easy rule's choice for the seat of `view` (`budget_ms` is not needed)."""
    obs = observe(view)
    return easy_rule(Sight(obs.seat, obs.legal, obs.cards, obs.partner_hands, obs.strength,
                           obs.plays, obs.results, obs.pending), rng)
