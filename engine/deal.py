"""Dealing a hand: the cards (shuffled from the seed or fixed), the dealer and the hand's kind."""
from __future__ import annotations

import hashlib
from typing import Any

from .cards import DECK, manilhas
from .events import HandDealt
from .fairness import SCHEME, hand_entropy
from .rules import RULESETS
from .state import Hand, MatchState, Trick


def drawn_cards(entropy: int, players: int) -> tuple[list[list[str]], str]:
    """Hands and vira drawn by `entropy`: a partial Fisher-Yates draw from DECK (for
    left = 40, 39, ...: `entropy, i = divmod(entropy, left)`, draw deck[i], move the last
    card into its place); seat s holds draws 3s..3s+2, the vira is draw 3P."""
    deck = list(DECK)
    drawn = []
    for left in range(len(deck), len(deck) - 3 * players - 1, -1):
        entropy, index = divmod(entropy, left)
        drawn.append(deck[index])
        deck[index] = deck[left - 1]
    return [drawn[3 * s:3 * s + 3] for s in range(players)], drawn[3 * players]


def shuffled_cards(seed: int, number: int, players: int) -> tuple[list[list[str]], str]:
    """Hands and vira for hand `number`, reproducible from the match seed alone (the scheme
    of matches with a seed: a 256-bit BLAKE2b digest of (seed, number) drives the draw; a
    deal of 6 players uses under 94 bits, so it is uniform up to a bias below 2^-160)."""
    digest = hashlib.blake2b(f"truco:{seed}:{number}".encode(), digest_size=32).digest()
    return drawn_cards(int.from_bytes(digest, "big"), players)


def cards_of_hand(state: MatchState, number: int) -> tuple[list[list[str]], str]:
    """Hands and vira of shuffled hand `number`, by the match's deal scheme."""
    if state.deal_scheme == SCHEME:
        return drawn_cards(hand_entropy(bytes.fromhex(state.deal_key), number), state.players)
    return shuffled_cards(state.seed, number, state.players)


def deciders(state: MatchState, team: int, mao: int, refused: list[int]) -> list[int]:
    """Seats that answer the mão de onze question for `team` (RULES.md §7.3)."""
    n = state.players
    mode = state.options.response_mode
    if mode == "designated":
        return [next((mao + i) % n for i in range(n) if (mao + i) % n % 2 == team)]
    members = range(team, n, 2)
    if mode == "first_response":
        return list(members)
    return [s for s in members if s not in refused]


def deal(state: MatchState, number: int, dealer: int) -> HandDealt:
    """Replace `state.hand` with hand `number` dealt by `dealer`; return its hand_dealt event."""
    rules = RULESETS[state.ruleset]
    n = state.players
    if number <= len(state.deals):
        fixed = state.deals[number - 1]
        hands = [list(h) for h in fixed["hands"]]
        vira = fixed.get("vira")
    else:
        hands, vira = cards_of_hand(state, number)
    if state.ruleset == "mineiro":
        vira = None
    mao = (dealer + 1) % n
    at = [state.score[t] >= rules.special_at for t in (0, 1)]
    special: str | None = None
    eleven_team: int | None = None
    pending: dict[str, Any] | None = None
    stake = rules.base
    turn: int | None = mao
    to_act = [mao]
    if at[0] and at[1]:
        special = "mao_de_ferro"
        stake = state.options.iron_hand_value
    elif at[0] or at[1]:
        special = "mao_de_onze"
        eleven_team = 0 if at[0] else 1
        pending = {"kind": "mao_de_onze", "team": eleven_team}
        turn = None
        to_act = deciders(state, eleven_team, mao, [])
    state.hand = Hand(number, dealer, vira, hands, stake, special, pending, [], None,
                      [Trick(mao)], turn, to_act, eleven_team)
    return {"type": "hand_dealt", "hand": number, "dealer": dealer, "vira": vira,
            "manilhas": list(manilhas(state.ruleset, vira)), "special": special,
            "stake": stake, "pending": pending, "eleven_team": eleven_team,
            "blind": special == "mao_de_ferro" and state.options.iron_hand_blind,
            "hands": [list(h) for h in hands]}
