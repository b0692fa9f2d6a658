"""Ruleset constants and the validated options of a match (RULES.md §12)."""
from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any

from .errors import InvalidConfig

TARGET_SCORE = 12


@dataclass(frozen=True)
class Ruleset:
    name: str
    base: int
    """Stake at the deal."""
    ladder: tuple[int, ...]
    special_at: int
    """T: a team at T or more points makes a mão de onze (dez)."""
    eleven_stake: int
    eleven_refused_award: int

    def next_value(self, value: int) -> int | None:
        """The ladder step after `value`, or None at the top."""
        for step in self.ladder:
            if step > value:
                return step
        return None


RULESETS: dict[str, Ruleset] = {
    "paulista": Ruleset("paulista", 1, (1, 3, 6, 9, 12), 11, 3, 1),
    "mineiro": Ruleset("mineiro", 2, (2, 4, 6, 10, 12), 10, 4, 2),
}

OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "tie_leader": ("trick_leader", "first_tied_card", "hand_mao"),
    "all_ties": ("void", "mao_team"),
    "response_mode": ("any_accept_all_refuse", "first_response", "designated"),
    "raise_cap": ("ladder", "no_raise_if_accept_wins", "needed_points"),
    "iron_hand_blind": (True, False),
    "face_down": (True, False),
    "face_down_after_tie": (True, False),
    "max_face_down_per_team_per_trick": (None, 1),
    "force_highest_after_first_tie": (False, True),
    "illegal_call_policy": ("reject", "lose_game"),
    "games_to_win": (1, 2),
}
"""Options with a closed set of values, the default first."""

OPTION_DEFAULTS: dict[str, Any] = {
    "first_dealer": "random",
    **{name: values[0] for name, values in OPTION_CHOICES.items()},
    "iron_hand_value": None,
}
"""Defaults; iron_hand_value None stands for the ruleset's base value."""


@dataclass(frozen=True)
class Options:
    first_dealer: str | int = "random"
    tie_leader: str = "trick_leader"
    all_ties: str = "void"
    response_mode: str = "any_accept_all_refuse"
    raise_cap: str = "ladder"
    iron_hand_blind: bool = True
    iron_hand_value: int = 1
    face_down: bool = True
    face_down_after_tie: bool = True
    max_face_down_per_team_per_trick: int | None = None
    force_highest_after_first_tie: bool = False
    illegal_call_policy: str = "reject"
    games_to_win: int = 1

    def to_dict(self) -> dict[str, Any]:
        # (every field is a plain immutable value: no deep copy as dataclasses.asdict makes)
        return {name: getattr(self, name) for name in _OPTION_FIELDS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Options":
        return cls(**data)


_OPTION_FIELDS = tuple(f.name for f in fields(Options))

MAX_IRON_HAND_VALUE = 2**15 - 1 - 11
"""RULES.md asks only for an integer >= 1; the bound keeps a score (at most 11 before a mão de
ferro, plus its stake) within a 16-bit signed integer, the width a score is kept in."""


def _same(a: Any, b: Any) -> bool:
    """Equality that keeps True apart from 1 and False from 0."""
    return a == b and type(a) is type(b)


def make_options(ruleset: Ruleset, players: int, raw: Any) -> Options:
    """Validate the create body's `options`, fill defaults, or raise InvalidConfig."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InvalidConfig({"options": "must be an object"})
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    for name, value in raw.items():
        key = f"options.{name}"
        if name in OPTION_CHOICES:
            choices = OPTION_CHOICES[name]
            if any(_same(value, c) for c in choices):
                values[name] = value
            else:
                errors[key] = "must be one of " + ", ".join(json.dumps(c) for c in choices)
        elif name == "first_dealer":
            if value == "random" or (type(value) is int and 0 <= value < players):
                values[name] = value
            else:
                errors[key] = f'must be "random" or a seat from 0 to {players - 1}'
        elif name == "iron_hand_value":
            if type(value) is int and 1 <= value <= MAX_IRON_HAND_VALUE:
                values[name] = value
            else:
                errors[key] = f"must be an integer from 1 to {MAX_IRON_HAND_VALUE}"
        else:
            errors[key] = "unknown option"
    if errors:
        raise InvalidConfig(errors)
    values.setdefault("iron_hand_value", ruleset.base)
    return Options(**values)
