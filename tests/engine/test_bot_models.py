"""The models inside the bots follow the rules and each other: the hard bot's playouts play
the easy level's rule, and the beliefs forbid only what the rules forbid."""
from __future__ import annotations

import random
from typing import Any

import engine
from engine import MatchState
from engine.bots.beliefs import world_weight


def dealt(players: int, hands: list[list[str]], start_score: list[int],
          **options: Any) -> MatchState:
    """Paulista with vira 4d (the 5s are manilhas), seat 0 the mão."""
    state, _ = engine.new_match(players=players, seed=1, start_score=start_score,
                                deals=[{"vira": "4d", "hands": hands}],
                                options={"first_dealer": players - 1, **options})
    return state


def played(state: MatchState, *cards: tuple[int, str]) -> MatchState:
    for seat, card in cards:
        state, _ = engine.apply(state, seat, {"type": "play", "card": card})
    return state


def test_the_beliefs_do_not_force_the_highest_card_in_a_face_up_mao_de_ferro() -> None:
    # trick 1 tied; in trick 2 seat 1 dumps 4s under seat 0's 3d, which the easy model does
    # too. The rules do not force the highest card in a mão de ferro, so neither may the
    # beliefs: the option must not change how likely this world is.
    weights = []
    for force in (False, True):
        state = dealt(4, [["Kc", "3d", "6d"], ["Kh", "2h", "4s"], ["Qd", "7c", "6c"],
                          ["Jc", "Qc", "7h"]], start_score=[11, 11], iron_hand_blind=False,
                      force_highest_after_first_tie=force)
        state = played(state, (0, "Kc"), (1, "Kh"), (2, "Qd"), (3, "Jc"), (0, "3d"))
        assert state.hand.tricks[0].tie
        assert {"type": "play", "card": "4s"} in engine.legal_actions(state, 1)
        state = played(state, (1, "4s"))
        weights.append(world_weight(state, 0))
    assert weights[0] == weights[1]
