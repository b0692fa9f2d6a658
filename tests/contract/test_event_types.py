"""Each event the engine emits has one typed definition (engine/events.py), the API spec's
schema of its type declares exactly its fields, and random play emits nothing else: none of
the three can change alone."""
from __future__ import annotations

import random
import types
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest
from marshmallow import validate

import engine
from app.http.schemas.components import UNIONS
from app.http.schemas.events import EventSchema
from engine.events import Event

TYPED = {get_args(typed.__annotations__["type"])[0]: typed for typed in get_args(Event)}
"""Each engine event type's TypedDict, by its `type`."""
APP_EVENTS = {"player_joined", "player_left", "player_invited", "invitation_declined",
              "match_cancelled", "match_started", "turn_timed_out", "deadline_set",
              "deals_revealed"}
"""The event types the app writes itself (seats, deadlines, fairness), not the engine."""
SPEC = UNIONS["Event"].variants
APP_FIELDS = set(EventSchema._declared_fields)
"""seq, version, at: added by the app to every event it stores."""


def test_every_event_type_of_the_spec_is_the_engines_or_the_apps() -> None:
    assert len(TYPED) == 14 and not set(TYPED) & APP_EVENTS
    assert set(SPEC) == set(TYPED) | APP_EVENTS


@pytest.mark.parametrize("kind", sorted(TYPED))
def test_the_spec_declares_exactly_the_fields_of_the_engine_event(kind: str) -> None:
    typed, schema = TYPED[kind], SPEC[kind]
    declared = {n: f for n, f in schema._declared_fields.items() if n not in APP_FIELDS}
    assert set(declared) == set(typed.__annotations__)
    assert {n for n in declared if n not in schema.OPTIONAL} == typed.__required_keys__


@pytest.mark.parametrize("kind", sorted(TYPED))
def test_the_spec_allows_null_and_lists_the_choices_as_the_engine_event_does(kind: str) -> None:
    hints = get_type_hints(TYPED[kind])
    for name, field in SPEC[kind]._declared_fields.items():
        if name in APP_FIELDS or name == "type":
            continue
        hint = hints[name]
        nullable = isinstance(hint, types.UnionType) and type(None) in get_args(hint)
        assert field.allow_none == nullable, name
        if get_origin(hint) is Literal:
            choices = [v.choices for v in field.validators if isinstance(v, validate.OneOf)]
            assert choices == [list(get_args(hint))], name


def fits(event: dict[str, Any]) -> bool:
    """`event` has every required key of its type's TypedDict and no key it does not name."""
    typed = TYPED[event["type"]]
    return typed.__required_keys__ <= set(event) <= set(typed.__annotations__)


def random_step(state: engine.MatchState, rng: random.Random) -> tuple[Any, list[Any]]:
    """One random legal action; now and then a resignation, a forfeit or a call in a special
    hand (the lose_game policy takes it)."""
    seat = rng.choice(state.to_act)
    roll = rng.random()
    if roll < 0.004:
        return (engine.resign if roll < 0.002 else engine.forfeit)(state, seat)
    if (roll < 0.3 and state.options.illegal_call_policy == "lose_game"
            and state.hand.special is not None and seat == state.hand.turn):
        return engine.apply(state, seat, {"type": "raise"})
    return engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_play_emits_only_the_typed_events(players: int) -> None:
    kinds = set()
    for seed in range(16):
        rng = random.Random(seed)
        options = {"iron_hand_blind": seed % 2 == 0, "games_to_win": 1 + seed % 2,
                   "illegal_call_policy": ("reject", "lose_game")[seed % 3 == 0]}
        state, events = engine.new_match(players=players, seed=seed, options=options,
                                         start_score=[rng.choice([0, 10, 11]), 11 * (seed % 2)])
        while state.status == "active":
            state, more = random_step(state, rng)
            events += more
        for event in events:
            for viewer in (None, *range(players)):
                shown = engine.redact_event(event, viewer, finished=False)
                assert fits(dict(shown)), shown
            assert fits(dict(event)), event
            kinds.add(event["type"])
    assert kinds == set(TYPED)
