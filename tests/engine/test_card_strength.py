"""Engine-only: the "strength order" lines of RULES.md §14 (R-01 .. R-04) through engine.cards.

The scenario data (tests/support/scenarios.py) checks these through hand.manilhas and trick
outcomes, which is all the view shows; here the full orders are pinned on the engine's strength
table.
"""
from __future__ import annotations

import pytest

from engine.cards import manilhas, strengths


def _chain(text: str) -> list[list[str]]:
    """"Ac > Ah = As > 4c" -> [["Ac"], ["Ah", "As"], ["4c"]] (groups of equal cards, strongest
    first)."""
    return [[c.strip() for c in grp.split("=")] for grp in text.split(">")]


def _assert_chain(table: dict, text: str) -> None:
    groups = _chain(text)
    for grp in groups:
        vals = {c: table[c] for c in grp}
        assert len(set(vals.values())) == 1, f"{grp} should be equal: {vals}"
    for hi, lo in zip(groups, groups[1:]):
        assert table[hi[0]] > table[lo[0]], (
            f"{hi[0]} ({table[hi[0]]}) should beat {lo[0]} ({table[lo[0]]})")


CASES = [
    # R-01 line 1 (vira K)
    ("R-01", "paulista", "Kd", ["Ac", "Ah", "As", "Ad"],
     "Ac > Ah > As > Ad > 3c > 2c > Kc > Jc > Qc > 7c > 6c > 5c > 4c"),
    # R-02 line 1 (vira 3): 4d beats 3c; 6d beats 5c
    ("R-02", "paulista", "3h", ["4c", "4h", "4s", "4d"], "4d > 3c"),
    ("R-02", "paulista", "3h", ["4c", "4h", "4s", "4d"], "6d > 5c"),
    # R-03 line 1 (vira 2), as an order; the exact values are checked below
    ("R-03", "paulista", "2c", ["3c", "3h", "3s", "3d"], "3c > 3h > 3s > 3d > 2h"),
    # R-04 line 1 (Mineiro, fixed manilhas)
    ("R-04", "mineiro", None, ["4c", "7h", "As", "7d"],
     "4c > 7h > As > 7d > 3d > 2s > Ah = Ac = Ad > Kc > Jc > Qc > 7c = 7s > 6c > 5c"
     " > 4h = 4s = 4d"),
]


@pytest.mark.parametrize("sid,ruleset,vira,mans,order", CASES,
                         ids=[f"{c[0]}:{c[4][:20]}" for c in CASES])
def test_strength_order(sid, ruleset, vira, mans, order):
    assert list(manilhas(ruleset, vira)) == mans
    _assert_chain(strengths(ruleset, vira), order)


def test_r02_five_is_the_lowest_plain_rank():
    table = strengths("paulista", "3h")
    plain = {c: v for c, v in table.items() if c[0] != "4"}
    fives = {c: v for c, v in plain.items() if c[0] == "5"}
    others = {c: v for c, v in plain.items() if c[0] != "5"}
    assert len(set(fives.values())) == 1
    assert max(fives.values()) < min(others.values())


def test_r03_exact_strengths():
    table = strengths("paulista", "2c")
    assert {c: table[c] for c in ("3c", "3h", "3s", "3d", "2h")} == {
        "3c": 14, "3h": 13, "3s": 12, "3d": 11, "2h": 9}


def test_plain_strengths_and_suit_blindness():
    # §1.2: plain 4 5 6 7 Q J K A 2 3 are 1..10; plain cards of one rank are equal.
    table = strengths("paulista", "Kd")  # manilhas: aces
    for rank, value in zip("4567QJK23", [1, 2, 3, 4, 5, 6, 7, 9, 10]):
        assert {table[rank + s] for s in "cdhs"} == {value}, rank
