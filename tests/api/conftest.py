"""API tests run on the session's PostgreSQL, each on empty tables."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _empty_tables(clean_db: None) -> None:
    """Every API test starts from empty tables (``clean_db`` truncates them)."""


@pytest.fixture()
def other_app(app: Any) -> Iterator[Any]:
    """A second app on the same database: another process, as far as the first one knows."""
    from app import create_app
    from app.db.extensions import db

    second = create_app(dict(app.config))
    yield second
    hub = second.extensions.get("truco_hub")
    if hub is not None:
        hub.close()
    with second.app_context():
        db.engine.dispose()


@pytest.fixture()
def hook() -> Iterator[Any]:
    """A local webhook receiver (tests/support/webhook_receiver.py), stopped after the test."""
    from tests.support.webhook_receiver import receiver

    with receiver() as r:
        yield r
