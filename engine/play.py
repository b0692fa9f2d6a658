"""`apply`: check an action against the rules, then play it (RULES.md §3-§11)."""
from __future__ import annotations

from typing import Any

from .actions import ParsedAction, parse_action
from .deal import deciders
from .errors import IllegalAction
from .events import Event, MatchEndReason, MatchForfeited, PlayerResigned
from .legal import (answerers, call_value, counter_value, face_down_allowed, forced_highest,
                    is_blind, strongest_cards)
from .rules import RULESETS, TARGET_SCORE
from .scoring import end_hand, finish_match
from .state import Hand, MatchState, Trick
from .tricks import ALL_TIES, hand_outcome, resolve_trick


def apply(state: MatchState, seat: int, body: Any) -> tuple[MatchState, list[Event]]:
    """The state after `seat` sends `body`, and the events; the input is left untouched.

    Raises InvalidAction for a malformed body and IllegalAction (with the first matching
    reason of RULES.md §11) for one the rules refuse.
    """
    action = parse_action(body)
    if state.status != "active":
        raise IllegalAction("match_not_active", "the match is over")
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalAction("not_your_turn", "no such seat")
    if action.type in ("accept", "refuse"):
        return _answer(state, seat, action.type == "accept")
    if action.type == "play":
        return _play(state, seat, action)
    return _raise(state, seat, action)


def resign(state: MatchState, seat: int) -> tuple[MatchState, list[Event]]:
    """`seat`'s team concedes: the other team wins the match at once."""
    resigned: PlayerResigned = {"type": "player_resigned", "seat": seat, "team": seat % 2}
    return _concede(state, seat, "resigned", resigned)


def forfeit(state: MatchState, seat: int) -> tuple[MatchState, list[Event]]:
    """`seat` let its turn deadline pass under the forfeit rule: its team loses at once."""
    forfeited: MatchForfeited = {"type": "match_forfeited", "team": seat % 2, "seat": seat,
                                 "reason": "timed_out"}
    return _concede(state, seat, "timed_out", forfeited)


def _concede(state: MatchState, seat: int, reason: MatchEndReason,
             event: PlayerResigned | MatchForfeited) -> tuple[MatchState, list[Event]]:
    """The other team than `seat`'s wins the match at once (`event` says why)."""
    if state.status != "active":
        raise IllegalAction("match_not_active", "the match is over")
    s = state.copy()
    winner = 1 - seat % 2
    finish_match(s, winner, reason)
    return s, [event, {"type": "match_won", "winner_team": winner, "score": list(s.score),
                       "games": list(s.games), "end_reason": reason}]


def _call(h: Hand, seat: int, action: str, **more: Any) -> None:
    """Add one entry to the hand's public betting record (`hand.calls`)."""
    h.calls = [*h.calls, {"seat": seat, "action": action, **more}]


def _pending_reason(state: MatchState) -> str:
    pending = state.hand.pending
    assert pending is not None
    return "raise_pending" if pending["kind"] == "raise" else "decision_pending"


def _answer(state: MatchState, seat: int, accept: bool) -> tuple[MatchState, list[Event]]:
    h = state.hand
    if h.pending is None:
        raise IllegalAction("nothing_to_answer", "there is no question to answer")
    if seat not in h.to_act:
        raise IllegalAction("not_your_turn", "you are not among the seats that answer")
    s = state.copy()
    h = s.hand
    pending = h.pending
    assert pending is not None
    mode = s.options.response_mode
    team = seat % 2
    if pending["kind"] == "mao_de_onze":
        final = accept or mode != "any_accept_all_refuse" or not [
            x for x in h.to_act if x != seat]
        events: list[Event] = [{"type": "eleven_decided", "seat": seat, "team": team,
                                "accept": accept, "final": final}]
        _call(h, seat, "accept" if accept else "refuse", kind="mao_de_onze")
        if accept:
            mao = (h.dealer + 1) % s.players
            h.stake = RULESETS[s.ruleset].eleven_stake
            h.pending, h.refused, h.turn, h.to_act = None, [], mao, [mao]
        elif final:
            events += end_hand(s, 1 - team, RULESETS[s.ruleset].eleven_refused_award,
                               "mao_de_onze_refused")
        else:
            h.refused = h.refused + [seat]
            h.to_act = deciders(s, team, (h.dealer + 1) % s.players, h.refused)
        return s, events
    _call(h, seat, "accept" if accept else "refuse")
    if accept:
        assert h.turn is not None  # a raise is only called while a seat is to play
        h.stake = pending["to"]
        h.pending, h.refused, h.to_act = None, [], [h.turn]
        return s, [{"type": "raise_accepted", "seat": seat, "stake": h.stake}]
    refused = h.refused + [seat]
    team_refused = mode != "any_accept_all_refuse" or not answerers(
        s, pending["by_seat"], refused)
    events = [{"type": "raise_refused", "seat": seat, "team_refused": team_refused}]
    if team_refused:
        events += end_hand(s, pending["by_seat"] % 2, h.stake, "raise_refused")
    else:
        h.refused = refused
        h.to_act = answerers(s, pending["by_seat"], refused)
    return s, events


