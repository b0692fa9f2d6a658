"""Card codes, the deck, manilhas and strength (RULES.md §1)."""
from __future__ import annotations

from functools import lru_cache

RANKS = "4567QJKA23"
"""Plain ranks, weakest first: plain strength is the index plus one."""
SUITS = "cdhs"
MANILHA_SUITS = "chsd"
"""Manilha suits, strongest first: zap (c) 14, copas (h) 13, espadilha (s) 12, pica-fumo (d) 11."""
MINEIRO_MANILHAS = ("4c", "7h", "As", "7d")
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_CANONICAL = {code.lower(): code for code in DECK}


def parse_card(text: object) -> str | None:
    """The canonical code for `text` (its two characters in either case: `7C` is `7c`), or
    None when it is no card (a space around it too: a code is compared as sent)."""
    if not isinstance(text, str) or len(text) != 2:
        return None
    return _CANONICAL.get(text.lower())


@lru_cache(maxsize=64)
def manilhas(ruleset: str, vira: str | None) -> tuple[str, ...]:
    """The four manilhas, strongest first."""
    if ruleset == "mineiro":
        return MINEIRO_MANILHAS
    assert vira is not None
    rank = RANKS[(RANKS.index(vira[0]) + 1) % len(RANKS)]
    return tuple(rank + s for s in MANILHA_SUITS)


@lru_cache(maxsize=64)
def strengths(ruleset: str, vira: str | None) -> dict[str, int]:
    """Strength of every card for a hand: plain 1..10, manilhas 11..14."""
    table = {code: RANKS.index(code[0]) + 1 for code in DECK}
    for i, code in enumerate(manilhas(ruleset, vira)):
        table[code] = 14 - i
    return table
