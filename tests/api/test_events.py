"""GET /v1/matches/{id}/events: paging with after/limit/next_after, the shape of events, and the
stored state equal to the replay of the recorded actions."""
from __future__ import annotations

import random
from typing import Any

import pytest

from tests.support.api import (F1, act_ok, assert_problem, create, db_rows, deal, full_match,
                               get_events, get_view, play_out, random_step, register,
                               replayed_and_stored, run_worker)


def _page(client: Any, match_id: str, query: str = "", player: Any = None) -> dict[str, Any]:
    r = client.get(f"/v1/matches/{match_id}/events{query}",
                   headers={} if player is None else player.headers)
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.json


def test_event_shape_and_sequence(client: Any) -> None:
    match_id, seated = full_match(client, players=4, options={"first_dealer": 3},
                                  deals=[deal(F1)])
    for seat, action in [(0, {"type": "raise"}), (1, {"type": "accept"}),
                         (0, {"type": "play", "card": "5c"}), (1, {"type": "play", "card": "2c"}),
                         (2, {"type": "play", "card": "Qd"}), (3, {"type": "play", "card": "Ah"})]:
        act_ok(client, match_id, seated[seat], action)
    version = get_view(client, match_id)["version"]
    for viewer in (None, *seated):
        events = get_events(client, match_id, viewer)
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        versions = [e["version"] for e in events]
        assert versions == sorted(versions) and versions[-1] == version
        for e in events:
            assert isinstance(e["type"], str) and e["at"] and isinstance(e["version"], int)
        assert [e["type"] for e in events] == [
            "player_joined", "player_joined", "player_joined", "player_joined",
            "match_started", "hand_dealt", "raised", "raise_accepted",
            "card_played", "card_played", "card_played", "card_played", "trick_won"]
        raised = events[6]
        assert (raised["seat"], raised["to"]) == (0, 3)
        assert events[-1]["winner_team"] == 0


def test_paging_with_after_and_limit(client: Any) -> None:
    match_id, seated = full_match(client, players=2, seed=3)
    rng = random.Random(3)
    for _ in range(6):
        random_step(client, match_id, seated, rng)
    everything = _page(client, match_id)["items"]
    total = len(everything)
    assert total >= 8

    seen: list[dict[str, Any]] = []
    after = 0
    while True:
        page = _page(client, match_id, f"?after={after}&limit=3")
        assert len(page["items"]) <= 3
        if not page["items"]:
            assert page["next_after"] == after
            break
        assert [e["seq"] for e in page["items"]] == list(range(after + 1,
                                                               after + 1 + len(page["items"])))
        assert page["next_after"] == page["items"][-1]["seq"]
        seen.extend(page["items"])
        after = page["next_after"]
    assert seen == everything
    assert after == total

    assert _page(client, match_id, f"?after={total}") == {"items": [], "next_after": total}
    # a cursor past the log's end is a mistake said at once (as the stream's Last-Event-ID),
    # not an empty page or a long poll that waits for events that cannot come
    for wait in ("", "&wait=30"):
        body = assert_problem(client.get(f"/v1/matches/{match_id}/events?after={total + 1}"
                                         f"{wait}"), 422, "validation_error")
        assert body["errors"] == {"after": [f"must be at most {total}"]}
    assert [e["seq"] for e in _page(client, match_id, "?after=2&limit=1")["items"]] == [3]
    assert len(_page(client, match_id, "?limit=500")["items"]) == total


def test_new_events_appear_after_next_after(client: Any) -> None:
    match_id, seated = full_match(client, players=2, options={"first_dealer": 1},
                                  deals=[{"vira": "4d", "hands": [["5c", "3h", "6c"],
                                                                  ["2c", "Kd", "6d"]]}])
    mark = _page(client, match_id)["next_after"]
    act_ok(client, match_id, seated[0], {"type": "play", "card": "3h"})
    page = _page(client, match_id, f"?after={mark}")
    assert [e["type"] for e in page["items"]] == ["card_played"]
    assert page["items"][0]["seq"] == mark + 1
    assert page["items"][0]["card"] == "3h" and page["items"][0]["trick"] == 1


def test_a_long_poll_with_nothing_new_answers_304_and_one_with_news_200(client: Any) -> None:
    """The event log's long poll ends as the match's does (API.md): 304 with no body when the
    wait runs out; an event already there is answered at once, whatever the wait."""
    import time

    match_id, seated = full_match(client, players=2)
    mark = _page(client, match_id)["next_after"]
    start = time.monotonic()
    r = client.get(f"/v1/matches/{match_id}/events?after={mark}&wait=1")
    assert r.status_code == 304 and r.get_data() == b""
    assert "Content-Type" not in r.headers and "ETag" not in r.headers
    assert r.headers["Cache-Control"] == "private, no-cache"
    assert time.monotonic() - start >= 0.9
    start = time.monotonic()
    page = _page(client, match_id, f"?after={mark - 1}&wait=30")
    assert [e["seq"] for e in page["items"]] == [mark] and time.monotonic() - start < 5


@pytest.mark.parametrize("query", ["?limit=0", "?limit=501", "?limit=-5", "?limit=ten",
                                   "?after=-1", "?after=x", "?wait=61", "?wait=-1"])
def test_bad_paging_is_422(client: Any, query: str) -> None:
    match_id, _ = full_match(client, players=2)
    body = assert_problem(client.get(f"/v1/matches/{match_id}/events{query}"), 422,
                          "validation_error")
    assert query[1:].split("=")[0] in body["errors"]


def test_events_of_an_unknown_match_are_404(client: Any) -> None:
    assert_problem(client.get("/v1/matches/m_nope/events"), 404, "match_not_found")


def test_a_waiting_match_has_its_joins(client: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=4)
    items = _page(client, m["id"])["items"]
    assert [(e["type"], e["seat"]) for e in items] == [("player_joined", 0)]


@pytest.mark.parametrize(("seed", "players"), [(11, 2), (12, 4), (13, 6)])
def test_stored_state_is_the_replay_of_the_recorded_actions(client: Any, app: Any, seed: int,
                                                            players: int) -> None:
    match_id, seated = full_match(client, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(15):  # mid-match too
        random_step(client, match_id, seated, rng)
    replayed, stored = replayed_and_stored(app, match_id)
    assert replayed == stored
    final = play_out(client, match_id, seated, rng)
    assert final["status"] == "finished"
    replayed, stored = replayed_and_stored(app, match_id)
    assert replayed == stored
    assert replayed["status"] == "finished"
    n = len(db_rows(app, "SELECT n FROM actions WHERE match_id = :m", m=match_id))
    assert n > 15
    events = get_events(client, match_id, seated[0])
    assert events[-1]["type"] == "match_won"
    assert events[-1]["winner_team"] == final["winner_team"]


def test_replay_covers_bots_and_resignation(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}], seed=8)
    rng = random.Random(8)
    run_worker(app)
    view = get_view(client, m["id"], ana)
    for _ in range(10):
        if view["status"] != "active":
            break
        act_ok(client, m["id"], ana, rng.choice(view["legal_actions"]))
        run_worker(app)  # the bot's answers
        view = get_view(client, m["id"], ana)
    if view["status"] == "active":
        assert client.post(f"/v1/matches/{m['id']}/resign",
                           headers=ana.headers).status_code == 200
    replayed, stored = replayed_and_stored(app, m["id"])
    assert replayed == stored and stored["status"] == "finished"
