"""API tests run on the session's PostgreSQL, each on empty tables."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _empty_tables(clean_db: None) -> None:
    """Every API test starts from empty tables (``clean_db`` truncates them)."""
