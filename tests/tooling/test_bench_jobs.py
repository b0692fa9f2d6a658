"""bench/jobs.py: its options and the figures it summarises (no database, no procrastinate:
the module imports procrastinate only inside the benchmark)."""
from __future__ import annotations

import sys

import pytest

from bench import jobs
from bench.lib import stats


def test_importing_needs_no_job_library() -> None:
    assert "procrastinate" not in vars(jobs)
    if "procrastinate" not in sys.modules:  # (the project's venv does not have it)
        with pytest.raises(ImportError):
            __import__("procrastinate")


def test_defaults_full_and_quick() -> None:
    full = jobs.parse_args([])
    assert (full.units, full.rounds, full.latency_seconds, full.rate, full.workers) == \
        (2000, 2, 10.0, 50.0, [1, 2])
    quick = jobs.parse_args(["--quick"])
    assert (quick.units, quick.rounds, quick.latency_seconds) == (400, 1, 4.0)
    given = jobs.parse_args(["--quick", "--units", "50", "--rounds", "3", "--rate", "20",
                             "--latency-seconds", "1.5", "--workers", "1,2,4"])
    assert (given.units, given.rounds, given.rate, given.latency_seconds, given.workers) == \
        (50, 3, 20.0, 1.5, [1, 2, 4])
    assert full.worker is None  # the parent, not a worker process


@pytest.mark.parametrize("bad", [["--units", "0"], ["--rounds", "0"], ["--rate", "0"],
                                 ["--latency-seconds", "-1"], ["--workers", "0"],
                                 ["--workers", "one"], ["--worker", "celery"]])
def test_bad_options_exit(bad: list[str]) -> None:
    with pytest.raises(SystemExit):
        jobs.parse_args(bad)


def test_summary_figures() -> None:
    assert stats.percentile([], 0.50) is None
    assert stats.percentile([3.0, 1.0, 2.0, 4.0], 0.50) == 2.0
    assert stats.percentile(list(range(1, 101)), 0.99) == 99
    assert stats.percentile([5.0], 0.99) == 5.0
    assert stats.ratio(30.0, 20.0) == 1.5
    assert stats.ratio(None, 2.0) is None and stats.ratio(2.0, 0) is None
    lat = jobs.latency_ms([(10.0, 10.004), (10.0, 10.010), (20.0, 20.1)])
    assert lat == {"n": 3, "p50": 10.0, "p99": 100.0, "max": 100.0}
    assert jobs.latency_ms([]) == {"n": 0, "p50": None, "p99": None, "max": None}
    assert jobs.unit_id(42) == "m0000042"


def test_without_the_job_library_it_skips(capsys: pytest.CaptureFixture[str]) -> None:
    if "procrastinate" in sys.modules or __import__("importlib").util.find_spec("procrastinate"):
        pytest.skip("procrastinate is installed here")
    assert jobs.main(["--quick"]) == 0  # no database is touched
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert __import__("json").loads(last) == {"bench": "jobs", "skipped": True,
                                              "missing": ["procrastinate", "psycopg"]}
