"""Property tests over random legal play (2, 4 and 6 players, both rulesets, random options)."""
from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import DECK, IllegalAction, InvalidAction, MatchState
from tests.support.match_configs import match_configs

CARDS = set(DECK)
MAX_STEPS = 3000


def candidate_actions(state: MatchState, rng: random.Random) -> list[dict[str, Any]]:
    """A sample of well-formed actions, legal or not."""
    out: list[dict[str, Any]] = [{"type": "accept"}, {"type": "refuse"}, {"type": "raise"}]
    out.append({"type": "raise", "to": rng.choice([1, 2, 3, 4, 6, 9, 10, 12, 15])})
    for card in rng.sample(DECK, 4):
        out.append({"type": "play", "card": card})
        out.append({"type": "play", "card": card, "face_down": True})
    for seat_cards in state.hand.hands:
        for card in seat_cards:
            out.append({"type": "play", "card": card})
    out.append({"type": "play", "slot": rng.randrange(-1, 4)})
    return out


def is_listed(action: dict[str, Any], legal: list[dict[str, Any]], state: MatchState,
              seat: int) -> bool:
    """`action` is one of `legal`; a raise without `to` stands for the listed raise, and in a
    visible hand a slot play stands for the card in that slot."""
    cards = state.hand.hands[seat]
    blind = state.hand.special == "mao_de_ferro" and state.options.iron_hand_blind
    if "slot" in action and not blind and 0 <= action["slot"] < len(cards):
        action = {"type": "play", "card": cards[action["slot"]]}
    if action == {"type": "raise"}:
        return any(a["type"] == "raise" for a in legal)
    return action in legal


def known_cards(state: MatchState, seat: int | None) -> set[str]:
    """Cards `seat` may know now: the table's face-up cards, its own cards and plays, vira..."""
    h = state.hand
    known = set(engine.manilhas(state.ruleset, h.vira))
    if h.vira:
        known.add(h.vira)
    tricks = [(p[0], p[1], p[2]) for t in h.tricks for p in t.plays]
    if state.last_hand:
        tricks += [(p["seat"], p["card"], p["face_down"])
                   for t in state.last_hand["tricks"] for p in t["plays"]]
    known |= {c for s, c, fd in tricks if not fd or s == seat}
    if seat is not None:
        blind = h.special == "mao_de_ferro" and state.options.iron_hand_blind
        if not blind:
            known |= set(h.hands[seat])
        if h.special == "mao_de_onze" and seat % 2 == h.eleven_team:
            for partner in range(seat % 2, state.players, 2):
                known |= set(h.hands[partner])
    return known


