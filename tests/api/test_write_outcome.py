"""An action whose database fails at each point of its transaction: before the write
reached the database, 503 `service_unavailable` and nothing changed; a write whose commit
cannot be confirmed, 503 `outcome_unknown`, and a retry with the same Idempotency-Key tells
the truth (replayed when it was kept, applied once when not); a failure after a confirmed
commit, the 200 of the action (app/db/write_outcome.py)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg2
import pytest

from tests.support.api import act, assert_problem, backend_gone, db_scalar, full_match

RAISE = {"type": "raise"}
KEY = {"Idempotency-Key": "k-outcome"}


def terminate(app: Any, conn: Any) -> None:
    """Stop the backend of `conn` from another connection, as a database restart would."""
    pid = conn.dbapi_connection.get_backend_pid()
    db_scalar(app, "SELECT pg_terminate_backend(:pid)", pid=pid)
    assert backend_gone(app, pid)


def failing(app: Any, point: str) -> Callable[..., Any]:
    """`prepared.run` with the database failing at `point` of the action's transaction."""
    from app.db import prepared

    real = prepared.run

    def run(conn: Any, statements: list[Any], params: dict[str, Any], begin: bool = False,
            commit: bool = False, after_commit: list[Any] | None = None) -> Any:
        writing = commit
        if point == "before the lock" and begin and not commit:
            terminate(app, conn)
        if point == "before the write" and writing:
            terminate(app, conn)
        if point == "write refused" and writing:
            raise psycopg2.OperationalError("canceling statement due to statement timeout")
        cursor = real(conn, statements, params, begin, commit, after_commit)
        if point == "lost after the commit" and writing:
            terminate(app, conn)
            raise psycopg2.OperationalError("server closed the connection unexpectedly")
        if point == "refused after the commit" and writing:
            raise psycopg2.OperationalError("too many notifications in the NOTIFY queue")
        return cursor

    return run


def actions(app: Any, match_id: str) -> int:
    return db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m", m=match_id)


@pytest.mark.parametrize("point", ["before the lock", "write refused"])
def test_a_failure_before_the_write_is_kept_says_nothing_changed(
        client: Any, app: Any, monkeypatch: Any, point: str) -> None:
    from app.db import prepared
    from app.live.recent import recent

    match_id, seated = full_match(client, players=2, options={"first_dealer": 1})
    recent.clear()  # the locked way: lock and read, then write
    with monkeypatch.context() as patch:
        patch.setattr(prepared, "run", failing(app, point))
        r = act(client, match_id, seated[0], RAISE, headers=KEY)
    assert_problem(r, 503, "service_unavailable")
    assert actions(app, match_id) == 0
    again = act(client, match_id, seated[0], RAISE, headers=KEY)
    assert again.status_code == 200 and "Idempotent-Replayed" not in again.headers
    assert actions(app, match_id) == 1


@pytest.mark.parametrize("locked", [False, True])
@pytest.mark.parametrize("point,kept", [("before the write", False),
                                        ("lost after the commit", True)])
def test_a_commit_nobody_can_confirm_is_outcome_unknown_and_the_retry_tells(
        client: Any, app: Any, monkeypatch: Any, point: str, kept: bool,
        locked: bool) -> None:
    """Either way of writing: in one message (the match as this process wrote it last) or
    after the lock and read (`locked`)."""
    from app.db import prepared
    from app.live.recent import recent

    match_id, seated = full_match(client, players=2, options={"first_dealer": 1})
    if locked:
        recent.clear()
    with monkeypatch.context() as patch:
        patch.setattr(prepared, "run", failing(app, point))
        r = act(client, match_id, seated[0], RAISE, headers=KEY)
    body = assert_problem(r, 503, "outcome_unknown")
    assert "Idempotency-Key" in body["detail"] and r.headers["Retry-After"]
    assert actions(app, match_id) == (1 if kept else 0)
    again = act(client, match_id, seated[0], RAISE, headers=KEY)
    assert again.status_code == 200
    assert again.headers.get("Idempotent-Replayed") == ("true" if kept else None)
    assert actions(app, match_id) == 1  # applied once, whichever way it went


def test_a_failure_after_a_confirmed_commit_answers_the_action(
        client: Any, app: Any, monkeypatch: Any) -> None:
    from app.db import prepared
    from app.live.recent import recent

    match_id, seated = full_match(client, players=2, options={"first_dealer": 1})
    recent.clear()
    with monkeypatch.context() as patch:
        patch.setattr(prepared, "run", failing(app, "refused after the commit"))
        r = act(client, match_id, seated[0], RAISE, headers=KEY)
    assert r.status_code == 200, r.get_data(as_text=True)  # an action that got 200 is kept
    assert r.json["hand"]["pending"]["kind"] == "raise"
    assert actions(app, match_id) == 1
