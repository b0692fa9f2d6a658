"""Creating a match: validating its configuration and dealing the first hand."""
from __future__ import annotations

import random
from typing import Any

from .cards import parse_card
from .deal import deal
from .errors import InvalidConfig
from .events import Event
from .fairness import SCHEME, first_dealer as keyed_first_dealer
from .rules import RULESETS, make_options
from .state import SEED_SCHEME, MatchState

PLAYER_COUNTS = (2, 4, 6)


def _check_deals(raw: Any, ruleset: str, players: int) -> list[dict[str, Any]]:
    """Canonical fixed deals, or InvalidConfig naming the first bad entry."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidConfig({"deals": "must be a list"})
    out = []
    for i, entry in enumerate(raw):
        where = f"deals[{i}]"
        if not isinstance(entry, dict) or set(entry) - {"vira", "hands"}:
            raise InvalidConfig({where: 'must be an object with "hands" and "vira"'})
        hands = entry.get("hands")
        if (not isinstance(hands, list) or len(hands) != players
                or any(not isinstance(h, list) or len(h) != 3 for h in hands)):
            raise InvalidConfig({f"{where}.hands": f"must list {players} hands of 3 cards"})
        cards = [parse_card(c) for h in hands for c in h]
        if None in cards:
            raise InvalidConfig({f"{where}.hands": "holds an unknown card code"})
        vira_raw = entry.get("vira")
        if ruleset == "paulista":
            vira = parse_card(vira_raw)
            if vira is None:
                raise InvalidConfig({f"{where}.vira": "must be a card code in paulista"})
            cards.append(vira)
        elif vira_raw is not None:
            raise InvalidConfig({f"{where}.vira": "must be null in mineiro"})
        else:
            vira = None
        if len(set(cards)) != len(cards):
            raise InvalidConfig({where: "a card appears twice"})
        out.append({"vira": vira,
                    "hands": [[parse_card(c) for c in h] for h in hands]})
    return out


def _check_start_score(raw: Any) -> list[int]:
    if raw is None:
        return [0, 0]
    if (not isinstance(raw, list) or len(raw) != 2
            or any(type(v) is not int or not 0 <= v <= 11 for v in raw)):
        raise InvalidConfig({"start_score": "must be two integers from 0 to 11"})
    return list(raw)


def new_match(players: int = 2, ruleset: str = "paulista", options: Any = None,
              seed: int = 0, deals: Any = None,
              start_score: Any = None,
              deal_key: bytes | None = None) -> tuple[MatchState, list[Event]]:
    """A new active match with its first hand dealt, and the hand_dealt event. With
    `deal_key` the shuffles and a random first dealer come from that key (scheme
    truco-commit-v1, engine/fairness.py), else from `seed`."""
    if type(players) is not int or players not in PLAYER_COUNTS:
        raise InvalidConfig({"players": "must be 2, 4 or 6"})
    if ruleset not in RULESETS:
        raise InvalidConfig({"ruleset": "must be paulista or mineiro"})
    if type(seed) is not int:
        raise InvalidConfig({"seed": "must be an integer"})
    opts = make_options(RULESETS[ruleset], players, options)
    fixed = _check_deals(deals, ruleset, players)
    score = _check_start_score(start_score)
    first_dealer = opts.first_dealer
    if first_dealer == "random":
        first_dealer = (random.Random(f"truco:{seed}:dealer").randrange(players)
                        if deal_key is None else keyed_first_dealer(deal_key, players))
    state = MatchState(ruleset, players, opts, seed, fixed, score, [0, 0], "active", None,
                       None, None,  # type: ignore[arg-type]  # the hand is dealt just below
                       deal_scheme=SEED_SCHEME if deal_key is None else SCHEME,
                       deal_key="" if deal_key is None else deal_key.hex())
    event = deal(state, 1, int(first_dealer))
    return state, [event]
