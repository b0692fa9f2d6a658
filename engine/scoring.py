"""Ending a hand: points, games, the match's end and the next deal (RULES.md §10)."""
from __future__ import annotations

from .deal import deal
from .events import Event, HandEndReason, MatchEndReason
from .rules import TARGET_SCORE
from .state import MatchState


def finish_match(state: MatchState, team: int, reason: MatchEndReason) -> None:
    """`team` wins the match; `reason` says how it ended (API.md `end_reason`)."""
    h = state.hand
    state.status = "finished"
    state.winner_team = team
    state.end_reason = reason
    h.pending = None
    h.refused = []
    h.turn = None
    h.to_act = []


def end_hand(state: MatchState, team: int | None, points: int,
             reason: HandEndReason) -> list[Event]:
    """Score the hand, then deal the next one unless the match is over."""
    h = state.hand
    if team is not None:
        state.score[team] += points
    state.last_hand = {"number": h.number, "winner_team": team, "points": points,
                       "reason": reason,
                       "tricks": [t.as_table() for t in h.tricks if t.plays],
                       "calls": list(h.calls)}
    events: list[Event] = [{"type": "hand_won", "hand": h.number, "winner_team": team,
                            "points": points, "reason": reason, "score": list(state.score)}]
    if team is not None and state.score[team] >= TARGET_SCORE:
        state.games[team] += 1
        if state.games[team] >= state.options.games_to_win:
            finish_match(state, team, "score")
            events.append({"type": "match_won", "winner_team": team,
                           "score": list(state.score), "games": list(state.games),
                           "end_reason": "score"})
            return events
        events.append({"type": "game_won", "winner_team": team, "games": list(state.games),
                       "score": list(state.score)})
        state.score = [0, 0]
    events.append(deal(state, h.number + 1, (h.dealer + 1) % state.players))
    return events
