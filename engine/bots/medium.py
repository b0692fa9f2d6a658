"""The `medium` level: card counting, position, the score and face-down dumps.

Its hand estimate (estimate.sampled_chance) plays the hand out over deals of the cards it has
not seen (card counting), with the easy rules and no calls; calls and answers
compare the estimate with the break-even point of the stake on offer, moved by the score: a
team that would lose the game by refusing always accepts, one that would lose it by losing the
raised hand needs a better hand, and so does a raise after the opponents answered a call of
the hand (`hand.calls`: they showed strength; the estimate weighs their calls too).
"""
from __future__ import annotations

import random
from typing import Any

from ..rules import RULESETS
from .cardplay import choose_card
from .estimate import beat_chances, sampled_chance
from .observation import Observation, observe

BLUFF = 0.06
"""How often a weak hand calls truco at the base stake anyway."""
CALL_AT = 0.75
"""The chance to win the hand from which a call is made."""
SURE = 0.85
"""The chance from which a call that could lose the game, or a counter-raise, is made."""
RESPECT = 0.2
"""Added to the break-even chance before accepting a call: callers tend to hold good cards."""


def choose_medium(view: dict[str, Any], rng: random.Random, *,
                  budget_ms: float | None = None) -> dict[str, Any]:
    """The medium level's choice for the seat of `view` (its sampling has a fixed size, so
    `budget_ms` is not needed)."""
    obs = observe(view)
    if obs.cards is None:
        return dict(rng.choice(obs.legal))  # blind: every slot is alike
    if obs.pending is not None:
        if obs.pending["kind"] == "mao_de_onze":
            return _eleven(obs, rng)
        return _answer(obs, rng)
    call = obs.raise_action()
    if call is not None and _should_call(obs, call["to"], rng):
        return call
    cards = obs.playable_cards()
    choice = choose_card(cards, obs.strength, obs.plays, obs.seat, obs.results,
                         obs.opponents_after, beat_chances(obs, cards))
    return obs.play_action(choice.card, face_down=choice.intent == "dump")


def _should_call(obs: Observation, to: int, rng: random.Random) -> bool:
    chance = sampled_chance(obs, rng)
    if obs.need(1 - obs.team) <= to or obs.opponents_answered:
        return chance >= SURE  # the raised hand could lose the game, or they showed strength
    if chance >= CALL_AT:
        return True
    return obs.stake == obs.base and chance < 0.25 and rng.random() < BLUFF


def _answer(obs: Observation, rng: random.Random) -> dict[str, Any]:
    assert obs.pending is not None
    to, stake = int(obs.pending["to"]), obs.stake
    chance = sampled_chance(obs, rng)
    counter = obs.raise_action()
    if counter is not None and chance >= SURE:
        return counter
    if obs.need(1 - obs.team) <= stake:  # refusing loses the game: nothing to save
        return {"type": "accept"}
    # accepting pays when (2p - 1) * to beats -stake; a call also says the caller is strong
    threshold = (to - stake) / (2 * to) + RESPECT
    if obs.need(1 - obs.team) <= to:
        threshold += 0.15
    return {"type": "accept"} if chance >= threshold else {"type": "refuse"}


def _eleven(obs: Observation, rng: random.Random) -> dict[str, Any]:
    chance = sampled_chance(obs, rng)
    rules = RULESETS[obs.ruleset]
    opponents_need = obs.need(1 - obs.team)
    if opponents_need <= rules.eleven_refused_award:  # giving the hand up ends the game
        return {"type": "accept"}
    threshold = 0.5 if opponents_need <= rules.eleven_stake else 0.4
    return {"type": "accept"} if chance >= threshold else {"type": "refuse"}
