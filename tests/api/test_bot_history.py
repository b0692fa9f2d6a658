"""A reading bot (`hard`) moves knowing how the opponents answered its team's late raises so
far: the worker counts them from the match's stored event log (app/play/bot_history.py), the
same count the engine's own events give, and hands it to the bot; other levels get none."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

import engine

from app.play import moves
from app.play.bot_history import late_answers_in
from engine.bots import LateAnswers, late_answers
from tests.support.api import (
    act_ok,
    create,
    full_match,
    get_events,
    get_view,
    register,
    run_worker,
)

DEAL = {"vira": "4d", "hands": [["Kc", "6h", "7s"], ["Qd", "Jd", "4s"]]}
"""Seat 0 (the mão, with first_dealer 1) takes the first trick with Kc whatever seat 1 plays."""
SEED = 1


def test_the_stored_log_counts_as_the_engines_events_do(client: Any, app: Any) -> None:
    match_id, (ana, bia) = full_match(client, 2, deals=[DEAL], options={"first_dealer": 1})
    act_ok(client, match_id, ana, {"type": "play", "card": "Kc"})
    act_ok(client, match_id, bia, {"type": "play", "card": "Qd"})
    act_ok(client, match_id, ana, {"type": "raise"})  # a late raise: one trick is done
    act_ok(client, match_id, bia, {"type": "refuse"})
    events = get_events(client, match_id, bia)
    with app.app_context():
        assert late_answers_in(match_id, 0) == LateAnswers(refused=1, answered=1)
        assert late_answers_in(match_id, 1) == LateAnswers()
        assert late_answers_in(match_id, 0) == late_answers(events, 0)


@pytest.mark.parametrize(("level", "reads"), [("hard", True), ("medium", False)])
def test_the_worker_hands_the_count_to_a_reading_level(client: Any, app: Any,
                                                       monkeypatch: Any, level: str,
                                                       reads: bool) -> None:
    asked: list[tuple[str, LateAnswers | None, LateAnswers]] = []
    choose = moves.choose
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": level}], deals=[DEAL], seed=SEED,
               options={"first_dealer": 1})  # a fixed seed: the same deals and bot moves

    def spy(lvl: str, view: dict[str, Any], rng: Any, **kw: Any) -> dict[str, Any]:
        count = late_answers_in(m["id"], view["you"]["team"])
        asked.append((lvl, kw.get("history"), count))
        return choose(lvl, view, rng, **kw)

    monkeypatch.setattr(moves, "choose", spy)
    view = act_ok(client, m["id"], ana, {"type": "play", "card": "Kc"})
    for _ in range(400):  # ana refuses every raise, so the bot's late raises get refusals
        run_worker(app)
        view = get_view(client, m["id"], ana)
        if view["status"] != "active" or any(count.refused for _, _, count in asked):
            break
        legal = view["legal_actions"]
        refuse = [a for a in legal if a["type"] == "refuse"]
        act_ok(client, m["id"], ana, (refuse or [a for a in legal if a["type"] == "play"])[0])
    assert any(count.refused for _, _, count in asked), "no late raise of the bot was refused"
    assert all(lvl == level for lvl, _, _ in asked)
    for _, history, count in asked:
        assert history == (count if reads else None)


@pytest.mark.parametrize(("after", "reads"), [(["raise", "accept"], False), ([], True)])
def test_the_log_is_read_only_for_a_choice(monkeypatch: Any, after: list[str],
                                           reads: bool) -> None:
    # seat 0 follows in the third trick with its last card; after its own raise was accepted
    # it may not raise again, so that card is its only action
    read: list[int] = []
    monkeypatch.setattr(moves, "late_answers_in",
                        lambda match_id, team: read.append(team) or LateAnswers())
    state, _ = engine.new_match(players=2, seed=SEED, deals=[DEAL],
                                options={"first_dealer": 1, "face_down": False})
    for seat, kind in enumerate(after):
        state, _ = engine.apply(state, seat, {"type": kind})
    for seat, card in ((0, "Kc"), (1, "Qd"), (0, "6h"), (1, "Jd"), (1, "4s")):
        state, _ = engine.apply(state, seat, {"type": "play", "card": card})
    view = engine.view(state, 0)
    match = SimpleNamespace(id="m_test", seed=SEED, version=1)
    action = moves._bot_move(cast(Any, match), 0, "hard", view)
    assert action in view["legal_actions"]
    assert (len(view["legal_actions"]) > 1) is reads
    assert read == ([0] if reads else [])
