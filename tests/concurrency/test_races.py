"""Two (eight) clients racing the same turn against real server processes: exactly one
action wins, the others are rejected consistently, and no accepted action is ever lost."""
from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

from tests.support.database import Pg
from tests.support.remote import Table, check_never_lost, race
from tests.support.servers import Server

RACERS = 8


def _bases(a: Server, b: Server) -> list[str]:
    """Half of the racers on each process: the row lock works across processes."""
    return [(a if i % 2 == 0 else b).url for i in range(RACERS)]


def _at_lead(view: dict[str, Any]) -> bool:
    """Nothing pending and nobody has played in the open trick: whatever the seat to act
    does (play or raise), the other seat acts next."""
    hand = view["hand"]
    tricks = hand["tricks"]
    open_trick = tricks[-1] if tricks else None
    return hand["pending"] is None and (
        open_trick is None or not open_trick["plays"]
        or open_trick["winner_team"] is not None or open_trick["tie"])


def _advance_to_lead(table: Table, accepted: list[dict[str, Any]]) -> None:
    for _ in range(10):
        view = table.view(0).json()
        assert view["status"] == "active"
        if _at_lead(view):
            return
        seat = view["hand"]["to_act"][0]
        legal = table.view(seat).json()["legal_actions"]
        body = next(a for a in legal if a["type"] in ("play", "accept"))
        assert table.act(seat, body).status_code == 200
        accepted.append(body)
    raise AssertionError("no lead position within 10 actions")


def test_racing_with_if_match_exactly_one_wins(server_a: Server, server_b: Server,
                                                pg: Pg, app: Any) -> None:
    table = Table(server_a.url)
    accepted: list[dict[str, Any]] = []
    for round_ in range(6):
        seat = table.to_act()
        before = table.view(seat)
        tag, version = before.headers["ETag"], before.json()["version"]
        legal = before.json()["legal_actions"]
        bodies = [legal[i % len(legal)] for i in range(RACERS)]
        count = pg.action_count(table.id)

        answers = race([
            lambda body=body, base=base: table.act(seat, body, base, **{"If-Match": tag})
            for body, base in zip(bodies, _bases(server_a, server_b))])

        statuses = Counter(r.status_code for r in answers)
        assert statuses == {200: 1, 412: RACERS - 1}, (round_, statuses)
        winner = next(i for i, r in enumerate(answers) if r.status_code == 200)
        won = answers[winner]
        assert won.json()["version"] > version
        for r in answers:
            if r.status_code == 412:
                problem = r.json()
                assert problem["code"] == "version_mismatch"
                # the view the loser gets back is the one the winner produced
                assert problem["current"]["version"] == won.json()["version"]
                assert r.headers["ETag"] == won.headers["ETag"]
        assert pg.action_count(table.id) == count + 1
        accepted.append(bodies[winner])
        check_never_lost(app, table.id, accepted)
    print(f"\nIf-Match races: {len(accepted)} rounds of {RACERS}, each 1 x 200 and "
          f"{RACERS - 1} x 412; {pg.action_count(table.id)} actions stored, replay matches")


def test_racing_without_if_match_exactly_one_wins(server_a: Server, server_b: Server,
                                                   pg: Pg, app: Any) -> None:
    table = Table(server_a.url, seed=11)
    accepted: list[dict[str, Any]] = []
    reasons: Counter[str] = Counter()
    for round_ in range(4):
        _advance_to_lead(table, accepted)
        seat = table.to_act()
        legal = table.view(seat).json()["legal_actions"]
        bodies = [legal[i % len(legal)] for i in range(RACERS)]
        count = pg.action_count(table.id)

        answers = race([lambda body=body, base=base: table.act(seat, body, base)
                        for body, base in zip(bodies, _bases(server_a, server_b))])

        statuses = Counter(r.status_code for r in answers)
        assert statuses == {200: 1, 422: RACERS - 1}, (round_, statuses,
                                                      [r.text for r in answers])
        winner = next(i for i, r in enumerate(answers) if r.status_code == 200)
        now = table.view(seat).json()
        assert now["version"] == answers[winner].json()["version"]
        for r in answers:
            if r.status_code == 422:
                problem = r.json()
                assert problem["code"] == "illegal_action"
                reasons[problem["reason"]] += 1
                # rejected against the state the winner left: what the seat may do now
                assert problem["legal_actions"] == now["legal_actions"]
        assert pg.action_count(table.id) == count + 1
        accepted.append(bodies[winner])
        check_never_lost(app, table.id, accepted)
    print(f"\nraces without If-Match: 4 rounds of {RACERS}, each 1 x 200; rejections "
          f"{dict(reasons)}; {pg.action_count(table.id)} actions stored, replay matches")
    assert set(reasons) <= {"not_your_turn", "raise_pending"}


def test_racing_with_one_idempotency_key_applies_once(server_a: Server, server_b: Server,
                                                      pg: Pg, app: Any) -> None:
    table = Table(server_b.url, seed=23)
    accepted: list[dict[str, Any]] = []
    for round_ in range(3):
        seat = table.to_act()
        body = table.view(seat).json()["legal_actions"][0]
        key = str(uuid.uuid4())
        count = pg.action_count(table.id)

        answers = race([lambda base=base: table.act(seat, body, base, **{"Idempotency-Key": key})
                        for base in _bases(server_a, server_b)])

        assert [r.status_code for r in answers] == [200] * RACERS, [r.text for r in answers]
        assert all(r.json() == answers[0].json() for r in answers)
        assert len({r.headers["ETag"] for r in answers}) == 1
        replayed = [r.headers.get("Idempotent-Replayed") for r in answers]
        assert replayed.count("true") == RACERS - 1, replayed
        assert pg.action_count(table.id) == count + 1
        accepted.append(body)
        check_never_lost(app, table.id, accepted)
        # the same key with another body is refused and changes nothing
        other = {"type": "refuse"} if body != {"type": "refuse"} else {"type": "accept"}
        r = table.act(seat, other, **{"Idempotency-Key": key})
        assert r.status_code == 422 and r.json()["code"] == "idempotency_key_reused"
        assert pg.action_count(table.id) == count + 1
    print(f"\nIdempotency-Key races: 3 rounds of {RACERS}, each 8 x 200 (7 replayed), one "
          f"effect; {pg.action_count(table.id)} actions stored, replay matches")
