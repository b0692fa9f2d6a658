"""Truco Paulista and Mineiro rules: pure functions over a JSON-serialisable match state.

The public surface is listed in docs/engine-api.md. Standard library only: no I/O, no clock,
no global random generator (shuffles come from the match seed or fixed deals).
"""
from __future__ import annotations

from .actions import normal_form
from .cards import DECK, manilhas, parse_card, strengths
from .errors import IllegalAction, InvalidAction, InvalidConfig
from .fairness import SCHEME as DEAL_SCHEME
from .fairness import commitment as deal_commitment
from .fairness import match_key as deal_key
from .legal import legal_actions
from .match import PLAYER_COUNTS, new_match
from .play import apply, forfeit, resign
from .rules import OPTION_CHOICES, OPTION_DEFAULTS, RULESETS, Options, Ruleset
from .state import Hand, MatchState, Trick
from .views import redact_event, view

__all__ = [
    "DEAL_SCHEME", "DECK", "Hand", "IllegalAction", "InvalidAction", "InvalidConfig", "MatchState",
    "OPTION_CHOICES", "OPTION_DEFAULTS", "Options", "PLAYER_COUNTS", "RULESETS", "Ruleset",
    "Trick", "apply", "deal_commitment", "deal_key", "forfeit", "legal_actions", "manilhas",
    "new_match", "normal_form", "parse_card", "redact_event", "resign", "strengths", "view",
]
