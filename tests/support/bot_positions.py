"""Bot test positions: fixed deals played card by card, random positions reached by legal
play, and the same position with the cards a seat cannot see dealt differently (the
no-cheating check)."""
from __future__ import annotations

import random
from typing import Any

import engine
from engine import DECK, MatchState
from engine.knowledge import partners_seen


def fixed(players: int, hands: list[list[str]], vira: str = "4d",
          **kw: Any) -> MatchState:
    """Paulista with vira 4d (the 5s are manilhas), seat 0 the mão."""
    state, _ = engine.new_match(players=players, seed=1, deals=[{"vira": vira, "hands": hands}],
                                options={"first_dealer": players - 1, **kw.pop("options", {})},
                                **kw)
    return state


def play(state: MatchState, *moves: tuple[int, str]) -> MatchState:
    """`state` after each (seat, card) of `moves` is played face up."""
    for seat, card in moves:
        state, _ = engine.apply(state, seat, {"type": "play", "card": card})
    return state


def position(config: dict[str, Any], seed: int) -> MatchState:
    """A random active position reached by random legal play from `config`."""
    rng = random.Random(seed)
    state, _ = engine.new_match(**config)
    for _ in range(rng.randrange(0, 60)):
        seat = rng.choice(state.to_act)
        after, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        if after.status != "active":
            break
        state = after
    return state


def hide_differently(state: MatchState, seat: int, rng: random.Random) -> MatchState:
    """`state` with every card `seat` cannot see replaced by other unseen cards: the other
    hands (bar partners shown in a mão de onze) and the face-down cards others played."""
    other = state.copy()
    h = other.hand
    visible = set(partners_seen(other.players, h.eleven_team, seat))
    blind = h.special == "mao_de_ferro" and other.options.iron_hand_blind
    if not blind:
        visible.add(seat)
    hidden_hands = [s for s in range(other.players) if s not in visible]
    hidden_plays = [(i, j) for i, t in enumerate(h.tricks) for j, (s, _, fd) in
                    enumerate(t.plays) if fd and s != seat]
    used = {c for s in visible for c in h.hands[s]} | {h.vira}
    used |= {c for t in h.tricks for s, c, fd in t.plays if not fd or s == seat}
    pool = [c for c in DECK if c not in used]
    rng.shuffle(pool)
    for s in hidden_hands:
        h.hands[s] = [pool.pop() for _ in h.hands[s]]
    for i, j in hidden_plays:
        t = h.tricks[i] = engine.Trick(h.tricks[i].leader, list(h.tricks[i].plays),
                                       h.tricks[i].winner_team, h.tricks[i].tie,
                                       h.tricks[i].done)
        s, _, fd = t.plays[j]
        t.plays[j] = (s, pool.pop(), fd)
    return other
