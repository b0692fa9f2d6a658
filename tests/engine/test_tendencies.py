"""What the match says about the opponents (engine/bots/tendencies.py): their answers to a
team's late raises, counted from the engine's own events, and the late bluffs that follow them."""
from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import MatchState
from engine.bots import LateAnswers, bluffs, choose, late_answers
from engine.bots.bluffs import BLUFF_FOLD_RATE, BLUFF_MARGIN, late_bluff
from engine.bots.tendencies import PRIOR_ANSWERS, PRIOR_REFUSED
from engine.events import Event
from tests.support.bot_positions import fixed

RAISE = {"type": "raise"}
ACCEPT = {"type": "accept"}
REFUSE = {"type": "refuse"}


class Table:
    """A match played move by move, keeping every event the engine emitted."""

    def __init__(self, state: MatchState) -> None:
        self.state = state
        self.events: list[Event] = []

    def card(self, seat: int, card: str) -> Table:
        return self.act(seat, {"type": "play", "card": card})

    def act(self, seat: int, action: dict[str, Any]) -> Table:
        self.state, events = engine.apply(self.state, seat, action)
        self.events += events
        return self

    def answers(self, team: int) -> LateAnswers:
        return late_answers(self.events, team)


def two_players() -> Table:
    """Seat 0 (team 0) takes the first trick (Kc over Qd) and leads the second."""
    return Table(fixed(2, [["Kc", "6h", "7s"], ["Qd", "Ac", "4s"]])).card(0, "Kc").card(1, "Qd")


def test_a_refused_late_raise_counts_for_the_raisers_team_only() -> None:
    table = two_players().act(0, RAISE).act(1, REFUSE)
    assert table.answers(0) == LateAnswers(refused=1, answered=1)
    assert table.answers(1) == LateAnswers()


def test_an_accepted_late_raise_is_an_answer_but_no_refusal() -> None:
    assert two_players().act(0, RAISE).act(1, ACCEPT).answers(0) == LateAnswers(0, 1)


def test_a_raise_in_the_first_trick_is_not_late() -> None:
    table = Table(fixed(2, [["Kc", "6h", "7s"], ["Qd", "Ac", "4s"]])).act(0, RAISE).act(1, REFUSE)
    assert table.answers(0) == LateAnswers()


def test_a_raise_over_answers_and_is_the_other_teams_own_late_raise() -> None:
    table = two_players().act(0, RAISE).act(1, RAISE)
    assert table.answers(0) == LateAnswers(0, 1)
    table.act(0, REFUSE)
    assert table.answers(0) == LateAnswers(0, 1)
    assert table.answers(1) == LateAnswers(1, 1)


def test_counts_run_over_the_hands_of_a_match() -> None:
    table = two_players().act(0, RAISE).act(1, REFUSE)  # hand 1 ends: team 0 takes 1 point
    assert table.state.hand.number == 2
    for _ in range(2):  # hand 2's first trick: each plays their first card
        seat = table.state.to_act[0]
        table.card(seat, table.state.hand.hands[seat][0])
    raiser = table.state.to_act[0]
    table.act(raiser, RAISE).act(1 - raiser, ACCEPT)
    accepted = LateAnswers(0, 1)
    assert table.answers(raiser) == (LateAnswers(1, 2) if raiser == 0 else accepted)
    assert table.answers(1 - raiser) == (LateAnswers(1, 1) if raiser == 1 else LateAnswers())


def test_with_partners_a_refusal_counts_once_the_team_refused() -> None:
    state = fixed(4, [["Kc", "6h", "7s"], ["Qd", "Ac", "4s"], ["Jc", "6d", "7d"],
                      ["Qc", "Ad", "4h"]], options={"response_mode": "any_accept_all_refuse"})
    table = Table(state).card(0, "Kc").card(1, "Qd").card(2, "Jc").card(3, "Qc")
    raiser = table.state.to_act[0]  # team 0 took the trick
    assert raiser % 2 == 0
    table.act(raiser, RAISE)
    first, second = table.state.to_act
    table.act(first, REFUSE)
    assert table.answers(0) == LateAnswers()  # the partner may still accept
    table.act(second, REFUSE)
    assert table.answers(0) == LateAnswers(1, 1)


