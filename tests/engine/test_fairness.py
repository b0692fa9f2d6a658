"""Deal schemes: truco-commit-v1 draws every hand and the first dealer from the match key by
the published steps (API.md, "Auditable deals"); a state stored before schemes were recorded
keeps dealing from its seed exactly as it did."""
from __future__ import annotations

import hashlib
import hmac
import sys
from pathlib import Path

import pytest

import engine
from engine.deal import cards_of_hand, drawn_cards
from engine.fairness import first_dealer, hand_entropy, match_key

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import verify_deals  # noqa: E402  (the standalone verifier: written from API.md alone)

SECRET = bytes(range(32))


def test_the_key_is_the_hmac_of_the_id_and_the_seeds_under_the_secret() -> None:
    key = match_key(SECRET, "m_1", ["ana-77", "", "b0b.1", ""])
    message = b"truco-commit-v1|m_1|ana-77||b0b.1|"
    assert key == hmac.new(SECRET, message, hashlib.sha256).digest()
    assert engine.deal_commitment(SECRET) == hashlib.sha256(SECRET).hexdigest()
    assert key != match_key(SECRET, "m_1", ["ana-77", "", "b0b.2", ""])


def test_the_deck_is_drawn_in_the_published_order() -> None:
    """With entropy 0 every draw takes position 0, which then holds the last card left:
    4c first, then 3s, 2s, As, ... (suits c d h s, ranks 4 5 6 7 Q J K A 2 3)."""
    hands, vira = drawn_cards(0, 2)
    assert hands == [["4c", "3s", "2s"], ["As", "Ks", "Js"]] and vira == "Qs"
    hands, vira = drawn_cards(1, 2)  # 1 = index 1 at the first draw, 0 after
    assert hands[0][:2] == ["5c", "4c"]


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("ruleset", ["paulista", "mineiro"])
def test_keyed_deals_follow_the_published_steps(players: int, ruleset: str) -> None:
    key = match_key(SECRET, f"m_{players}", [f"s{i}" for i in range(players)])
    state, events = engine.new_match(players=players, ruleset=ruleset, seed=1, deal_key=key)
    assert state.deal_scheme == "truco-commit-v1"
    assert events[0]["dealer"] == verify_deals.expected_first_dealer(key, players)
    assert events[0]["dealer"] == first_dealer(key, players)
    for number in (1, 2, 7, 40):
        hands, vira = verify_deals.expected_deal(key, number, players)
        assert cards_of_hand(state, number) == (hands, vira)
    hands, vira = verify_deals.expected_deal(key, 1, players)
    assert events[0]["hands"] == hands
    assert events[0]["vira"] == (None if ruleset == "mineiro" else vira)
    assert hand_entropy(key, 1) != hand_entropy(key, 2)


def test_the_seed_does_not_change_keyed_deals_and_the_key_does() -> None:
    key = match_key(SECRET, "m_1", ["", ""])
    one, _ = engine.new_match(players=2, seed=1, deal_key=key)
    two, _ = engine.new_match(players=2, seed=2, deal_key=key)
    other, _ = engine.new_match(players=2, seed=1, deal_key=match_key(SECRET, "m_2", ["", ""]))
    assert one.hand.hands == two.hand.hands
    assert [cards_of_hand(one, n) for n in range(1, 6)] != \
        [cards_of_hand(other, n) for n in range(1, 6)]


def test_a_keyed_state_round_trips_with_its_scheme_and_key() -> None:
    key = match_key(SECRET, "m_1", ["a", "b"])
    state, _ = engine.new_match(players=2, seed=5, deal_key=key)
    data = state.to_json()
    assert data["deal_scheme"] == "truco-commit-v1" and data["deal_key"] == key.hex()
    assert engine.MatchState.from_json(data) == state


OLD_HANDS = {  # new_match(players=4, seed=12345) as dealt before schemes were recorded
    1: ([["2s", "7d", "Js"], ["7s", "Ac", "5c"], ["4h", "Jc", "6d"], ["Qs", "Kc", "5s"]], "Jd"),
    2: ([["5s", "Ks", "7h"], ["Qs", "Kc", "5c"], ["Ac", "7c", "4c"], ["5h", "Ad", "Qc"]], "3s"),
    3: ([["5h", "2c", "4c"], ["3s", "Kh", "Jc"], ["Ah", "Jh", "2s"], ["4d", "6h", "Kc"]], "6s"),
}


def test_a_state_stored_without_a_scheme_deals_from_its_seed_as_before() -> None:
    state, events = engine.new_match(players=4, seed=12345)
    assert events[0]["dealer"] == 2 and (events[0]["hands"], events[0]["vira"]) == OLD_HANDS[1]
    stored = state.to_json()
    del stored["deal_scheme"], stored["deal_key"]  # the format stored before
    old = engine.MatchState.from_json(stored)
    assert old.deal_scheme == "seed-blake2b" and old == state
    for number, dealt in OLD_HANDS.items():
        assert cards_of_hand(old, number) == dealt
    while old.hand.number == 1:  # play on: hand 2 is dealt from the seed
        seat = old.to_act[0]
        old, _ = engine.apply(old, seat, engine.legal_actions(old, seat)[0])
    assert old.hand.number == 2
    assert [len(h) for h in old.hand.hands] == [3, 3, 3, 3]
    assert (old.hand.hands, old.hand.vira) == OLD_HANDS[2]
