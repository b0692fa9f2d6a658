"""app/action_path.py reads a match by hand-written SQL: the views it gives are the ones the
ORM's read gives, in every state a match can be in."""
from __future__ import annotations

import random
from typing import Any

from tests.api.helpers import create, full_match, play_out, random_step, register


def _same_views(app: Any, match_id: str, players: int) -> None:
    from app.action_path import read_match
    from app.extensions import db
    from app.match_store import get_match
    from app.rendering import match_summary, match_view

    with app.app_context():
        lean = read_match(match_id)
        orm = get_match(match_id)
        assert lean is not None
        for seat in [None, *range(players)]:
            assert match_view(lean, seat) == match_view(orm, seat), seat
        for player in [None, *(s.player for s in orm.seats if s.player is not None)]:
            assert match_summary(lean, player) == match_summary(orm, player)
        assert read_match("m_missing") is None
        db.session.remove()


def test_the_lean_read_renders_what_the_orm_read_renders(client: Any, app: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    waiting = create(client, ana, players=4, visibility="private", turn_timeout=600,
                     invite=[{"seat": 2, "player_id": bob.id}],
                     bots=[{"seat": 3, "level": "easy"}])
    _same_views(app, waiting["id"], 4)
    match_id, seated = full_match(client, players=2, start_score=[3, 5])
    _same_views(app, match_id, 2)
    rng = random.Random(3)
    for _ in range(5):
        random_step(client, match_id, seated, rng)
    _same_views(app, match_id, 2)
    play_out(client, match_id, seated, rng)
    _same_views(app, match_id, 2)


def test_a_fresh_process_reads_a_match_before_any_orm_query() -> None:
    """The first request of a new worker may be a view read by hand-written SQL: the mappers
    are configured by create_app, not by a first ORM query (seen in a benchmark: 500s on
    the first views of a fresh worker)."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "from app import create_app\n"
        "create_app({'SQLALCHEMY_DATABASE_URI': 'postgresql://unused@127.0.0.1:1/unused'})\n"
        "from app.action_path import _row\n"
        "from app.models import Match, Seat\n"
        "seat = _row(Seat, seat=0, player_id='p', invited=False)\n"
        "match = _row(Match, id='m', version=3, seats=[seat])\n"
        "print(match.version, match.seat_of('p').seat)\n")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "0"]