def test_the_fold_rate_starts_from_the_prior_and_follows_the_answers() -> None:
    assert LateAnswers().fold_rate == pytest.approx(PRIOR_REFUSED / PRIOR_ANSWERS)
    assert LateAnswers(2, 2).fold_rate > LateAnswers(1, 1).fold_rate > LateAnswers().fold_rate
    assert LateAnswers(0, 9).fold_rate < LateAnswers(0, 1).fold_rate < LateAnswers().fold_rate
    assert LateAnswers(0, 9).fold_rate == pytest.approx(PRIOR_REFUSED / (PRIOR_ANSWERS + 9))


def test_the_count_reads_no_card() -> None:
    table = two_players().act(0, RAISE).act(1, REFUSE)
    stripped = [{k: v for k, v in e.items() if k in ("type", "seat", "team_refused")}
                for e in table.events]
    assert late_answers(stripped, 0) == table.answers(0)


def bluff_spot() -> tuple[dict[str, Any], list[dict[str, Any]], int, int]:
    """Seat 1 leads the third trick with a weak 4s, no call made: a late bluff spot."""
    state = two_players().card(0, "6h").card(1, "Ac").state
    view = engine.view(state, 1)
    actions = view["legal_actions"]
    first_play = next(i for i, a in enumerate(actions) if a["type"] == "play")
    raise_at = next(i for i, a in enumerate(actions) if a["type"] == "raise")
    return view, actions, first_play, raise_at


@pytest.mark.parametrize("history", [LateAnswers(), LateAnswers(1, 1), LateAnswers(0, 1),
                                     LateAnswers(3, 6), LateAnswers(2, 6), LateAnswers(5, 6)])
def test_a_late_bluff_needs_opponents_who_fold(history: LateAnswers) -> None:
    view, actions, first_play, raise_at = bluff_spot()
    values = [0.1] * len(actions)
    values[first_play], values[raise_at] = 0.6, 0.6 - BLUFF_MARGIN / 2
    assert late_bluff(view, actions, values, first_play) == raise_at  # the match unknown
    folds = history.fold_rate >= BLUFF_FOLD_RATE
    chosen = late_bluff(view, actions, values, first_play, history)
    assert chosen == (raise_at if folds else first_play)


def test_one_refused_late_raise_opens_the_bluffs_and_calls_close_them() -> None:
    assert LateAnswers(1, 1).fold_rate >= BLUFF_FOLD_RATE
    assert LateAnswers(5, 6).fold_rate >= BLUFF_FOLD_RATE
    assert LateAnswers(0, 1).fold_rate < BLUFF_FOLD_RATE
    assert LateAnswers(2, 6).fold_rate < BLUFF_FOLD_RATE


@pytest.mark.parametrize(("history", "kind"), [(LateAnswers(4, 4), "raise"),
                                               (LateAnswers(0, 4), "play")])
def test_choose_hands_the_history_to_hard(history: LateAnswers, kind: str,
                                          monkeypatch: Any) -> None:
    monkeypatch.setattr(bluffs, "BLUFF_MARGIN", 1.0)  # every spot within the margin
    view, _, _, _ = bluff_spot()
    rng = random.Random(0)
    assert choose("hard", view, rng, budget_ms=60_000, history=history)["type"] == kind


def test_levels_that_do_not_read_the_match_ignore_it() -> None:
    view, _, _, _ = bluff_spot()
    for level in ("random", "easy", "medium"):
        plain = choose(level, view, random.Random(3))
        assert choose(level, view, random.Random(3), history=LateAnswers(0, 9)) == plain
