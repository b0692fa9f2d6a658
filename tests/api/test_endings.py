"""How a match ended (`end_reason` in the view, the summaries, the match-ending event and the
`match_finished` webhook), a forfeit by time as its own event, the `turn_timed_out` webhook,
and the hand's calls in the view."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any


from tests.support.api import (D2, F1, act_ok, create, db_rows, deal, deliver, full_match,
                               get_events, get_view, my_matches, register, run_worker)
from tests.support.webhook_receiver import Receiver


def add_hook(client: Any, player: Any, url: str, events: list[str]) -> None:
    r = client.post("/v1/me/webhooks", json={"url": url, "events": events},
                    headers=player.headers)
    assert r.status_code == 201, r.get_data(as_text=True)


def _past_deadline(view: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(view["deadline"].replace("Z", "+00:00")) + timedelta(seconds=1)


def assert_ended(client: Any, match_id: str, player: Any, reason: str) -> None:
    """The view, the player's summary and the match_won event all say `reason`."""
    view = get_view(client, match_id, player)
    assert view["status"] == "finished" and view["end_reason"] == reason
    assert get_view(client, match_id)["end_reason"] == reason  # a spectator too
    (item,) = [i for i in my_matches(client, player) if i["id"] == match_id]
    assert item["end_reason"] == reason
    (won,) = [e for e in get_events(client, match_id, player) if e["type"] == "match_won"]
    assert won["end_reason"] == reason


def test_an_active_match_has_no_end_reason(client: Any) -> None:
    match_id, (ana, _) = full_match(client, 2)
    assert get_view(client, match_id, ana)["end_reason"] is None
    assert get_view(client, match_id, ana)["rematch_id"] is None
    assert [i["end_reason"] for i in my_matches(client, ana)] == [None]


def test_a_match_played_to_twelve_ends_by_score(client: Any) -> None:
    match_id, seated = full_match(client, 2, start_score=[11, 0], deals=[deal(D2)],
                                  options={"first_dealer": 1})
    for _ in range(300):
        view = get_view(client, match_id, seated[0])
        if view["status"] != "active":
            break
        seat = view["hand"]["to_act"][0]
        mine = get_view(client, match_id, seated[seat])
        plays = [a for a in mine["legal_actions"] if a["type"] != "raise"]
        act_ok(client, match_id, seated[seat], plays[0])
    assert_ended(client, match_id, seated[0], "score")


def test_a_resignation_ends_as_resigned_in_the_webhook_too(client: Any, app: Any,
                                                            hook: Receiver) -> None:
    match_id, (ana, bia) = full_match(client, 2)
    add_hook(client, bia, hook.url("/bia"), ["match_finished"])
    assert client.post(f"/v1/matches/{match_id}/resign", headers=ana.headers).status_code == 200
    assert_ended(client, match_id, bia, "resigned")
    deliver(app)
    (got,) = [h.json for h in hook.received]
    assert got["type"] == "match_finished"
    assert got["data"]["end_reason"] == "resigned" and got["data"]["winner_team"] == 1


def test_a_forfeit_by_time_is_match_forfeited_never_player_resigned(
        client: Any, app: Any, hook: Receiver) -> None:
    match_id, (ana, bia) = full_match(client, 2, turn_timeout=60, on_timeout="forfeit",
                                      options={"first_dealer": 1})
    add_hook(client, ana, hook.url("/ana"), ["turn_timed_out", "match_finished"])
    view = get_view(client, match_id, ana)
    assert view["hand"]["to_act"] == [0]
    assert run_worker(app, now=_past_deadline(view)) == 1
    assert_ended(client, match_id, bia, "timed_out")
    events = get_events(client, match_id, bia)
    types = [e["type"] for e in events]
    assert "player_resigned" not in types
    (forfeited,) = [e for e in events if e["type"] == "match_forfeited"]
    assert {k: forfeited[k] for k in ("team", "seat", "reason")} == {
        "team": 0, "seat": 0, "reason": "timed_out"}
    deliver(app)
    got = {h.json["type"]: h.json["data"] for h in hook.received}
    assert got["turn_timed_out"]["outcome"] == "forfeit" and got["turn_timed_out"]["seat"] == 0
    assert got["match_finished"]["end_reason"] == "timed_out"


def test_an_auto_played_turn_is_told_to_its_seat_only(client: Any, app: Any,
                                                        hook: Receiver) -> None:
    match_id, (ana, bia) = full_match(client, 2, turn_timeout=60, options={"first_dealer": 1})
    add_hook(client, ana, hook.url("/ana"), ["turn_timed_out"])
    add_hook(client, bia, hook.url("/bia"), ["turn_timed_out"])
    view = get_view(client, match_id, ana)
    run_worker(app, now=_past_deadline(view))
    deliver(app)
    (got,) = [(h.path, h.json) for h in hook.received]
    assert got[0] == "/ana" and got[1]["type"] == "turn_timed_out"
    assert got[1]["data"]["outcome"] == "auto_play" and got[1]["data"]["abandoned"] is False
    assert got[1]["data"]["your_turn"] is False  # ana led: bia answers the card
    assert get_view(client, match_id, ana)["end_reason"] is None


def test_an_auto_played_turn_says_when_the_seat_must_act_again(client: Any, app: Any,
                                                                hook: Receiver) -> None:
    # bia leads 4c; ana's deadline passes and the easy rule wins the trick for her with Qh,
    # so she leads the next trick: the webhook says it is her turn again
    hands = {"vira": "4d", "hands": [["Kc", "Qh", "Jd"], ["4c", "6h", "7s"]]}
    match_id, (ana, bia) = full_match(client, 2, turn_timeout=60, options={"first_dealer": 0},
                                      deals=[deal(hands)])
    add_hook(client, ana, hook.url("/ana"), ["turn_timed_out"])
    act_ok(client, match_id, bia, {"type": "play", "card": "4c"})
    view = get_view(client, match_id, ana)
    assert view["hand"]["to_act"] == [0]
    assert run_worker(app, now=_past_deadline(view)) == 1
    after = get_view(client, match_id, ana)
    assert after["hand"]["tricks"][0]["plays"][1]["card"] == "Qh"
    assert after["hand"]["to_act"] == [0]
    deliver(app)
    (got,) = [h.json for h in hook.received]
    assert got["type"] == "turn_timed_out" and got["data"]["outcome"] == "auto_play"
    assert got["data"]["your_turn"] is True


def test_a_match_everyone_left_is_cancelled(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=2)
    r = client.post(f"/v1/matches/{m['id']}/leave", headers=ana.headers)
    assert r.status_code == 200 and r.json["status"] == "cancelled"
    assert r.json["end_reason"] == "cancelled"
    assert get_view(client, m["id"])["end_reason"] == "cancelled"
    (row,) = db_rows(app, "SELECT end_reason FROM matches")
    assert row.end_reason == "cancelled"
    (cancelled,) = [e for e in get_events(client, m["id"]) if e["type"] == "match_cancelled"]
    assert cancelled["end_reason"] == "cancelled"


def test_the_view_shows_the_calls_to_players_and_spectators(client: Any) -> None:
    match_id, seated = full_match(client, 4, options={"first_dealer": 3}, deals=[deal(F1)])
    act_ok(client, match_id, seated[0], {"type": "raise"})
    act_ok(client, match_id, seated[3], {"type": "accept"})
    calls = [{"seat": 0, "action": "raise", "to": 3}, {"seat": 3, "action": "accept"}]
    for viewer in (*seated, None):
        assert get_view(client, match_id, viewer)["hand"]["calls"] == calls
