"""Engine tests in RULES.md §14's notation: a match from fixed deals, steps such as
``"s0 raise to 3, s1 accept, s0 play 5c"``, and checks on the public view."""
from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import IllegalAction


def new(players: int = 4, ruleset: str = "paulista", deals: Any = None,
        start_score: Any = None, seed: int = 7, **options: Any) -> engine.MatchState:
    options.setdefault("first_dealer", players - 1)
    state, events = engine.new_match(players=players, ruleset=ruleset, options=options,
                                     seed=seed, deals=deals, start_score=start_score)
    assert events[0]["type"] == "hand_dealt"
    return state


def parse_step(step: str) -> tuple[int, dict[str, Any]]:
    """``"s2 play Qd face_down"`` -> (2, {"type": "play", "card": "Qd", "face_down": True})."""
    words = step.split()
    seat = int(words[0][1:])
    kind = words[1]
    if kind == "play":
        if words[2] == "slot":
            body: dict[str, Any] = {"type": "play", "slot": int(words[3])}
            rest = words[4:]
        else:
            body = {"type": "play", "card": words[2]}
            rest = words[3:]
        if rest:
            assert rest == ["face_down"], step
            body["face_down"] = True
        return seat, body
    if kind == "raise":
        body = {"type": "raise"}
        if len(words) > 2:
            assert words[2] == "to", step
            body["to"] = int(words[3])
        return seat, body
    assert kind in ("accept", "refuse") and len(words) == 2, step
    return seat, {"type": kind}


def run(state: engine.MatchState, script: str) -> engine.MatchState:
    """Apply every comma-separated step; each must be accepted."""
    for step in script.split(","):
        seat, body = parse_step(step.strip())
        state, _ = engine.apply(state, seat, body)
    return state


def run_events(state: engine.MatchState, script: str) -> tuple[engine.MatchState, list]:
    events: list = []
    for step in script.split(","):
        seat, body = parse_step(step.strip())
        state, new_events = engine.apply(state, seat, body)
        events += new_events
    return state, events


def rejected(state: engine.MatchState, step: str, reason: str) -> None:
    """The step is refused with `reason` and nothing changes."""
    before = state.to_json()
    seat, body = parse_step(step)
    with pytest.raises(IllegalAction) as info:
        engine.apply(state, seat, body)
    assert info.value.reason == reason, (step, info.value.reason, info.value.message)
    assert state.to_json() == before


def fmt(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "play":
        text = f"play slot {action['slot']}" if "slot" in action else f"play {action['card']}"
        return text + (" face_down" if action.get("face_down") else "")
    if kind == "raise":
        return f"raise to {action['to']}"
    return kind


def legal(state: engine.MatchState, seat: int) -> set[str]:
    """legal_actions(seat) in §14 notation; also checks the view agrees and there are no dupes."""
    items = [fmt(a) for a in engine.legal_actions(state, seat)]
    assert len(items) == len(set(items)), items
    assert engine.view(state, seat)["legal_actions"] == engine.legal_actions(state, seat)
    return set(items)


def pub(state: engine.MatchState) -> dict[str, Any]:
    return engine.view(state, None)


def hand(state: engine.MatchState) -> dict[str, Any]:
    return pub(state)["hand"]


def assert_to_play(state: engine.MatchState, seat: int) -> None:
    h = hand(state)
    assert h["pending"] is None
    assert h["to_act"] == [seat]


def assert_hand_over(state: engine.MatchState, winner: int | None, points: int, reason: str,
                     score: list[int]) -> None:
    v = pub(state)
    last = v["last_hand"]
    assert last is not None
    assert (last["winner_team"], last["points"], last["reason"]) == (winner, points, reason)
    assert v["score"] == score


def assert_match_over(state: engine.MatchState, winner: int) -> None:
    v = pub(state)
    assert v["status"] == "finished"
    assert v["winner_team"] == winner
    assert v["hand"]["to_act"] == []
    assert v["hand"]["pending"] is None
    for seat in range(state.players):
        assert engine.legal_actions(state, seat) == []


def assert_active(state: engine.MatchState) -> None:
    v = pub(state)
    assert v["status"] == "active"
    assert v["winner_team"] is None
