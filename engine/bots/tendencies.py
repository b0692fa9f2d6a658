"""What the match so far says about the opponents: how often they fold to this team's late raises.

A late raise is one made after its hand's first trick. Who answers it, and how, is public (the
match's event log: raises, their answers, the trick boundaries), so the count reads no card.
`hard` bluffs late only against opponents who fold to such raises more often than a bluffed
truco needs (bluffs.late_bluff): against a caller a bluff only loses, and against a folder
the bluffs are the answer to folding every middling hand (decision 0035). Against callers it
also drops its search's own marginal raises on weak cards (bluffs.drop_called_bluff, 0036).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

COUNTED_EVENTS = ("hand_dealt", "trick_won", "trick_tied", "raised", "raise_accepted",
                  "raise_refused")
"""The only event types late_answers reads (a store may select just these)."""

PRIOR_REFUSED = 1.0
PRIOR_ANSWERS = 3.0
"""The belief before any answer is seen: one refusal in three answers (a fold rate of 1/3)."""


@dataclass(frozen=True, slots=True)
class LateAnswers:
    """The opponents' answers to one team's late raises over a match."""

    refused: int = 0
    answered: int = 0
    """Every answer: refusals, acceptances and raises over."""

    @property
    def fold_rate(self) -> float:
        """The share of late raises the opponents fold to, the prior's weight included."""
        return (PRIOR_REFUSED + self.refused) / (PRIOR_ANSWERS + self.answered)


def late_answers(events: Iterable[Mapping[str, Any]], team: int) -> LateAnswers:
    """How `team`'s opponents answered its late raises in `events` (the match's engine events,
    oldest first; only types, seats and `team_refused` are read). A raise over is an answer
    that is not a refusal (the engine emits it as an acceptance and a raise); with partners a
    refusal counts once the team's refusal ends the hand."""
    refused = answered = tricks = 0
    open_late = False  # a raise of `team` made after the first trick awaits its answer
    for event in events:
        kind = event.get("type")
        if kind == "hand_dealt":
            tricks, open_late = 0, False
        elif kind in ("trick_won", "trick_tied"):
            tricks += 1
        elif kind == "raised":  # (a raise over comes after its raise_accepted)
            open_late = int(event["seat"]) % 2 == team and tricks >= 1
        elif kind == "raise_accepted":
            if open_late:
                answered += 1
            open_late = False
        elif kind == "raise_refused" and event.get("team_refused", True):
            if open_late:
                refused += 1
                answered += 1
            open_late = False
    return LateAnswers(refused, answered)
