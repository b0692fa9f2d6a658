"""The `deadline_soon` webhook's summary in openapi.yaml (what a generated client shows a
developer) says when it comes as the server sends it: a quarter of the turn before the
deadline, but never more than an hour before (app/play/store.py `warning_before`;
docs/correspondence.md). It said only "a quarter of the turn away", wrong for any turn over
four hours (a day's turn is warned an hour before, not six)."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_the_deadline_soon_summary_names_the_hour_cap() -> None:
    from app.play.store import warning_before

    assert warning_before(86400) == timedelta(hours=1)
    assert warning_before(400) == timedelta(seconds=100)
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    summary = spec["x-webhooks"]["deadline_soon"]["post"]["summary"]
    assert "a quarter of the turn" in summary and "at most an hour" in summary
