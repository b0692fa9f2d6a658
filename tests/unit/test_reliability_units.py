"""Units behind the reliability guarantees: database limits from the environment, and the
log throttle."""
from __future__ import annotations

import pytest

from app.infra.config import client_deadlines, connect_args, database_limits, load_config
from app.infra.logthrottle import Throttle


def test_database_limits_default_to_a_few_seconds() -> None:
    limits = database_limits({})
    args = connect_args(limits)
    assert args["connect_timeout"] == 3
    assert "-c statement_timeout=4000" in args["options"]
    assert "-c lock_timeout=3000" in args["options"]
    assert "-c idle_in_transaction_session_timeout=10000" in args["options"]
    assert args["keepalives"] == 1 and args["tcp_user_timeout"] == 10000
    assert client_deadlines(limits) == (3.0, 5.0)
    assert load_config({})["SQLALCHEMY_ENGINE_OPTIONS"]["pool_timeout"] == 3.0


def test_database_limits_come_from_the_environment() -> None:
    limits = database_limits({"TRUCO_DB_STATEMENT_TIMEOUT": "0.5",
                              "TRUCO_DB_CONNECT_TIMEOUT": "1"})
    assert "-c statement_timeout=500" in connect_args(limits)["options"]
    assert connect_args(limits)["connect_timeout"] == 2  # libpq's minimum
    assert client_deadlines(limits) == (1.0, 1.5)


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_bad_database_limit_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="TRUCO_DB_LOCK_TIMEOUT"):
        database_limits({"TRUCO_DB_LOCK_TIMEOUT": value})


def test_poll_cap_is_off_under_testing_only() -> None:
    assert load_config({"TRUCO_ENV": "testing"})["MAX_POLLS_PER_CLIENT"] == 0
    assert load_config({"TRUCO_ENV": "production"})["MAX_POLLS_PER_CLIENT"] == 20
    assert load_config({"TRUCO_MAX_POLLS_PER_CLIENT": "5"})["MAX_POLLS_PER_CLIENT"] == 5


def test_throttle_reports_once_per_kind_and_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr("app.infra.logthrottle.time.monotonic", lambda: now[0])
    throttle = Throttle(interval=10)
    assert throttle.due("down") == 1
    assert [throttle.due("down") for _ in range(5)] == [0] * 5
    assert throttle.due("other") == 1
    now[0] += 10
    assert throttle.due("down") == 6  # the silent five and this one
