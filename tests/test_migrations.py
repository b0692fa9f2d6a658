"""The migrations build exactly the models' schema, and go down and up again."""

from __future__ import annotations

import os
from collections.abc import Callable

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from app import create_app
from app.extensions import db

TABLES = {"players", "matches", "seats", "events", "actions", "idempotency_records",
          "rate_windows", "webhook_endpoints", "webhook_deliveries", "match_watches",
          "player_blocks"}


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