def _raise(state: MatchState, seat: int, action: ParsedAction) -> tuple[MatchState, list[Event]]:
    h = state.hand
    if h.pending is not None:
        if seat not in h.to_act:
            raise IllegalAction(_pending_reason(state), "a question is pending")
        if h.pending["kind"] != "raise":
            raise IllegalAction("raise_not_allowed", "answer the mão de onze question first")
        nxt = counter_value(state, seat)
    else:
        if seat != h.turn:
            raise IllegalAction("not_your_turn", "it is not your turn to play")
        if h.special is not None and state.options.illegal_call_policy == "lose_game":
            return _illegal_call(state, seat)
        nxt = call_value(state, seat)
    if nxt is None:
        raise IllegalAction("raise_not_allowed", "no call is allowed now")
    if action.to is not None and action.to != nxt:
        raise IllegalAction("raise_not_allowed", f"the next call is to {nxt}")
    s = state.copy()
    h = s.hand
    events: list[Event] = []
    if h.pending is not None:
        h.stake = h.pending["to"]
        events.append({"type": "raise_accepted", "seat": seat, "stake": h.stake})
    h.pending = {"kind": "raise", "by_seat": seat, "to": nxt}
    h.refused = []
    h.last_call_team = seat % 2
    h.to_act = answerers(s, seat, [])
    _call(h, seat, "raise", to=nxt)  # (a counter-raise accepts too: one call, the raise)
    events.append({"type": "raised", "seat": seat, "to": nxt})
    return s, events


def _illegal_call(state: MatchState, seat: int) -> tuple[MatchState, list[Event]]:
    """illegal_call_policy lose_game: the caller's opponents get what they lack to reach 12."""
    s = state.copy()
    opponents = 1 - seat % 2
    points = max(0, TARGET_SCORE - s.score[opponents])
    events: list[Event] = [{"type": "illegal_call", "seat": seat}]
    return s, events + end_hand(s, opponents, points, "illegal_call")


def _card_to_play(state: MatchState, seat: int, action: ParsedAction) -> str:
    """The card the play names, checked in RULES.md §11's order of reasons."""
    cards = state.hand.hands[seat]
    blind = is_blind(state)
    if blind and action.card is not None:
        raise IllegalAction("slot_required", "your cards are hidden: play by slot")
    if action.slot is not None:
        if not 0 <= action.slot < len(cards):
            raise IllegalAction("card_not_in_hand", f"there is no slot {action.slot}")
        card = cards[action.slot]
    else:
        card = action.card  # type: ignore[assignment]
        if card not in cards:
            raise IllegalAction("card_not_in_hand", f"{card} is not in your hand")
    if action.face_down and not face_down_allowed(state, seat):
        raise IllegalAction("face_down_not_allowed", "no face-down card here")
    if not blind and forced_highest(state) and card not in strongest_cards(state, seat):
        raise IllegalAction("must_play_highest", "after a tied first trick play your strongest")
    return card


def _play(state: MatchState, seat: int, action: ParsedAction) -> tuple[MatchState, list[Event]]:
    h = state.hand
    if h.pending is not None:
        raise IllegalAction(_pending_reason(state), "a question is pending")
    if seat != h.turn:
        raise IllegalAction("not_your_turn", "it is not your turn to play")
    card = _card_to_play(state, seat, action)
    s = state.copy()
    h = s.hand
    h.hands[seat] = [c for c in h.hands[seat] if c != card]
    trick = h.tricks[-1]
    trick.plays.append((seat, card, action.face_down))
    number = len(h.tricks)
    events: list[Event] = [{"type": "card_played", "seat": seat, "card": card,
                            "face_down": action.face_down, "trick": number}]
    if len(trick.plays) < s.players:
        h.turn = (seat + 1) % s.players
        h.to_act = [h.turn]
        return s, events
    leader = resolve_trick(s, trick)
    if trick.tie:
        events.append({"type": "trick_tied", "trick": number})
    else:
        assert trick.winner_team is not None  # resolve_trick: a trick not tied has a winner
        events.append({"type": "trick_won", "trick": number, "winner_team": trick.winner_team,
                       "seat": leader})
    outcome = hand_outcome(h.tricks)
    if outcome is None:
        h.tricks.append(Trick(leader))
        h.turn = leader
        h.to_act = [leader]
    elif outcome == ALL_TIES:
        if s.options.all_ties == "mao_team":
            events += end_hand(s, (h.dealer + 1) % s.players % 2, h.stake, "tricks")
        else:
            events += end_hand(s, None, 0, "void")
    else:
        events += end_hand(s, int(outcome), h.stake, "tricks")
    return s, events
