"""What a seat may do now: calls, answers, card plays (RULES.md §6, §9, §11)."""
from __future__ import annotations

from typing import Any

from .cards import strengths
from .rules import RULESETS, TARGET_SCORE
from .state import MatchState

Action = dict[str, Any]


def is_blind(state: MatchState) -> bool:
    """A mão de ferro played blind: cards hidden from everyone, played by slot."""
    return state.hand.special == "mao_de_ferro" and state.options.iron_hand_blind


def answerers(state: MatchState, by_seat: int, refused: list[int]) -> list[int]:
    """Seats that answer a call made by `by_seat` (RULES.md §6.4)."""
    n = state.players
    mode = state.options.response_mode
    if mode == "designated":
        return [(by_seat + 1) % n]
    members = range(1 - by_seat % 2, n, 2)
    if mode == "first_response":
        return list(members)
    return [s for s in members if s not in refused]


def _cap_allows(state: MatchState, team: int, playing_for: int, proposed: int) -> bool:
    cap = state.options.raise_cap
    if cap == "no_raise_if_accept_wins":
        return state.score[team] + playing_for < TARGET_SCORE
    if cap == "needed_points":
        need = TARGET_SCORE - min(state.score)
        ladder = RULESETS[state.ruleset].ladder
        limit = next((v for v in ladder if v >= need), ladder[-1])
        return proposed <= limit
    return True


def call_value(state: MatchState, seat: int) -> int | None:
    """The value `seat` may call on its turn with nothing pending, or None (RULES.md §6.2)."""
    h = state.hand
    team = seat % 2
    if h.special is not None or h.last_call_team == team:
        return None
    nxt = RULESETS[state.ruleset].next_value(h.stake)
    if nxt is None or not _cap_allows(state, team, h.stake, nxt):
        return None
    return nxt


def counter_value(state: MatchState, seat: int) -> int | None:
    """The value `seat` may counter-raise to while answering a call, or None."""
    pending = state.hand.pending
    assert pending is not None
    nxt = RULESETS[state.ruleset].next_value(pending["to"])
    if nxt is None or not _cap_allows(state, seat % 2, pending["to"], nxt):
        return None
    return nxt


def forced_highest(state: MatchState) -> bool:
    """force_highest_after_first_tie applies: trick 1 was tied and the cards are seen (a blind
    mão de ferro is exempt, RULES.md §8.2; a visible one is played normally)."""
    h = state.hand
    return (state.options.force_highest_after_first_tie and not is_blind(state)
            and h.tricks[0].done and h.tricks[0].tie)


def strongest(cards: list[str], table: dict[str, int]) -> list[str]:
    """The cards of `cards` with the top strength in `table`, in their order."""
    top = max(table[c] for c in cards)
    return [c for c in cards if table[c] == top]


def strongest_cards(state: MatchState, seat: int) -> list[str]:
    """The cards `seat` may play while forced_highest applies."""
    return strongest(state.hand.hands[seat], strengths(state.ruleset, state.hand.vira))


def face_down_allowed(state: MatchState, seat: int) -> bool:
    """RULES.md §9.1, for the seat to play."""
    o = state.options
    h = state.hand
    index = len(h.tricks) - 1
    if not o.face_down or index == 0 or h.special == "mao_de_ferro":
        return False
    if not o.face_down_after_tie and h.tricks[index - 1].tie:
        return False
    if o.max_face_down_per_team_per_trick == 1 and any(
            fd and s % 2 == seat % 2 for s, _, fd in h.tricks[index].plays):
        return False
    return not forced_highest(state)


def legal_actions(state: MatchState, seat: int) -> list[Action]:
    """Every complete action body `seat` may send now (RULES.md §11)."""
    h = state.hand
    if state.status != "active" or seat not in h.to_act:
        return []
    pending = h.pending
    if pending is not None:
        actions: list[Action] = [{"type": "accept"}, {"type": "refuse"}]
        if pending["kind"] == "raise":
            nxt = counter_value(state, seat)
            if nxt is not None:
                actions.append({"type": "raise", "to": nxt})
        return actions
    if is_blind(state):
        actions = [{"type": "play", "slot": i} for i in range(len(h.hands[seat]))]
    else:
        cards = strongest_cards(state, seat) if forced_highest(state) else h.hands[seat]
        actions = [{"type": "play", "card": c} for c in cards]
        if face_down_allowed(state, seat):
            actions += [{"type": "play", "card": c, "face_down": True} for c in cards]
    nxt = call_value(state, seat)
    if nxt is not None:
        actions.append({"type": "raise", "to": nxt})
    return actions
