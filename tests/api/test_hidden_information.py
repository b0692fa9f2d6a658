"""Hidden information: nobody is ever shown a card they may not know — not in views, not in
action answers, not in `last_hand`, not in the event log (API.md "The match view", Events;
RULES.md §7.2, §8.2, §9.3)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from tests.support.api import (F1, F2, R18, act, act_ok, assert_no_leak, card_strings, deal,
                               full_match, get_events, get_view, knowable_cards, register)

NORMAL = {"options": {"first_dealer": 3}, "deals": [deal(F1)]}
ALL_F1 = {c for hand in F1["hands"] for c in hand}


def _play(card: str, face_down: bool = False) -> dict[str, Any]:
    return {"type": "play", "card": card, **({"face_down": True} if face_down else {})}


def test_spectators_see_no_card_in_any_hand(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **NORMAL)
    eve = register(client, "eve")
    act_ok(client, match_id, seated[0], _play("5c"))
    for viewer in (None, eve):
        r = client.get(f"/v1/matches/{match_id}", headers={} if viewer is None else
                       viewer.headers)
        view = r.json
        assert view["you"] is None
        assert view["hand"]["cards"] is None
        assert view["hand"]["partner_cards"] is None
        assert view["legal_actions"] == []
        assert [s["cards_in_hand"] for s in view["seats"]] == [2, 3, 3, 3]
        shown = {c for _, c in card_strings(view)}
        assert shown == {"4d", "5c"}  # the vira and the one card on the table
        text = r.get_data(as_text=True)
        for card in ALL_F1 - {"5c"}:
            assert f'"{card}"' not in text, card
        events = get_events(client, match_id, viewer)
        dealt = [e for e in events if e["type"] == "hand_dealt"]
        assert len(dealt) == 1
        assert "hands" not in dealt[0]
        assert not dealt[0].get("cards")
        assert not dealt[0].get("partner_cards")
        assert {c for _, c in card_strings(events)} == {"4d", "5c"}


def test_each_seat_sees_only_its_own_cards(client: Any) -> None:
    match_id, seated = full_match(client, players=4, **NORMAL)
    for seat, player in enumerate(seated):
        view = get_view(client, match_id, player)
        assert view["you"] == {"seat": seat, "team": seat % 2}
        assert view["hand"]["cards"] == F1["hands"][seat]
        assert view["hand"]["partner_cards"] is None
        others = ALL_F1 - set(F1["hands"][seat])
        assert not others & {c for _, c in card_strings(view)}
        events = get_events(client, match_id, player)
        dealt = [e for e in events if e["type"] == "hand_dealt"][0]
        assert "hands" not in dealt
        assert dealt["cards"] == F1["hands"][seat]
        assert not others & {c for _, c in card_strings(events)}


def _face_down_table(client: Any) -> tuple[str, list[Any]]:
    """R-18 through trick 2: s0 plays 3c face down, s1 4h, s2 Jh face down, s3 5h."""
    match_id, seated = full_match(client, players=4, options={"first_dealer": 3},
                                  deals=[deal(R18)])
    for seat, card in enumerate(["Ac", "6d", "Qs", "6s"]):
        act_ok(client, match_id, seated[seat], _play(card))
    act_ok(client, match_id, seated[0], _play("3c", face_down=True))
    act_ok(client, match_id, seated[1], _play("4h"))
    act_ok(client, match_id, seated[2], _play("Jh", face_down=True))
    return match_id, seated


def test_face_down_cards_show_only_to_their_player(client: Any, app: Any) -> None:
    match_id, seated = _face_down_table(client)
    eve = register(client, "eve")

    def trick2(viewer: Any) -> list[Any]:
        return [(p["seat"], p["card"], p["face_down"])
                for p in get_view(client, match_id, viewer)["hand"]["tricks"][1]["plays"]]

    assert trick2(seated[0]) == [(0, "3c", True), (1, "4h", False), (2, None, True)]
    assert trick2(seated[2]) == [(0, None, True), (1, "4h", False), (2, "Jh", True)]
    for viewer in (seated[1], seated[3], eve, None):
        assert trick2(viewer) == [(0, None, True), (1, "4h", False), (2, None, True)]

    # in the event log too
    for seat, viewer in [(0, seated[0]), (1, seated[1]), (2, seated[2]), (None, eve)]:
        played = [(e["seat"], e["card"], e["face_down"])
                  for e in get_events(client, match_id, viewer)
                  if e["type"] == "card_played" and e["trick"] == 2]
        assert played == [(0, "3c" if seat == 0 else None, True), (1, "4h", False),
                          (2, "Jh" if seat == 2 else None, True)]

    # and in last_hand once the hand is over (s3 wins trick 2, then trick 3 ends the hand)
    for seat, card in [(3, "5h"), (3, "4c"), (0, "2d"), (1, "5c"), (2, "7d")]:
        act_ok(client, match_id, seated[seat], _play(card))
    for seat, viewer in [(0, seated[0]), (1, seated[1]), (2, seated[2]), (3, seated[3]),
                         (None, None)]:
        view = get_view(client, match_id, viewer)
        assert view["last_hand"]["number"] == 1 and view["hand"]["number"] == 2
        plays = view["last_hand"]["tricks"][1]["plays"]
        assert plays[0] == {"seat": 0, "card": "3c" if seat == 0 else None, "face_down": True}
        assert plays[2] == {"seat": 2, "card": "Jh" if seat == 2 else None, "face_down": True}
        assert assert_no_leak(app, match_id, seat, view, "last_hand") > 0


def test_mao_de_onze_shows_partner_cards_to_the_eleven_team_only(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, options={"first_dealer": 3},
                                  deals=[deal(F2)], start_score=[11, 5])
    expected = {0: {"2": ["Qd", "Js", "4s"]}, 2: {"0": ["3h", "Kc", "6c"]}, 1: None, 3: None}
    for seat, player in enumerate(seated):
        view = get_view(client, match_id, player)
        assert view["hand"]["special"] == "mao_de_onze"
        assert view["hand"]["cards"] == F2["hands"][seat]
        assert view["hand"]["partner_cards"] == expected[seat]
        dealt = [e for e in get_events(client, match_id, player) if e["type"] == "hand_dealt"]
        assert dealt[0]["cards"] == F2["hands"][seat]
        assert dealt[0].get("partner_cards") == expected[seat]
        assert "hands" not in dealt[0]
    assert get_view(client, match_id)["hand"]["partner_cards"] is None
    # still shown while the hand is played, minus the cards already on the table
    act_ok(client, match_id, seated[0], {"type": "accept"})
    act_ok(client, match_id, seated[0], _play("3h"))
    assert get_view(client, match_id, seated[2])["hand"]["partner_cards"] == {"0": ["Kc", "6c"]}
    assert get_view(client, match_id, seated[1])["hand"]["partner_cards"] is None


def test_blind_mao_de_ferro_hides_your_own_cards(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, options={"first_dealer": 3},
                                  deals=[deal(F2)], start_score=[11, 11])
    for seat, player in enumerate(seated):
        view = get_view(client, match_id, player)
        assert view["hand"]["special"] == "mao_de_ferro"
        assert view["hand"]["cards"] == [None, None, None]
        assert view["hand"]["partner_cards"] is None
        assert not {c for _, c in card_strings(view)} - {"4d"}
        dealt = [e for e in get_events(client, match_id, player) if e["type"] == "hand_dealt"]
        assert dealt[0]["cards"] == [None, None, None] and "hands" not in dealt[0]
    legal = get_view(client, match_id, seated[0])["legal_actions"]
    assert legal == [{"type": "play", "slot": i} for i in range(3)]
    # a slot play turns the card up for everyone; the rest stay hidden
    view = act_ok(client, match_id, seated[0], {"type": "play", "slot": 0})
    assert view["hand"]["tricks"][0]["plays"] == [{"seat": 0, "card": "3h", "face_down": False}]
    assert view["hand"]["cards"] == [None, None]
    assert {c for _, c in card_strings(view)} == {"4d", "3h"}


def test_the_finished_log_is_open_to_players_only(client: Any, app: Any) -> None:
    match_id, seated = _face_down_table(client)
    eve = register(client, "eve")
    for viewer in (*seated, None):
        for e in get_events(client, match_id, viewer):
            assert "hands" not in e
    assert client.post(f"/v1/matches/{match_id}/resign",
                       headers=seated[3].headers).status_code == 200

    for seat, player in enumerate(seated):
        events = get_events(client, match_id, player)
        dealt = [e for e in events if e["type"] == "hand_dealt"][0]
        assert dealt["hands"] == R18["hands"]
        assert dealt["cards"] == R18["hands"][seat]  # the shape of the log in play, and more
        assert dealt["partner_cards"] is None
        played = {(e["seat"], e["card"]) for e in events if e["type"] == "card_played"}
        assert {(0, "3c"), (2, "Jh")} <= played
    for viewer in (None, eve):
        events = get_events(client, match_id, viewer)
        dealt = [e for e in events if e["type"] == "hand_dealt"][0]
        assert "hands" not in dealt and not dealt.get("cards")
        face_down = [e["card"] for e in events if e["type"] == "card_played" and e["face_down"]]
        assert face_down == [None, None]
        assert assert_no_leak(app, match_id, None, events, "spectator log") > 0
    # the finished view itself still hides what was face down from the others
    view = get_view(client, match_id, seated[1])
    assert view["status"] == "finished"
    assert view["hand"]["tricks"][1]["plays"][0] == {"seat": 0, "card": None, "face_down": True}


def test_the_leak_check_is_not_vacuous(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **NORMAL)
    assert knowable_cards(app, match_id, None) == {"4d"}
    assert knowable_cards(app, match_id, 1) == {"4d", "2c", "Kd", "6d"}
    view = get_view(client, match_id, seated[1])
    assert assert_no_leak(app, match_id, 1, view) >= 4
    forged = {**view, "hand": {**view["hand"], "partner_cards": {"3": ["Ah", "Jc", "7c"]}}}
    with pytest.raises(AssertionError, match="Ah"):
        assert_no_leak(app, match_id, 1, forged)
    with pytest.raises(AssertionError, match="5c"):
        assert_no_leak(app, match_id, None, {"items": [{"cards": ["5c"]}]})
    # the public list of manilhas names cards without placing them
    assert assert_no_leak(app, match_id, None, {"manilhas": ["5c", "5h", "5s", "5d"]}) == 0


class Table:
    """Every viewer of one match, each with the event log read so far."""

    def __init__(self, client: Any, app: Any, match_id: str, seated: list[Any],
                 outsider: Any) -> None:
        self.client, self.app, self.match_id = client, app, match_id
        self.viewers: list[tuple[int | None, Any]] = [(i, p) for i, p in enumerate(seated)]
        self.viewers += [(None, None), (None, outsider)]
        self.after = [0] * len(self.viewers)
        self.checked = 0

    def check_all(self) -> None:
        for i, (seat, player) in enumerate(self.viewers):
            view = get_view(self.client, self.match_id, player)
            self.checked += assert_no_leak(self.app, self.match_id, seat, view, "view")
            events = get_events(self.client, self.match_id, player, after=self.after[i])
            self.checked += assert_no_leak(self.app, self.match_id, seat, events, "events")
            if events:
                self.after[i] = events[-1]["seq"]


@pytest.mark.parametrize(("seed", "players", "start_score"), [
    (101, 4, None), (202, 4, [11, 5]), (303, 4, [11, 11]), (404, 2, [10, 10]),
    (505, 6, [5, 11]),
])
def test_no_response_ever_shows_an_unknowable_card(client: Any, app: Any, seed: int,
                                                   players: int, start_score: Any) -> None:
    """Random legal play to the end; every answer, view and event page of every seat and of
    two spectators is walked for card codes, each checked against what that viewer may know."""
    setup: dict[str, Any] = {"seed": seed}
    if start_score:
        setup["start_score"] = start_score
    match_id, seated = full_match(client, players=players, **setup)
    table = Table(client, app, match_id, seated, register(client, "outsider"))
    rng = random.Random(seed)
    table.check_all()
    for _ in range(400):
        view = get_view(client, match_id)
        if view["status"] != "active":
            break
        seat = rng.choice(view["hand"]["to_act"])
        mine = get_view(client, match_id, seated[seat])
        r = act(client, match_id, seated[seat], rng.choice(mine["legal_actions"]))
        assert r.status_code == 200
        table.checked += assert_no_leak(app, match_id, seat, r.json, "action answer")
        # a rejected action's problem carries the caller's legal_actions: check it too
        wrong = act(client, match_id, seated[seat], {"type": "accept"})
        if wrong.status_code == 422:
            assert_no_leak(app, match_id, seat, wrong.json, "problem")
        table.check_all()
    else:
        # long matches are fine: end them to check the finished log as well
        client.post(f"/v1/matches/{match_id}/resign", headers=seated[0].headers)
    assert get_view(client, match_id)["status"] == "finished"
    table.after = [0] * len(table.viewers)
    table.check_all()
    assert table.checked > 100
