"""The expert level's abstract game: the betting of one 2-player hand, for engine.bots.cfr.

Player 0 is the mão (it leads trick 1), player 1 the pé. Cards are dealt with the engine's
strengths for the ruleset (`engine.cards.strengths`) and played by a fixed rule, so the tricks
of a deal are known up front; the players choose only the betting. The rule (CARD_PLAYS) is by
default `perfect_play`, each player playing as if it saw the other's cards, a stand-in for the
search that `hard` plays with; "easy" is the easy rule's card play (`cardplay.choose_card`),
the earlier table's. The card play decides the showdowns the betting is trained for: against
`hard` the expert won 45.7% of 1,280 two-player matches with the first, 39.6% with the second;
against `medium` 56.6% and 60.8% (docs/decisions/0029).

Each trick has two betting points: the leader's before it leads, the follower's after it sees
the lead. There a player may play on or raise; a raise is answered with accept,
refuse or a counter-raise, along the ruleset's ladder (`engine.rules.RULESETS`), and the team
that made the last call cannot call again. The payoff is the change of the mão's chance to win
the game from the score (`value.game_chance`), so a point counts as much as it matters.

A player knows (`infoset_key`): the ruleset; each side's score band; the trick number and the
results so far; whether it leads or follows; the class of the lead card on the table; the
stake, who made the last call and the pending call; its bucket: the classes of the cards it
held at the trick's start, and when following a lead whether its best card beats, ties or
loses to it. Covered: default options for `raise_cap` (ladder), `all_ties` (void) and
`force_highest_after_first_tie` (false); normal hands only (no mão de onze or de ferro).
Anything else is decided by the hard level's search (expert.covers).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import DECK, strengths
from ..rules import RULESETS, TARGET_SCORE
from ..state import Trick
from ..tricks import ALL_TIES, hand_outcome
from .cardplay import choose_card
from .cfr import TERMINAL
from .value import game_chance

CODES = {"paulista": "p", "mineiro": "m"}
"""Each ruleset's letter in the keys."""
CLASS_FLOORS = (5, 9, 11, 13)
"""A card's class: how many of these strengths it reaches (4-7, Q-A, 2-3, low manilhas, top
manilhas: 0 to 4)."""
BAND_FLOORS = (4, 8)
"""A score's band: how many of these it reaches (0-3, 4-7, 8 and up: 0 to 2)."""
BET = ("play", "raise")
"""The actions of a player to play that may raise."""
ANSWER = ("accept", "refuse", "raise")
"""The actions of a player answering a call (the last only when the ladder goes on)."""
CARD_PLAYS = ("perfect", "easy")
"""How the abstract game plays the cards (the first is the default, the shipped table's)."""


def card_class(strength: int) -> int:
    """The class of a card of `strength` (0 to 4)."""
    return sum(1 for floor in CLASS_FLOORS if strength >= floor)


def score_band(score: int) -> int:
    """The band of a score (0 to 2)."""
    return sum(1 for floor in BAND_FLOORS if score >= floor)


def bucket(strength_values: Sequence[int]) -> str:
    """The classes of a set of cards, strongest first, as digits."""
    return "".join(str(c) for c in sorted((card_class(v) for v in strength_values),
                                          reverse=True))


def beat(best: int, lead: int) -> int:
    """2 when the strength `best` beats `lead`, 1 when it ties, 0 when it loses."""
    return 2 if best > lead else 1 if best == lead else 0


def key_prefix(ruleset: str, bands: tuple[int, int], trick: int, results: str,
               leads: bool) -> str:
    """The part of an information-set key fixed for a player through a trick: the ruleset,
    `bands` (its score band, then the opponents'), `trick` (1 to 3), `results` ("w", "l" or
    "t" per done trick, from its side) and whether it `leads` the trick."""
    return f"{CODES[ruleset]}{bands[0]}{bands[1]}{trick}{results}{'L' if leads else 'F'}"


def infoset_key(prefix: str, ladder: tuple[int, ...], lead_class: int | None, stake: int,
                last: str, pending: int | None, held: str, beats: int | None) -> str:
    """The key of what the player to act knows, every field seen from its side.

    `prefix`: `key_prefix`; `lead_class`: the lead card's class once it is on the table;
    `stake`: the hand's value on the ruleset's `ladder`; `last`: "n" no call yet, "m" its own
    side's, "o" the opponents'; `pending`: the value of the call it answers; `held`: its
    bucket; `beats`: `beat` of its best card against the lead, when it follows a lead.
    """
    return (f"{prefix}{'-' if lead_class is None else lead_class}{ladder.index(stake)}{last}"
            f"{'-' if pending is None else ladder.index(pending)}{held}"
            f"{'' if beats is None else beats}")