def cards_in(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj} if obj in CARDS else set()
    if isinstance(obj, dict):
        return set().union(*(cards_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(cards_in(v) for v in obj)) if obj else set()
    return set()


def check_invariants(state: MatchState) -> None:
    h = state.hand
    n = state.players
    in_play = [c for cards in h.hands for c in cards] + [p[1] for t in h.tricks for p in t.plays]
    assert len(in_play) == 3 * n and len(set(in_play)) == 3 * n, "cards lost or duplicated"
    if h.vira is not None:
        assert h.vira not in in_play
    assert (h.vira is None) == (state.ruleset == "mineiro")
    for seat in range(n):
        legal = engine.legal_actions(state, seat)
        assert bool(legal) == (seat in h.to_act), (seat, h.to_act, legal)
    if state.status == "finished":
        assert h.to_act == [] and state.winner_team in (0, 1)
    else:
        assert h.to_act and h.to_act == sorted(h.to_act)
    for viewer in [None, *range(n)]:
        shown = cards_in(engine.view(state, viewer))
        assert shown <= known_cards(state, viewer), (viewer, shown - known_cards(state, viewer))
    assert MatchState.from_json(json.loads(json.dumps(state.to_json()))) == state


def check_events(events: list[dict[str, Any]], state: MatchState) -> None:
    for event in events:
        if event["type"] == "hand_won" and event["winner_team"] is None:
            assert event["points"] == 0 and event["reason"] == "void"
        for viewer in [None, *range(state.players)]:
            seen = engine.redact_event(event, viewer, False)
            if event["type"] == "hand_dealt":
                assert "hands" not in seen
                if viewer is None or event["blind"]:
                    assert not cards_in(seen.get("cards"))
                else:
                    assert seen["cards"] == event["hands"][viewer]
            if event["type"] == "card_played" and event["face_down"] and viewer != event["seat"]:
                assert seen["card"] is None
            json.dumps(seen)


def play_out(config: dict[str, Any], rng: random.Random, probe: bool) -> int:
    state, events = engine.new_match(**config)
    check_events(events, state)
    history: list[tuple[int, dict[str, Any]]] = []
    for _ in range(MAX_STEPS):
        check_invariants(state)
        if state.status != "active":
            break
        if probe:
            seat = rng.randrange(state.players)
            legal = engine.legal_actions(state, seat)
            before = state.to_json()
            for action in rng.sample(candidate_actions(state, rng), 6):
                special = state.hand.special is not None
                if is_listed(action, legal, state, seat) or (action["type"] == "raise" and special
                                       and state.options.illegal_call_policy == "lose_game"
                                       and state.hand.pending is None
                                       and seat == state.hand.turn):
                    continue
                try:
                    engine.apply(state, seat, action)
                except (IllegalAction, InvalidAction):
                    pass
                else:
                    raise AssertionError(f"accepted an action outside legal_actions: {action}")
                assert state.to_json() == before
        seat = rng.choice(state.to_act)
        action = rng.choice(engine.legal_actions(state, seat))
        score_before = list(state.score)
        snapshot = state.to_json()
        previous = state
        state, events = engine.apply(state, seat, action)
        assert previous.to_json() == snapshot, "apply mutated its input"
        history.append((seat, action))
        check_events(events, state)
        won = [e for e in events if e["type"] == "hand_won"]
        assert len(won) <= 1
        if won and not any(e["type"] == "game_won" for e in events):
            gained = [state.score[t] - score_before[t] for t in (0, 1)]
            assert min(gained) == 0 and sum(1 for g in gained if g) <= 1
    assert state.status == "finished", "the match did not end"
    replayed, _ = engine.new_match(**config)
    for seat, action in history:
        replayed, _ = engine.apply(replayed, seat, action)
    assert replayed == state and replayed.to_json() == state.to_json()
    return len(history)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=match_configs(), play_seed=st.integers(0, 2**31))
def test_random_legal_play_keeps_every_invariant(config: dict[str, Any], play_seed: int) -> None:
    play_out(config, random.Random(play_seed), probe=True)


@settings(max_examples=40, deadline=None)
@given(config=match_configs(), play_seed=st.integers(0, 2**31))
def test_calm_play_reaches_the_end(config: dict[str, Any], play_seed: int) -> None:
    """Play that never raises or refuses: long matches, many hands, still ending."""
    rng = random.Random(play_seed)
    state, _ = engine.new_match(**config)
    hands = 0
    while state.status == "active":
        seat = rng.choice(state.to_act)
        legal = engine.legal_actions(state, seat)
        calm = [a for a in legal if a["type"] in ("play", "accept")] or legal
        state, events = engine.apply(state, seat, rng.choice(calm))
        hands += sum(e["type"] == "hand_won" for e in events)
        assert hands < 400
    check_invariants(state)
    assert max(state.score) >= 12


def test_engine_imports_no_web_or_database_module() -> None:
    import subprocess
    import sys
    code = ("import sys, engine, engine.bots; "
            "bad = [m for m in sys.modules if m.split('.')[0] in "
            "('flask', 'sqlalchemy', 'flask_sqlalchemy', 'psycopg2', 'marshmallow', 'werkzeug')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=str(__import__("pathlib").Path(__file__).parents[2]))
    assert result.returncode == 0, result.stdout + result.stderr
