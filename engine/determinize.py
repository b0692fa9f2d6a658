"""A full match state rebuilt from one seat's view plus sampled hidden cards (for search bots).

`seat_knowledge` reads off a view what the seat knows of the cards: the hands it sees, how many
cards every other hand holds, which face-down plays it cannot identify, and the pool of cards it
cannot place. `determinize` deals that pool at random over the unknown places and rebuilds
everything else from the view, so that `view(determinize(v, rng), seat) == v`: the state is one
world the seat cannot tell apart from the real one.

Two facts are reconstructed: the seats that refused a pending question (the answering team's
members not in `to_act`) and the team that made the last accepted call, read off `hand.calls`
(for a view without them: chosen so that the seat's legal actions come out as listed; when
both teams fit, the opponents are assumed to have called).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .cards import DECK
from .knowledge import partners_seen
from .legal import legal_actions
from .rules import RULESETS, Options
from .state import Hand, MatchState, Trick
from .tricks import resolve_trick


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    seat: int
    eleven_team: int | None
    """The team on 11 (10) in a mão de onze hand, else None."""
    known_hands: dict[int, list[str]]
    """Hands the seat sees: its own (unless blind) and partners' shown in a mão de onze."""
    unknown_counts: dict[int, int]
    """Every other seat: how many cards it holds that this seat cannot see."""
    hidden_plays: list[tuple[int, int]]
    """(trick index, play index) of the current hand's face-down cards this seat did not play."""
    unseen: list[str]
    """The cards this seat cannot place (in hands or face down), in deck order."""

    @property
    def hidden_count(self) -> int:
        return sum(self.unknown_counts.values()) + len(self.hidden_plays)


def eleven_team_of(view: dict[str, Any]) -> int | None:
    """The team on 11 (10) in a mão de onze hand: the only team at T or more at the deal."""
    h = view["hand"]
    if h["special"] != "mao_de_onze":
        return None
    if h["pending"] is not None and h["pending"]["kind"] == "mao_de_onze":
        return int(h["pending"]["team"])
    return 0 if view["score"][0] >= RULESETS[view["ruleset"]].special_at else 1


def seat_knowledge(view: dict[str, Any]) -> SeatKnowledge:
    """What the seat of `view` (a player's view, not a spectator's) knows of the cards."""
    if view["you"] is None:
        raise ValueError("a spectator's view has no seat")
    seat = int(view["you"]["seat"])
    h = view["hand"]
    eleven = eleven_team_of(view)
    known: dict[int, list[str]] = {}
    if h["cards"] and None not in h["cards"]:
        known[seat] = list(h["cards"])
    shown = h["partner_cards"] or {}
    for p in partners_seen(view["players"], eleven, seat):
        known[p] = list(shown[str(p)])
    counts = {s: n for s, n in enumerate(view["cards_in_hand"]) if s not in known and n}
    seen = {c for cards in known.values() for c in cards}
    if h["vira"] is not None:
        seen.add(h["vira"])
    hidden_plays = []
    for i, trick in enumerate(h["tricks"]):
        for j, play in enumerate(trick["plays"]):
            if play["card"] is None:
                hidden_plays.append((i, j))
            else:
                seen.add(play["card"])
    unseen = [c for c in DECK if c not in seen]
    return SeatKnowledge(seat, eleven, known, counts, hidden_plays, unseen)


def _refused(view: dict[str, Any]) -> list[int]:
    """Seats that refused the pending question: only remembered under any_accept_all_refuse."""
    h = view["hand"]
    pending = h["pending"]
    if pending is None or view["rules"]["response_mode"] != "any_accept_all_refuse":
        return []
    team = pending["team"] if pending["kind"] == "mao_de_onze" else 1 - pending["by_seat"] % 2
    return [s for s in range(team, view["players"], 2) if s not in h["to_act"]]


def _open_trick(state: MatchState, done: list[Trick]) -> Trick:
    """The empty trick after `done`: led by the mão, or as the last done trick decides."""
    if not done:
        return Trick((state.hand.dealer + 1) % state.players)
    last = done[-1]
    return Trick(resolve_trick(state, Trick(last.leader, list(last.plays))))


def _last_call_team(state: MatchState, view: dict[str, Any]) -> int | None:
    h = state.hand
    if h.pending is not None and h.pending["kind"] == "raise":
        return int(h.pending["by_seat"]) % 2
    if h.special is not None or h.stake == RULESETS[state.ruleset].base:
        return None
    raises = [c for c in h.calls if c["action"] == "raise"]
    if raises:  # the last call made: the calls say it
        return int(raises[-1]["seat"]) % 2
    seat = int(view["you"]["seat"])
    for team in (1 - seat % 2, seat % 2):
        h.last_call_team = team
        if legal_actions(state, seat) == view["legal_actions"]:
            return team
    return 1 - seat % 2


def determinize(view: dict[str, Any], rng: random.Random, seed: int = 0) -> MatchState:
    """An active match state whose view for the view's seat is `view`, the hidden cards drawn
    uniformly with `rng` from those the seat cannot place. Later hands are shuffled from `seed`."""
    if view["status"] != "active":
        raise ValueError("only an active match can be determinized")
    know = seat_knowledge(view)
    drawn = iter(rng.sample(know.unseen, know.hidden_count))
    n = view["players"]
    h = view["hand"]
    hands = [know.known_hands[s] if s in know.known_hands
             else [next(drawn) for _ in range(view["cards_in_hand"][s])] for s in range(n)]
    tricks = []
    for trick in h["tricks"]:
        plays = [(p["seat"], p["card"] if p["card"] is not None else next(drawn), p["face_down"])
                 for p in trick["plays"]]
        full = len(plays) == n
        tricks.append(Trick(plays[0][0], plays, trick["winner_team"] if full else None,
                            bool(trick["tie"]) if full else False, full))
    rules = view["rules"]
    options = Options.from_dict({k: v for k, v in rules.items() if k != "ruleset"})
    pending = dict(h["pending"]) if h["pending"] else None
    hand = Hand(h["number"], h["dealer"], h["vira"], hands, h["stake"], h["special"], pending,
                _refused(view), None, tricks, None, list(h["to_act"]), know.eleven_team,
                [dict(c) for c in h.get("calls", [])])
    state = MatchState(view["ruleset"], n, options, seed, [], list(view["score"]),
                       list(view["games"]), "active", None, hand, view["last_hand"])
    if not tricks or tricks[-1].done:
        tricks.append(_open_trick(state, tricks))
    current = tricks[-1]
    if pending is None:
        hand.turn = hand.to_act[0]
    elif pending["kind"] == "raise":
        hand.turn = (current.plays[-1][0] + 1) % n if current.plays else current.leader
    hand.last_call_team = _last_call_team(state, view)
    return state
