"""Reviews of finished matches. POST /v1/matches/{id}/review queues the computer's judgement of
every decision (202; 200 when already asked, by anyone); the worker works it out a slice at a
time, fairly between the players who asked, and GET shows it as it stands. Only the match's
players may ask or read; 409 before the end; at most MAX_PENDING waiting per player."""
from __future__ import annotations

import json
import threading
import time
from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.support.api import (act_ok, assert_no_leak, assert_problem, card_strings, create,
                               db_rows, db_scalar, full_match, get_view, join, register,
                               run_worker)
from tests.support.remote import race

# seat 0 holds the three strongest manilhas (vira 3: the fours), seat 1 nothing
DEALS = [{"vira": "3d", "hands": [["4c", "4h", "4s"], ["5d", "6d", "7d"]]}]


def _key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def _review(app: Any, seconds: float = 0.0, game_work: Any = lambda: False) -> bool:
    """One slice of review work, as the worker does it between game steps."""
    from app.db.extensions import db
    from app.play.reviews import review_due

    with app.app_context():
        try:
            return review_due(seconds, game_work=game_work)
        finally:
            db.session.remove()


def _review_all(app: Any) -> int:
    slices = 0
    while _review(app, 0.5):
        slices += 1
    return slices


def _ask(client: Any, match_id: str, player: Any, status: int = 202) -> dict[str, Any]:
    r = client.post(f"/v1/matches/{match_id}/review", headers=player.headers)
    assert r.status_code == status, r.get_data(as_text=True)
    return dict(r.json)


def _read(client: Any, match_id: str, player: Any) -> dict[str, Any]:
    r = client.get(f"/v1/matches/{match_id}/review", headers=player.headers)
    assert r.status_code == 200, r.get_data(as_text=True)
    return dict(r.json)


def _refused_truco(client: Any, ana: Any = None, bia: Any = None) -> tuple[str, list[Any]]:
    """A finished duel in which seat 0 (`ana`, or a new player) refused a truco holding the
    three best cards (a plain mistake), then resigned."""
    ana = ana or register(client, "ana")
    bia = bia or register(client, "bia")
    match_id = create(client, ana, players=2, seat=0, deals=DEALS,
                      options={"first_dealer": 0})["id"]  # (bia, the mão, acts first)
    assert join(client, match_id, bia, seat=1).status_code == 200
    act_ok(client, match_id, bia, {"type": "raise", "to": 3})
    act_ok(client, match_id, ana, {"type": "refuse"})
    r = client.post(f"/v1/matches/{match_id}/resign", headers=ana.headers)
    assert r.status_code == 200
    return match_id, [ana, bia]


def test_a_refused_truco_with_the_best_cards_is_a_mistake(client: Any, app: Any) -> None:
    match_id, (ana, bia) = _refused_truco(client)
    asked = _ask(client, match_id, ana)
    assert asked["status"] == "pending" and asked["decisions"] == []
    assert asked["progress"] == {"reviewed": 0,
                                 "actions": db_scalar(app, "SELECT count(*) FROM actions")}
    assert _review_all(app) >= 1
    review = _read(client, match_id, bia)  # (the other player reads the same review)
    assert review["status"] == "done" and review["completed_at"] is not None
    assert review["progress"]["reviewed"] == review["progress"]["actions"]
    refusal = next(d for d in review["decisions"] if d["played"] == {"type": "refuse"})
    assert refusal["seat"] == 0 and refusal["hand"] == 1 and not refusal["auto_played"]
    assert refusal["cards"] == ["4c", "4h", "4s"]
    assert refusal["mistake"] is True and refusal["loss"] >= review["mistake_loss"]
    chances = {_key(o["action"]): o["chance"] for o in refusal["options"]}
    assert set(chances) == {_key({"type": "accept"}), _key({"type": "refuse"}),
                            _key({"type": "raise", "to": 6})}
    assert refusal["best"] != {"type": "refuse"}
    assert refusal["loss"] == pytest.approx(chances[_key(refusal["best"])]
                                            - chances[_key({"type": "refuse"})], abs=0.002)
    assert all(0.0 <= c <= 1.0 for c in chances.values())
    # the resignation is no decision; every decision had a choice
    assert all(d["played"] != {"type": "resign"} and len(d["options"]) >= 2
               for d in review["decisions"])
    assert [d["action_number"] for d in review["decisions"]] == sorted(
        d["action_number"] for d in review["decisions"])
    # the replay at the decision's step shows the table as the seat saw it: the truco to answer
    seen = client.get(f"/v1/matches/{match_id}/replay?step={refusal['step']}",
                      headers=ana.headers).json["view"]
    assert seen["hand"]["pending"]["to"] == 3 and seen["hand"]["to_act"] == [0]
    after = client.get(f"/v1/matches/{match_id}/replay?step={refusal['step'] + 1}",
                       headers=ana.headers).json["view"]
    assert after["hand"]["number"] == 2 and after["last_hand"]["reason"] == "raise_refused"
    raise_ = next(d for d in review["decisions"] if d["played"] == {"type": "raise", "to": 3})
    before = client.get(f"/v1/matches/{match_id}/replay?step={raise_['step']}",
                        headers=ana.headers).json["view"]
    assert before["hand"]["pending"] is None and before["hand"]["to_act"] == [1]
    tally = {s["seat"]: s for s in review["seats"]}
    assert tally[0]["mistakes"] >= 1 and tally[0]["decisions"] == sum(
        d["seat"] == 0 for d in review["decisions"])
    assert_no_leak(app, match_id, 0, review, "review")


