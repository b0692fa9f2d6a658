"""Resolving a trick (RULES.md §4.3-4.4) and deciding the hand from trick results (§5)."""
from __future__ import annotations

from .cards import strengths
from .state import MatchState, Trick

ALL_TIES = "all_ties"


def resolve_trick(state: MatchState, trick: Trick) -> int:
    """Mark a full trick won or tied; return the seat that leads next."""
    table = strengths(state.ruleset, state.hand.vira)
    values = [0 if fd else table[card] for _, card, fd in trick.plays]
    top = max(values)
    top_seats = [trick.plays[i][0] for i, v in enumerate(values) if v == top]
    teams = {s % 2 for s in top_seats}
    trick.done = True
    if len(teams) == 1:
        trick.winner_team = teams.pop()
        return top_seats[0]
    trick.tie = True
    rule = state.options.tie_leader
    if rule == "first_tied_card":
        return top_seats[0]
    if rule == "hand_mao":
        return (state.hand.dealer + 1) % state.players
    return trick.leader


def hand_outcome(tricks: list[Trick]) -> int | str | None:
    """The winning team, ALL_TIES for three ties, or None to play on (RULES.md §5)."""
    results = [t.winner_team for t in tricks if t.done]
    if len(results) == 2:
        first, second = results
        if first is not None and second in (first, None):
            return first
        if first is None and second is not None:
            return second
        return None
    if len(results) == 3:
        for team in (results[2], results[0]):
            if team is not None:
                return team
        return ALL_TIES
    return None