@dataclass(frozen=True, slots=True)
class TrickCourse:
    """One trick of a deal as the fixed card play makes it."""

    leader: int
    held: tuple[str, str]
    """Each player's bucket at the trick's start."""
    cards: tuple[str, str]
    """The card led and the card played to it."""
    lead_class: int
    beats: int
    """`beat` of the follower's best card against the lead."""
    prefix: tuple[str, str]
    """Each player's `key_prefix` in this trick."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance moves of one hand: the ruleset, the score and the cards' course."""

    ruleset: str
    score: tuple[int, int]
    ladder: tuple[int, ...]
    tricks: tuple[TrickCourse, ...]
    """The tricks played until the hand is decided."""
    winner: int | None
    """The player who wins the hand by tricks, None when void."""
    before: float
    """The mão's chance to win the game before the hand."""


State = tuple[Deal, int, int, int, int, int, int]
"""(deal, trick index or TERMINAL, phase 0 before the lead / 1 after, stake, last caller
(-1: none), pending call's value (0: none), caller; at the end (deal, TERMINAL, winner or -1,
points, ...))."""


def deal_course(ruleset: str, hands: tuple[list[str], list[str]], vira: str | None,
                score: tuple[int, int], card_play: str = CARD_PLAYS[0]) -> Deal:
    """The deal of `hands` (the mão's first) with the fixed `card_play` (CARD_PLAYS)."""
    table = strengths(ruleset, vira)
    held = [list(hands[0]), list(hands[1])]
    bands = ((score_band(score[0]), score_band(score[1])),
             (score_band(score[1]), score_band(score[0])))
    line = perfect_play(held, table, [], 0)[1] if card_play == "perfect" else ()
    tricks: list[Trick] = []
    course: list[TrickCourse] = []
    leader = 0
    outcome: int | str | None = None
    while outcome is None:
        follower = 1 - leader
        done = [t.winner_team for t in tricks]
        results = tuple("".join("t" if r is None else "w" if r == p else "l" for r in done)
                        for p in (0, 1))
        if line:
            lead, reply = line[len(tricks)]
        else:
            lead = choose_card(held[leader], table, [], leader, done).card
            reply = choose_card(held[follower], table, [(leader, lead, False)], follower,
                                done).card
        best = max(table[c] for c in held[follower])
        prefix = tuple(key_prefix(ruleset, bands[p], len(tricks) + 1, results[p], p == leader)
                       for p in (0, 1))
        course.append(TrickCourse(leader, (bucket([table[c] for c in held[0]]),
                                           bucket([table[c] for c in held[1]])),
                                  (lead, reply), card_class(table[lead]), beat(best, table[lead]),
                                  (prefix[0], prefix[1])))
        held[leader].remove(lead)
        held[follower].remove(reply)
        tricks.append(_trick(leader, table[lead], table[reply]))
        leader = _next_leader(tricks[-1])
        outcome = hand_outcome(tricks)
    won = None if outcome == ALL_TIES else int(outcome)
    return Deal(ruleset, score, RULESETS[ruleset].ladder, tuple(course), won,
                game_chance(ruleset, *score))


def _trick(leader: int, lead: int, reply: int) -> Trick:
    """The done trick in which `leader` led a card of strength `lead` and the other player
    answered with one of strength `reply`."""
    winner = leader if lead > reply else 1 - leader if reply > lead else None
    return Trick(leader, [], winner, winner is None, True)


def _next_leader(trick: Trick) -> int:
    """Who leads after `trick`: its winner, or its leader again after a tie."""
    return trick.leader if trick.winner_team is None else trick.winner_team


Line = tuple[tuple[str, str], ...]
"""The (lead, reply) cards of each trick from now to the end of the hand."""


def perfect_play(held: Sequence[Sequence[str]], table: dict[str, int], tricks: list[Trick],
                 leader: int) -> tuple[int, Line]:
    """The rest of a 2-player hand played as if each player saw the other's cards: the result
    for player 0 (1 won, 0 void, -1 lost) and the cards played to reach it, `leader` leading
    now. `held` holds each player's cards, `tricks` the done tricks; on equal results the
    cheaper card is played."""
    follower = 1 - leader
    sign = 1 if leader == 0 else -1  # the leader maximises sign * result, the follower not
    best: tuple[int, Line] | None = None
    for lead in sorted(held[leader], key=table.__getitem__):
        answer: tuple[int, Line] | None = None
        for reply in sorted(held[follower], key=table.__getitem__):
            after = [*tricks, _trick(leader, table[lead], table[reply])]
            outcome = hand_outcome(after)
            rest: Line = ()
            if outcome is None:
                left = [list(held[0]), list(held[1])]
                left[leader].remove(lead)
                left[follower].remove(reply)
                result, rest = perfect_play(left, table, after, _next_leader(after[-1]))
            else:
                result = 0 if outcome == ALL_TIES else 1 if outcome == 0 else -1
            if answer is None or sign * result < sign * answer[0]:
                answer = (result, ((lead, reply), *rest))
        assert answer is not None
        if best is None or sign * answer[0] > sign * best[0]:
            best = answer
    assert best is not None
    return best