def _hook(client: Any, player: Any, events: list[str]) -> None:
    r = client.post("/v1/me/webhooks", json={"url": "http://127.0.0.1:9/hook",
                                             "events": events}, headers=player.headers)
    assert r.status_code == 201, r.get_data(as_text=True)


def _review_webhooks(app: Any) -> list[Any]:
    return db_rows(app, "SELECT payload FROM webhook_deliveries WHERE event = 'review_done' "
                        "ORDER BY id")


def test_a_done_review_is_a_webhook_to_each_player_with_their_tally(client: Any,
                                                                   app: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    _hook(client, ana, ["review_done"])
    _hook(client, bia, ["your_turn", "match_finished"])  # (bia did not subscribe to it)
    match_id, _ = _refused_truco(client, ana, bia)
    _ask(client, match_id, bia)
    assert _review(app, 0.0) and _read(client, match_id, ana)["status"] == "pending"
    assert _review_webhooks(app) == []  # (only once it is done)
    _review_all(app)
    review = _read(client, match_id, ana)
    (row,) = _review_webhooks(app)
    sent = row.payload
    assert sent["type"] == "review_done"
    assert sent["data"]["match_id"] == match_id and sent["data"]["player_id"] == ana.id
    assert sent["data"]["seat"] == 0 and sent["data"]["your_turn"] is False
    mine = next(s for s in review["seats"] if s["seat"] == 0)
    assert sent["data"]["review"] == {k: mine[k] for k in ("decisions", "mistakes", "loss")}
    assert mine["mistakes"] >= 1 and list(card_strings(sent)) == []


def test_asking_again_gives_the_same_review(client: Any, app: Any) -> None:
    match_id, (ana, bia) = _refused_truco(client)
    first = _ask(client, match_id, ana)
    again = _ask(client, match_id, bia, status=200)
    assert again == first
    assert db_scalar(app, "SELECT count(*) FROM match_reviews") == 1
    _review_all(app)
    done = _ask(client, match_id, ana, status=200)
    assert done["status"] == "done" and done == _read(client, match_id, ana)


def test_the_worker_reviews_a_slice_at_a_time(client: Any, app: Any) -> None:
    from prometheus_client import REGISTRY

    def counted() -> float:
        return REGISTRY.get_sample_value("truco_reviewed_decisions_total") or 0.0

    match_id, (ana, _) = _refused_truco(client)
    _ask(client, match_id, ana)
    seen, before = [], counted()
    while _review(app, 0.0):  # (a slice of no time: one action each)
        review = _read(client, match_id, ana)
        seen.append(review["progress"]["reviewed"])
    assert seen == list(range(1, review["progress"]["actions"] + 1))
    assert review["status"] == "done"
    assert counted() - before == len(review["decisions"]) == 2  # (the raise, the refusal)


def test_a_review_read_again_unchanged_is_a_304(client: Any, app: Any) -> None:
    match_id, (ana, bia) = _refused_truco(client)
    _ask(client, match_id, ana)
    first = client.get(f"/v1/matches/{match_id}/review", headers=ana.headers)
    tag = first.headers["ETag"]
    again = client.get(f"/v1/matches/{match_id}/review",
                       headers={**ana.headers, "If-None-Match": tag})
    assert again.status_code == 304 and again.headers["ETag"] == tag and not again.data
    assert _review(app, 0.0)  # (one more action looked at: a new body, a new tag)
    moved = client.get(f"/v1/matches/{match_id}/review",
                       headers={**ana.headers, "If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    assert moved.json["progress"]["reviewed"] == 1
    # the same review, the same tag for the other player (one body for every player)
    other = client.get(f"/v1/matches/{match_id}/review",
                       headers={**bia.headers, "If-None-Match": moved.headers["ETag"]})
    assert other.status_code == 304


def test_a_slice_gives_way_to_game_work_after_one_decision(client: Any, app: Any) -> None:
    match_id, (ana, _) = _refused_truco(client)
    _ask(client, match_id, ana)
    asked: list[int] = []

    def due() -> bool:
        asked.append(1)
        return len(asked) >= 2  # (a bot's move falls due during the second decision)

    assert _review(app, 60.0, due)
    assert _read(client, match_id, ana)["progress"]["reviewed"] == 2
    assert _review(app, 60.0)  # (nothing due: the rest in one slice)
    assert _read(client, match_id, ana)["status"] == "done"


def test_a_decision_the_search_fails_on_is_left_out(client: Any, app: Any,
                                                    monkeypatch: Any) -> None:
    from app.play import reviews
    from engine.bots.review import review_decision

    def failing(view: dict[str, Any], played: dict[str, Any], seed: int) -> Any:
        if played == {"type": "raise", "to": 3}:
            raise RuntimeError("the search failed")
        return review_decision(view, played, seed)

    monkeypatch.setattr(reviews, "review_decision", failing)
    match_id, (ana, _) = _refused_truco(client)
    _ask(client, match_id, ana)
    _review_all(app)
    review = _read(client, match_id, ana)
    assert review["status"] == "done" and review["progress"]["reviewed"] == 3
    assert [d["played"] for d in review["decisions"]] == [{"type": "refuse"}]


def test_a_review_that_cannot_be_worked_out_is_closed_and_the_next_goes_on(
        client: Any, app: Any, monkeypatch: Any) -> None:
    from app.play import reviews

    broken, (ana, bia) = _refused_truco(client)
    fine, _ = _refused_truco(client, register(client, "cris"), bia)
    real = reviews.replayed

    def failing(match: Any, rows: Any) -> Any:
        if match.id == broken:
            raise RuntimeError("this match does not replay")
        return real(match, rows)

    monkeypatch.setattr(reviews, "replayed", failing)
    _hook(client, ana, ["review_done"])
    _ask(client, broken, ana)
    _ask(client, fine, bia)
    assert _review_all(app) >= 2
    closed = _read(client, broken, ana)
    assert closed["status"] == "done" and closed["progress"]["reviewed"] == 0
    assert _read(client, fine, bia)["status"] == "done"
    # ana is told it is done as it stands: nothing of hers reviewed
    (row,) = _review_webhooks(app)
    assert row.payload["data"]["match_id"] == broken
    assert row.payload["data"]["review"] == {"decisions": 0, "mistakes": 0, "loss": 0.0}


def test_only_the_players_of_a_finished_match(client: Any, app: Any) -> None:
    match_id, (ana, _) = _refused_truco(client)
    cleo = register(client, "cleo")
    assert_problem(client.post(f"/v1/matches/{match_id}/review", headers=cleo.headers),
                   403, "not_a_player")
    assert_problem(client.get(f"/v1/matches/{match_id}/review", headers=ana.headers),
                   404, "review_not_found")
    assert_problem(client.post(f"/v1/matches/{match_id}/review"), 401, "unauthorized")
    _ask(client, match_id, ana)
    assert_problem(client.get(f"/v1/matches/{match_id}/review", headers=cleo.headers),
                   403, "not_a_player")
    assert_problem(client.get(f"/v1/matches/{match_id}/review"), 401, "unauthorized")
    assert_problem(client.post("/v1/matches/m_nothing/review", headers=ana.headers),
                   404, "match_not_found")
    active, (dan, _) = full_match(client, 2)
    assert_problem(client.post(f"/v1/matches/{active}/review", headers=dan.headers),
                   409, "match_not_finished")
    assert_problem(client.post(f"/v1/matches/{match_id}/review", headers=ana.headers,
                               json={"x": 1}), 422, "validation_error")
    assert db_scalar(app, "SELECT count(*) FROM match_reviews") == 1


def _resigned_to_a_bot(client: Any, player: Any, count: int) -> list[str]:
    """`count` finished matches that `player` resigned against an easy bot."""
    finished = []
    for _ in range(count):
        m = create(client, player, bots=[{"seat": 1, "level": "easy"}])
        r = client.post(f"/v1/matches/{m['id']}/resign", headers=player.headers)
        assert r.status_code == 200
        finished.append(m["id"])
    return finished


def test_a_player_has_at_most_three_reviews_waiting(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    finished = _resigned_to_a_bot(client, ana, 4)
    for match_id in finished[:3]:
        _ask(client, match_id, ana)
    r = client.post(f"/v1/matches/{finished[3]}/review", headers=ana.headers)
    assert_problem(r, 429, "rate_limited")
    assert db_scalar(app, "SELECT count(*) FROM match_reviews") == 3
    while _review(app, 0.5):
        pass
    _ask(client, finished[3], ana)  # (none waiting now)


def test_one_players_asks_at_once_stop_at_three_waiting(client: Any, app: Any) -> None:
    # (without the lock on the asker, 5 or 6 of 10 asks at once were queued)
    ana = register(client, "ana")
    finished = _resigned_to_a_bot(client, ana, 10)
    answers = race([  # (a test client, and an app context, per thread)
        lambda m=m: app.test_client().post(f"/v1/matches/{m}/review", headers=ana.headers)
        for m in finished])
    assert sorted(r.status_code for r in answers) == [202] * 3 + [429] * 7
    assert db_scalar(app, "SELECT count(*) FROM match_reviews") == 3


def test_the_worker_serves_the_player_it_served_least_recently(client: Any, app: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    ana_matches = [_refused_truco(client, ana, bia) for _ in range(3)]
    bia_match, _ = _refused_truco(client, ana, bia)
    for match_id, (ana, _) in ana_matches:
        _ask(client, match_id, ana)
    asked = [(m, p[0]) for m, p in ana_matches]
    served: list[str] = []
    for turn in range(4):
        if turn == 1:
            _ask(client, bia_match, bia)  # (asked after ana's three, served next)
            asked.append((bia_match, bia))
        before = {m: _read(client, m, p)["progress"]["reviewed"] for m, p in asked}
        assert _review(app, 0.0)
        served += [m for m, p in asked if _read(client, m, p)["progress"]["reviewed"] > before[m]]
    ana_ids = [m for m, _ in ana_matches]
    assert served == [ana_ids[0], bia_match, ana_ids[1], bia_match]


def test_a_bots_and_an_absent_players_decisions(client: Any, app: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, players=2, bots=[{"seat": 1, "level": "easy"}], turn_timeout=60,
               deals=DEALS, options={"first_dealer": 1})
    view = get_view(client, m["id"], ana)
    assert view["hand"]["to_act"] == [0]
    deadline = datetime.fromisoformat(view["deadline"].replace("Z", "+00:00"))
    run_worker(app, now=deadline + timedelta(seconds=1))  # (ana away: the easy bot plays)
    if get_view(client, m["id"], ana)["status"] == "active":
        assert client.post(f"/v1/matches/{m['id']}/resign",
                           headers=ana.headers).status_code == 200
    _ask(client, m["id"], ana)
    _review_all(app)
    review = _read(client, m["id"], ana)
    first = review["decisions"][0]
    assert first["action_number"] == 1 and first["seat"] == 0 and first["auto_played"]
    bots = [d for d in review["decisions"] if d["seat"] == 1]
    assert bots and not any(d["auto_played"] for d in bots)
    tally = {s["seat"]: s["decisions"] for s in review["seats"]}
    assert tally.get(0, 0) == sum(d["seat"] == 0 and not d["auto_played"]
                                  for d in review["decisions"])
    assert tally[1] == len(bots)


def test_a_blind_hand_of_four_is_reviewed_by_slot(client: Any, app: Any) -> None:
    """At 11 x 11 the last hand is a mão de ferro played blind, by slot: every decision of it
    is reviewed (the cards each seat held named, as its players may see them now)."""
    import random

    from tests.support.api import play_out

    match_id, seated = full_match(client, 4, start_score=[11, 11])
    assert get_view(client, match_id, seated[0])["hand"]["special"] == "mao_de_ferro"
    play_out(client, match_id, seated, random.Random(3))
    _ask(client, match_id, seated[0])
    _review_all(app)
    review = _read(client, match_id, seated[2])
    choices = db_scalar(app, "SELECT count(*) FROM actions")  # (each had a choice: 4 cards+)
    assert review["status"] == "done" and review["progress"]["reviewed"] == choices
    played = [d for d in review["decisions"] if d["played"]["type"] == "play"]
    assert played and all("slot" in d["played"] and "card" not in d["played"] for d in played)
    assert all(len(d["cards"]) == len(d["options"]) for d in played)
    assert {d["seat"] for d in review["decisions"]} <= {0, 1, 2, 3}
    assert sum(s["decisions"] for s in review["seats"]) == len(review["decisions"])


def test_a_running_worker_completes_a_review(client: Any, app: Any) -> None:
    from app.play.background import Worker

    match_id, (ana, _) = _refused_truco(client)
    worker = Worker(app, poll_seconds=0.2, deliveries=False, housekeeping=False)
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    try:
        _ask(client, match_id, ana)
        until = time.monotonic() + 30
        while _read(client, match_id, ana)["status"] != "done":
            assert time.monotonic() < until, "the worker did not finish the review"
            time.sleep(0.1)
    finally:
        worker.stop.set()
        thread.join(10)
