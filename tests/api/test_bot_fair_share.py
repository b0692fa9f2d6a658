"""Bots under abuse: one player cannot keep more built-in bots busy than the caps allow,
and the worker shares its time between the players whose bots are due, so many matches of
one player never hold back another player's bot (app/play/bot_quota.py, app/play/bot_shares.py)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from tests.support.api import assert_problem, create, db_execute, db_scalar, register
from tests.support.database import libpq_url


def bot_leads(client: Any, player: Any, level: str = "random", **body: Any) -> dict[str, Any]:
    """A 2-player match against a bot that acts first (due for the worker at once)."""
    return create(client, player, bots=[{"seat": 1, "level": level}], seed=3,
                  options={"first_dealer": 0}, **body)


def run_steps(app: Any, steps: int, shares: Any = None) -> int:
    from app.play.bot_shares import Shares
    from app.db.extensions import db
    from app.play.background import run_due

    with app.app_context():
        try:
            return run_due(limit=steps, shares=shares or Shares())
        finally:
            db.session.remove()


def bot_moves(app: Any, match_id: str) -> int:
    return db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m AND player_id "
                          "IS NULL", m=match_id)


def test_a_player_with_many_matches_due_does_not_hold_back_anothers_bot(
        client: Any, app: Any) -> None:
    attacker, victim = register(client, "many"), register(client, "one")
    theirs = [bot_leads(client, attacker)["id"] for _ in range(6)]
    db_execute(app, "UPDATE matches SET due_at = now() - interval '1 minute' "
                   "WHERE id = ANY(:ids)", ids=theirs)  # due long before
    mine = bot_leads(client, victim)["id"]
    assert run_steps(app, 2) == 2
    assert bot_moves(app, mine) == 1  # the second step is the victim's, not the attacker's
    assert sum(bot_moves(app, m) for m in theirs) == 1


def test_an_owners_clock_moves_on_by_what_their_steps_cost() -> None:
    from app.play.bot_shares import Shares

    shares, t0 = Shares(), datetime(2026, 12, 1, tzinfo=timezone.utc)
    shares.charge("a", t0, timedelta(seconds=0.25))
    shares.charge("a", t0, timedelta(seconds=0.25))  # behind its own earlier work
    shares.charge("b", t0 + timedelta(seconds=1), timedelta(seconds=0.01))
    assert shares.clocks(t0) == {"a": t0 + timedelta(seconds=0.5),
                                 "b": t0 + timedelta(seconds=1.01)}
    assert shares.clocks(t0 + timedelta(seconds=61)) == {"b": t0 + timedelta(seconds=1.01)}
    assert shares.clocks(t0 + timedelta(seconds=62)) == {}  # idle owners are forgotten


@pytest.fixture()
def caps(app: Any) -> Any:
    saved = app.config["MAX_BOT_MATCHES"], app.config["MAX_HARD_BOTS"]
    app.config["MAX_BOT_MATCHES"], app.config["MAX_HARD_BOTS"] = 2, 3
    yield
    app.config["MAX_BOT_MATCHES"], app.config["MAX_HARD_BOTS"] = saved


def test_bot_matches_per_player_are_capped_until_one_ends(client: Any, app: Any,
                                                          caps: None) -> None:
    ana = register(client, "ana")
    first = bot_leads(client, ana)
    bot_leads(client, ana)
    before = db_scalar(app, "SELECT count(*) FROM matches")
    r = client.post("/v1/matches", json={"bots": [{"seat": 1, "level": "random"}]},
                    headers=ana.headers)
    assert_problem(r, 409, "too_many_bot_matches")
    assert r.json["limit"] == 2
    assert db_scalar(app, "SELECT count(*) FROM matches") == before  # nothing created
    create(client, ana, players=2)  # a match without bots is not counted
    other = register(client, "bia")
    bot_leads(client, other)  # the cap is per player
    assert client.post(f"/v1/matches/{first['id']}/resign",
                       headers=ana.headers).status_code == 200
    bot_leads(client, ana)  # a finished match frees its place


def test_hard_seats_per_player_are_capped(client: Any, app: Any, caps: None) -> None:
    ana = register(client, "ana")
    create(client, ana, players=4, seat=0,
           bots=[{"seat": s, "level": "hard"} for s in (1, 2, 3)])
    r = client.post("/v1/matches", json={"bots": [{"seat": 1, "level": "hard"}]},
                    headers=ana.headers)
    assert_problem(r, 409, "too_many_bot_matches")
    assert r.json["limit"] == 3
    bot_leads(client, ana, level="random")  # a cheaper bot still fits


def test_an_owner_has_one_step_under_way_at_a_time(client: Any, app: Any,
                                                   database_url: str) -> None:
    """While another worker loop runs a step for the attacker (it holds the owner's step
    lock), this loop takes the victim's match, then finds nothing more it may take."""
    import psycopg2

    attacker, victim = register(client, "many"), register(client, "one")
    theirs = [bot_leads(client, attacker)["id"] for _ in range(3)]
    mine = bot_leads(client, victim)["id"]
    other_loop = psycopg2.connect(libpq_url(database_url))
    try:
        with other_loop.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 7))", (attacker.id,))
            assert run_steps(app, 5) == 1
        assert bot_moves(app, mine) == 1
        assert sum(bot_moves(app, m) for m in theirs) == 0
    finally:
        other_loop.rollback()
        other_loop.close()
    assert run_steps(app, 5) == 3  # the owner's lock is free again


def test_housekeeping_never_holds_up_a_bot(client: Any, app: Any, monkeypatch: Any) -> None:
    """Pruning a big table takes seconds (one player's millions of old webhook deliveries:
    0.8 to 1.2 s at 1.8 million rows): it runs beside the worker's loop, not in it, so a bot
    that falls due meanwhile moves at once (it waited for the prune)."""
    import threading
    import time

    from app.play import background

    def slow_prune(now: Any) -> dict[str, int]:
        time.sleep(4)
        return {}

    monkeypatch.setattr(background, "prune", slow_prune)
    victim = register(client, "one")
    worker = background.Worker(app, poll_seconds=0.2, deliveries=False, housekeeping=True)
    thread = threading.Thread(target=worker.run)
    thread.start()
    try:
        time.sleep(0.5)  # the housekeeping has begun its prune
        began = time.monotonic()
        mine = bot_leads(client, victim)["id"]
        while bot_moves(app, mine) == 0 and time.monotonic() - began < 10:
            time.sleep(0.05)
        took = time.monotonic() - began
    finally:
        worker.stop.set()
        thread.join(10)
    assert not thread.is_alive()
    assert took < 1.5, took