def score_in_band(band: int, ruleset: str, rng: random.Random) -> int:
    """A score of a normal hand in `band`, drawn with `rng`."""
    top = RULESETS[ruleset].special_at - 1
    floors = (0, *BAND_FLOORS, top + 1)
    return rng.randint(floors[band], min(floors[band + 1] - 1, top))


class TrucoBetting:
    """The abstract game (engine.bots.cfr.Game) over both rulesets, its cards played by
    `card_play` (CARD_PLAYS)."""

    def __init__(self, card_play: str = CARD_PLAYS[0]) -> None:
        if card_play not in CARD_PLAYS:
            raise ValueError(f"card_play must be one of {CARD_PLAYS}, not {card_play!r}")
        self.card_play = card_play

    def sample_root(self, rng: random.Random) -> State:
        ruleset = rng.choice(("paulista", "mineiro"))
        cards = rng.sample(DECK, 7)
        vira = cards[6] if ruleset == "paulista" else None
        score = (score_in_band(rng.randrange(3), ruleset, rng),
                 score_in_band(rng.randrange(3), ruleset, rng))
        deal = deal_course(ruleset, (cards[0:3], cards[3:6]), vira, score, self.card_play)
        return settle(deal, 0, 0, RULESETS[ruleset].base, -1)

    def player(self, state: State) -> int:
        deal, t, phase, _, _, pending, caller = state
        if t == TERMINAL:
            return TERMINAL
        if pending:
            return 1 - caller
        leader = deal.tricks[t].leader
        return leader if phase == 0 else 1 - leader

    def utility(self, state: State) -> float:
        deal, _, winner, points = state[0], state[1], state[2], state[3]
        if winner < 0:
            return 0.0
        score = list(deal.score)
        score[winner] += points
        return game_chance(deal.ruleset, score[0], score[1]) - deal.before

    def infoset(self, state: State) -> str:
        deal, t, phase, stake, last, pending, caller = state
        trick = deal.tricks[t]
        me = 1 - caller if pending else trick.leader if phase == 0 else 1 - trick.leader
        follows = phase and trick.leader != me
        return infoset_key(trick.prefix[me], deal.ladder, trick.lead_class if phase else None,
                           stake, "n" if last < 0 else "m" if last == me else "o",
                           pending or None, trick.held[me], trick.beats if follows else None)

    def actions(self, state: State) -> Sequence[str]:
        deal, _, _, _, _, pending, _ = state
        if not pending:
            return BET
        return ANSWER if RULESETS[deal.ruleset].next_value(pending) else ANSWER[:2]

    def child(self, state: State, action: int) -> State:
        deal, t, phase, stake, last, pending, caller = state
        ladder = RULESETS[deal.ruleset]
        if not pending:
            me = self.player(state)
            if action == 0:
                return advance(deal, t, phase, stake, last)
            nxt = ladder.next_value(stake)
            assert nxt is not None
            return (deal, t, phase, stake, last, nxt, me)
        answerer = 1 - caller
        if action == 0:
            return settle(deal, t, phase, pending, caller)
        if action == 1:
            return (deal, TERMINAL, caller, stake, 0, 0, 0)
        nxt = ladder.next_value(pending)
        assert nxt is not None
        return (deal, t, phase, pending, answerer, nxt, answerer)


def settle(deal: Deal, t: int, phase: int, stake: int, last: int) -> State:
    """The next state where somebody decides, from the player to play at (`t`, `phase`):
    that player's betting point if it may raise, else its card is played."""
    while True:
        leader = deal.tricks[t].leader
        turn = leader if phase == 0 else 1 - leader
        if last != turn and stake < TARGET_SCORE:
            return (deal, t, phase, stake, last, 0, -1)
        nxt = _after_play(deal, t, phase)
        if nxt is None:
            return _end(deal, stake)
        t, phase = nxt


def advance(deal: Deal, t: int, phase: int, stake: int, last: int) -> State:
    """The state after the player to play at (`t`, `phase`) plays its card."""
    nxt = _after_play(deal, t, phase)
    return _end(deal, stake) if nxt is None else settle(deal, nxt[0], nxt[1], stake, last)


def _after_play(deal: Deal, t: int, phase: int) -> tuple[int, int] | None:
    """Where play goes on after the card at (`t`, `phase`), None when the hand is over."""
    if phase == 0:
        return t, 1
    return None if t + 1 == len(deal.tricks) else (t + 1, 0)


def _end(deal: Deal, stake: int) -> State:
    """The end of the hand played out at `stake`."""
    return (deal, TERMINAL, -1 if deal.winner is None else deal.winner, stake, 0, 0, 0)
