"""bench/bots_load.py: its options, and the figures it summarises with bench/lib/stats.py (no server
started)."""
from __future__ import annotations

import pytest

from bench import bots_load
from bench.lib import stats


def test_defaults_full_and_quick() -> None:
    full = bots_load.parse_args([])
    assert (full.waiters, full.matches, full.baseline, full.probe_ms) == (1000, 3, 15.0, 50.0)
    quick = bots_load.parse_args(["--quick"])
    assert (quick.waiters, quick.matches, quick.baseline) == (500, 1, 8.0)
    given = bots_load.parse_args(["--quick", "--waiters", "20", "--matches", "2",
                                  "--baseline", "1.5", "--probe-ms", "20", "--seed", "7"])
    assert (given.waiters, given.matches, given.baseline, given.probe_ms, given.seed) == \
        (20, 2, 1.5, 20.0, 7)


@pytest.mark.parametrize("bad", [["--matches", "0"], ["--baseline", "0"], ["--waiters", "-1"],
                                 ["--probe-ms", "0"]])
def test_bad_options_exit(bad: list[str]) -> None:
    with pytest.raises(SystemExit):
        bots_load.parse_args(bad)


def test_summary_figures() -> None:
    s = stats.summary_ms([0.010, 0.020, 0.030, 0.200])
    assert s == {"n": 4, "p50": 20.0, "p99": 200.0, "max": 200.0}
    assert stats.summary_ms([]) == {"n": 0, "p50": None, "p99": None, "max": None}
    assert stats.ratio(30.0, 20.0) == 1.5
    assert stats.ratio(None, 20.0) is None and stats.ratio(3.0, 0) is None
