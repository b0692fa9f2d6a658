"""The `easy` level: sensible card play, calls and answers from a count of good cards."""
from __future__ import annotations

import random
from typing import Any

from .cardplay import choose_card, easy_calls, simple_strength, strong_cards
from .observation import Observation, observe


def choose_easy(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    obs = observe(view)
    if len(obs.legal) == 1:
        return obs.legal[0]
    if obs.pending is not None:
        return _answer(obs)
    if obs.cards is None:
        return dict(rng.choice(obs.legal))  # blind: every slot is alike
    strength = obs.strength
    call = obs.raise_action()
    if call is not None and easy_calls(obs.cards, strength, obs.results, obs.team):
        return call
    choice = choose_card(obs.playable_cards(), strength, obs.plays, obs.seat, obs.results)
    return obs.play_action(choice.card)


def _answer(obs: Observation) -> dict[str, Any]:
    assert obs.pending is not None
    accept, refuse = {"type": "accept"}, {"type": "refuse"}
    cards = obs.cards or []
    if obs.pending["kind"] == "mao_de_onze":
        team_cards = cards + [c for hand in obs.partner_hands for c in hand]
        return accept if strong_cards(team_cards, obs.strength) >= 1 + len(obs.partner_hands) \
            else refuse
    good = simple_strength(cards, obs.strength, obs.results, obs.team)
    counter = obs.raise_action()
    if counter is not None and good >= 3:
        return counter
    return accept if good >= 1 else refuse
