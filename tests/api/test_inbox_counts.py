"""GET /v1/me/matches: `awaiting` and `invitations` describe the same moment as the items of
the page they come with, even when a move commits while the page is being read (found by a
soak of many bots over HTTP: a long poll answered `awaiting: 0` beside an item with
`your_turn: true`)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.api import full_match, get_view


def _moving_during_the_read(monkeypatch: pytest.MonkeyPatch, other_app: Any, match_id: str,
                            mover: Any, call: int, before_reading: bool) -> list[int]:
    """Make `mover` act (through another process) inside the `call`-th read of the player's
    counts, before or after that read: a move that commits between the inbox's reads."""
    from app.play import inbox

    real = inbox.attention
    elsewhere = other_app.test_client()
    calls: list[int] = []

    def move() -> None:
        action = elsewhere.get(f"/v1/matches/{match_id}",
                               headers=mover.headers).json["legal_actions"][0]
        r = elsewhere.post(f"/v1/matches/{match_id}/actions", json=action,
                           headers=mover.headers)
        assert r.status_code == 200, r.get_data(as_text=True)

    def attention(player: Any) -> tuple[int, int, int]:
        calls.append(1)
        if len(calls) == call and before_reading:
            move()
        counts = real(player)
        if len(calls) == call and not before_reading:
            move()
        return counts

    monkeypatch.setattr(inbox, "attention", attention)
    return calls


def _consistent(page: dict[str, Any]) -> None:
    turns = sum(1 for i in page["items"] if i["your_turn"] and not i["invitation"])
    assert page["awaiting"] == turns, page
    assert page["invitations"] == sum(1 for i in page["items"] if i["invitation"])


def test_a_page_and_its_awaiting_count_are_one_moment(client: Any, other_app: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0's own move (sent from another process) commits after the page's matches were
    read: the page says either "your turn, awaiting 1" or "nothing, awaiting 0"."""
    match_id, seated = full_match(client, players=2, options={"first_dealer": 1})
    assert get_view(client, match_id, seated[0])["legal_actions"]
    _moving_during_the_read(monkeypatch, other_app, match_id, seated[0], call=1,
                            before_reading=True)
    r = client.get("/v1/me/matches?your_turn=true", headers=seated[0].headers)
    assert r.status_code == 200
    _consistent(r.json)


def test_a_long_poll_answer_and_its_awaiting_count_are_one_moment(
        client: Any, other_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The long poll reads the counts, then the opponent's move makes it seat 0's turn, then
    the page is read: its `awaiting` counts the match it lists as seat 0's turn."""
    match_id, seated = full_match(client, players=2, options={"first_dealer": 0})
    assert not get_view(client, match_id, seated[0])["legal_actions"]
    _moving_during_the_read(monkeypatch, other_app, match_id, seated[1], call=2,
                            before_reading=False)
    r = client.get("/v1/me/matches?your_turn=true&wait=5", headers=seated[0].headers)
    assert r.status_code == 200
    assert [i["id"] for i in r.json["items"]] == [match_id]
    _consistent(r.json)
