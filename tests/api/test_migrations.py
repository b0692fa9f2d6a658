"""The migrations build exactly the models' schema, and go down and up again."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from app import create_app
from app.db.extensions import db

TABLES = {"players", "matches", "seats", "events", "actions", "idempotency_records",
          "rate_windows", "webhook_endpoints", "webhook_deliveries", "match_watches",
          "ratings", "player_tallies", "commitments", "player_blocks", "rating_changes",
          "match_reviews"}


def _schema_diff() -> list:
    with db.engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "compare_server_default": True}
        )
        return compare_metadata(context, db.metadata)


def _tables() -> set[str]:
    return set(inspect(db.engine).get_table_names())


def test_migrations_match_models_and_round_trip(make_database: Callable[[str], str]) -> None:
    url = make_database(f"truco_migrations_{os.getpid()}")
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        try:
            assert _tables() == set()
            upgrade()
            assert _tables() == TABLES | {"alembic_version"}
            assert _schema_diff() == []

            downgrade(revision="base")
            assert _tables() == {"alembic_version"}

            upgrade()
            assert _tables() == TABLES | {"alembic_version"}
            assert _schema_diff() == []
        finally:
            db.session.remove()
            db.engine.dispose()


def test_models_declare_exactly_the_migrated_tables() -> None:
    assert set(db.metadata.tables) == TABLES


def _old_match(conn: Any, match_id: str, status: str, events: list[tuple[str, str]]) -> None:
    """A match as stored before revision 0012, with its log (`(type, data)` pairs)."""
    conn.execute(text(
        "INSERT INTO matches (id, ruleset, players, target_score, status, visibility, "
        "created_by, seed, config, on_timeout) VALUES (:id, 'paulista', 2, 12, :status, "
        "'public', 'p_old', 1, '{}', 'forfeit')"), {"id": match_id, "status": status})
    for seq, (kind, data) in enumerate(events, 1):
        conn.execute(text("INSERT INTO events (match_id, seq, version, type, data) "
                          "VALUES (:m, :seq, 1, :type, CAST(:data AS jsonb))"),
                     {"m": match_id, "seq": seq, "type": kind, "data": data})


def test_matches_ended_before_0012_get_their_end_reason_from_their_log(
        make_database: Callable[[str], str]) -> None:
    url = make_database(f"truco_backfill_{os.getpid()}")
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    won = ("match_won", '{"winner_team": 1}')
    with app.app_context():
        try:
            upgrade(revision="0011")
            with db.engine.begin() as conn:
                conn.execute(text("INSERT INTO players (id, name, token_hash) "
                                  "VALUES ('p_old', 'ana', 'x')"))
                _old_match(conn, "m_score", "finished", [won])
                _old_match(conn, "m_resigned", "finished",
                           [("player_resigned", '{"seat": 0}'), won])
                _old_match(conn, "m_timed", "finished",
                           [("turn_timed_out", '{"outcome": "forfeit"}'),
                            ("player_resigned", '{"seat": 0}'), won])
                _old_match(conn, "m_cancelled", "cancelled", [("match_cancelled", "{}")])
                _old_match(conn, "m_active", "active", [])
            upgrade()
            with db.engine.connect() as conn:
                reasons = dict(conn.execute(text("SELECT id, end_reason FROM matches")).all())
                logged = dict(conn.execute(text(
                    "SELECT match_id, data->>'end_reason' FROM events "
                    "WHERE type IN ('match_won', 'match_cancelled')")).all())
            assert reasons == {"m_score": "score", "m_resigned": "resigned",
                               "m_timed": "timed_out", "m_cancelled": "cancelled",
                               "m_active": None}
            assert logged == {k: v for k, v in reasons.items() if v is not None}
        finally:
            db.session.remove()
            db.engine.dispose()
