"""The models inside the bots follow the rules and each other: the hard bot's playouts play
the easy level's rule, and the beliefs forbid only what the rules forbid."""
from __future__ import annotations

import random
from typing import Any

import engine
from engine import MatchState
from engine.bots import choose
from engine.bots.beliefs import UNLIKELY_PLAY, world_weight
from engine.bots.easy import choose_easy, easy_rule
from engine.bots.playout import policy, sight


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


def test_a_playout_seat_answers_the_mao_de_onze_as_the_easy_level_does() -> None:
    # team 0 on 11: seat 0 holds one good card (3h) and sees its partner's hand, which holds
    # none; the easy rule counts the team's cards, so one good card among six is a refusal
    state = dealt(4, [["3h", "Kc", "6c"], ["2c", "Kd", "6d"], ["Qd", "Js", "4s"],
                      ["Ah", "Jc", "7c"]], start_score=[11, 5])
    assert state.hand.special == "mao_de_onze" and 0 in state.to_act
    easy = choose("easy", engine.view(state, 0), random.Random(0))
    assert easy == {"type": "refuse"}
    assert policy(state, 0, random.Random(0)) == easy


def test_a_playout_seat_accepts_the_mao_de_onze_on_its_partners_cards_like_easy() -> None:
    state = dealt(4, [["4c", "Kc", "6c"], ["2c", "Kd", "6d"], ["3d", "2s", "4s"],
                      ["Ah", "Jc", "7c"]], start_score=[11, 5])
    easy = choose("easy", engine.view(state, 0), random.Random(0))
    assert easy == {"type": "accept"}
    assert policy(state, 0, random.Random(0)) == easy


def positions(players: int, ruleset: str, seed: int) -> list[MatchState]:
    """Every position of a match from `seed` played by random legal actions, often near 11
    (so mão de onze and mão de ferro hands come up) and with the options that change play."""
    rng = random.Random(seed)
    options = {"iron_hand_blind": rng.random() < 0.5, "face_down": True,
               "force_highest_after_first_tie": rng.random() < 0.5}
    state, _ = engine.new_match(players=players, ruleset=ruleset, seed=seed, options=options,
                                start_score=[rng.choice([0, 9, 11]), rng.choice([0, 10, 11])])
    out = []
    while state.status == "active" and len(out) < 80:
        out.append(state)
        seat = rng.choice(state.to_act)
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return out


def test_the_playouts_read_a_world_as_the_easy_level_reads_the_view() -> None:
    seen = set()
    for seed in range(24):
        for state in positions((2, 4, 6)[seed % 3], ("paulista", "mineiro")[seed % 2], seed):
            for seat in state.to_act:
                view = engine.view(state, seat)
                assert easy_rule(sight(state, seat), random.Random(seed)) == \
                    choose_easy(view, random.Random(seed))
                seen.add(state.hand.special or ("pending" if state.hand.pending else "play"))
    assert seen == {"mao_de_onze", "mao_de_ferro", "pending", "play"}


def test_the_beliefs_read_a_forced_highest_card_in_a_face_up_mao_de_ferro_as_no_choice() -> None:
    # trick 1 tied; in trick 2 seat 1 plays 2h under seat 0's 3d. Free to choose, the easy
    # model would dump its 4s, so the play makes the world less likely. With
    # force_highest_after_first_tie the rules leave seat 1 only its strongest card (a face-up
    # mão de ferro is played normally, RULES.md §8.2), so the play says nothing of its cards.
    weights = {}
    for force in (False, True):
        state = dealt(4, [["Kc", "3d", "6d"], ["Kh", "2h", "4s"], ["Qd", "7c", "6c"],
                          ["Jc", "Qc", "7h"]], start_score=[11, 11], iron_hand_blind=False,
                      force_highest_after_first_tie=force)
        state = played(state, (0, "Kc"), (1, "Kh"), (2, "Qd"), (3, "Jc"), (0, "3d"))
        assert state.hand.tricks[0].tie
        plays = {a["card"] for a in engine.legal_actions(state, 1) if a["type"] == "play"}
        assert plays == ({"2h"} if force else {"2h", "4s"})
        state = played(state, (1, "2h"))
        weights[force] = world_weight(state, 0)
    assert weights[True] == weights[False] / UNLIKELY_PLAY


# The 5s are manilhas (vira 4d); seat 0 leads, seats 0 and 2 are partners.
COVER_HANDS = [["7c", "2c", "6c"], ["4h", "Qd", "6d"], ["Ah", "3s", "4s"],
               ["3d", "Jc", "7d"]]


def test_a_playout_seat_covers_a_partners_weak_winning_card_before_an_opponent() -> None:
    # seat 0 leads 7c, seat 1 dumps 4h: seat 0 holds the trick with a 7 and seat 3 plays
    # after seat 2, so seat 2 covers with its cheapest card above (Ah), where the easy rule
    # dumps its lowest (4s)
    state = played(dealt(4, COVER_HANDS, [0, 0]), (0, "7c"), (1, "4h"))
    assert easy_rule(sight(state, 2), random.Random(0)) == {"type": "play", "card": "4s"}
    assert policy(state, 2, random.Random(0)) == {"type": "play", "card": "Ah"}


def test_a_playout_seat_dumps_under_a_partner_who_is_safe() -> None:
    # a 2 is strong enough: seat 2 dumps 4s under its partner's 2c, though it holds a 3
    state = played(dealt(4, COVER_HANDS, [0, 0]), (0, "2c"), (1, "4h"))
    assert policy(state, 2, random.Random(0)) == {"type": "play", "card": "4s"}
    # last to play (no opponent after it): seat 3 dumps 7d under its partner's Qd
    state = played(dealt(4, COVER_HANDS, [0, 0]), (0, "6c"), (1, "Qd"), (2, "4s"))
    assert policy(state, 3, random.Random(0)) == {"type": "play", "card": "7d"}


SIX_HANDS = [["7c", "2c", "6c"], ["4h", "Qd", "6d"], ["Ah", "3s", "4s"],
             ["3d", "Jc", "6s"], ["Qh", "3h", "6h"], ["Jd", "Ks", "Js"]]


def test_with_six_players_a_playout_seat_leaves_a_weak_partner_to_the_easy_rule() -> None:
    # seats 0, 2 and 4 are partners; seat 0 holds the trick with a 7 and seat 5 plays after
    # seat 4: at 4 players seat 4 would cover, at 6 it dumps its lowest as the easy rule does
    state = played(dealt(6, SIX_HANDS, [0, 0]), (0, "7c"), (1, "4h"), (2, "4s"), (3, "6s"))
    assert policy(state, 4, random.Random(0)) == {"type": "play", "card": "6h"}
    assert easy_rule(sight(state, 4), random.Random(0)) == {"type": "play", "card": "6h"}


def test_two_and_six_player_playouts_play_the_easy_rule_itself() -> None:
    # the cover needs a partner and is made only at 4: with 2 or 6 players the playout seats
    # are the easy rule
    covered = 0
    for seed in range(36):
        for state in positions((2, 4, 6)[seed % 3], ("paulista", "mineiro")[seed // 3 % 2],
                               seed):
            for seat in state.to_act:
                ours = policy(state, seat, random.Random(seed))
                easy = easy_rule(sight(state, seat), random.Random(seed))
                if state.players != 4:
                    assert ours == easy
                covered += ours != easy
    assert covered > 0  # and with 4 the cover does come up in random play
