"""One function decides which partners' hands a seat sees; views and events agree with it."""
from __future__ import annotations

import pytest

import engine
from engine.knowledge import partners_seen, play_seen


def test_partners_seen_only_by_the_team_on_eleven_with_partners() -> None:
    assert partners_seen(4, 0, 0) == [2] and partners_seen(4, 0, 2) == [0]
    assert partners_seen(6, 1, 3) == [1, 5]
    assert partners_seen(4, 0, 1) == [] and partners_seen(4, None, 0) == []
    assert partners_seen(2, 0, 0) == [] and partners_seen(4, 0, None) == []


def test_a_face_down_card_is_seen_by_its_player_only() -> None:
    assert play_seen(1, True, 1) and not play_seen(1, True, 3) and not play_seen(1, True, None)
    assert play_seen(1, False, None)


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("start", [[11, 4], [3, 11], [11, 11], [0, 0]])
def test_view_and_hand_dealt_event_show_the_same_partner_cards(players: int,
                                                              start: list[int]) -> None:
    state, events = engine.new_match(players=players, seed=4, start_score=start)
    for seat in range(players):
        shown = engine.view(state, seat)["hand"]["partner_cards"]
        assert engine.redact_event(events[0], seat, False)["partner_cards"] == shown
        expected = partners_seen(players, state.hand.eleven_team, seat)
        assert sorted(int(p) for p in shown or {}) == expected
