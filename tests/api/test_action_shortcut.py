"""A plain action is played before Flask routes it (app/http/front/action.py), and answered
exactly as Flask's path answers it: the same status, headers and body, refusals included;
whatever is not plainly an action goes to Flask unchanged."""
from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from werkzeug.test import EnvironBuilder

from tests.support.api import (D2_SETUP, act_ok, create, db_scalar, get_view, join, listening,
                               next_move, register)

FLASK = {"Origin": "https://elsewhere.example"}
"""(an Origin sends an action to Flask's path; CORS is off in the tests, so nothing else
differs)"""


@contextmanager
def flask_dispatches(app: Any, allowed: bool) -> Iterator[list[str]]:
    """The paths Flask's dispatch saw in the block; with `allowed` False, a dispatch fails the
    test (the shortcut was to answer)."""
    seen: list[str] = []
    real = app.full_dispatch_request

    def dispatch() -> Any:
        from flask import request
        seen.append(request.path)
        if not allowed:
            raise AssertionError(f"Flask dispatched {request.path}, which the shortcut takes")
        return real()

    app.full_dispatch_request = dispatch
    try:
        yield seen
    finally:
        del app.full_dispatch_request


def twin_matches(client: Any, app: Any) -> tuple[list[str], list[Any]]:
    """Two started matches of the same two players with the same deals (what one sees in
    one, it sees in the other), the players' tokens known to the process."""
    seated = [register(client, "ana"), register(client, "bia")]
    ids = []
    for _ in range(2):
        m = create(client, seated[0], players=2, seat=0, **D2_SETUP)
        assert join(client, m["id"], seated[1], seat=1).status_code == 200
        ids.append(m["id"])
    get_view(client, ids[0], seated[0])  # (the listener starts)
    listening(app)
    for player in seated:
        get_view(client, ids[0], player)  # (the process learns the tokens)
    return ids, seated


def _same(value: Any, twin: str, match_id: str) -> Any:
    """`value` with the twin's id read as `match_id`, and what differs between twins by
    nature (moments, the invite code) left out."""
    if isinstance(value, dict):
        return {k: _same(v, twin, match_id) for k, v in value.items()
                if not k.endswith("_at") and k not in ("invite_code", "deadline")}
    if isinstance(value, list):
        return [_same(v, twin, match_id) for v in value]
    return value.replace(twin, match_id) if isinstance(value, str) else value


def post(client: Any, match_id: str, player: Any, action: Any, **headers: str) -> Any:
    return client.post(f"/v1/matches/{match_id}/actions", json=action,
                       headers={**player.headers, **headers})


def test_a_plain_action_is_played_before_flask_with_flasks_answer(client: Any,
                                                                   app: Any) -> None:
    (ours, theirs), seated = twin_matches(client, app)
    for step in range(4):
        mover, action = next_move(client, ours, seated)
        tags = [client.get(f"/v1/matches/{m}", headers=mover.headers).headers["ETag"]
                for m in (ours, theirs)]
        with flask_dispatches(app, allowed=False):
            short = post(client, ours, mover, action, **{"If-Match": tags[0],
                                                         "Idempotency-Key": f"k{step}"})
        with flask_dispatches(app, allowed=True) as seen:
            flask = post(client, theirs, mover, action, **FLASK, **{"If-Match": tags[1],
                                                                  "Idempotency-Key": f"k{step}"})
        assert seen == [f"/v1/matches/{theirs}/actions"]
        assert short.status_code == flask.status_code == 200, short.get_data(as_text=True)
        assert sorted(short.headers.items()) == sorted(
            (k, v.replace(theirs, ours)) for k, v in flask.headers.items())
        assert short.get_data().endswith(b"\n")
        assert _same(short.json, theirs, ours) == _same(flask.json, theirs, ours)
        assert short.json["version"] == get_view(client, ours, mover)["version"]
    assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m", m=ours) == 4


def test_refusals_and_replays_are_answered_as_flask_answers_them(client: Any,
                                                                 app: Any) -> None:
    (match_id, _), seated = twin_matches(client, app)
    stranger = register(client, "cid")
    other = create(client, stranger, players=2)
    get_view(client, other["id"], stranger)  # (its token known too)
    assert app.extensions["truco_hub"].known.player(
        __import__("app.infra.tokens").infra.tokens.hash_token(stranger.token)) == stranger.id
    mover, action = next_move(client, match_id, seated)
    done = post(client, match_id, mover, action, **{"Idempotency-Key": "once"})
    assert done.status_code == 200
    first, replayer = action, mover
    mover, action = next_move(client, match_id, seated)
    waiting = next(p for p in seated if p is not mover)
    missing = "m_" + "0" * 24
    cases = [
        (match_id, mover, action, {"If-Match": '"m_x.v1.seat0"'}, 412),
        (match_id, waiting, action, {}, 422),  # not their turn: illegal_action
        (match_id, stranger, action, {}, 403),
        (missing, mover, action, {}, 404),
        (match_id, mover, action, {"Idempotency-Key": "x" * 256}, 422),
        (match_id, replayer, {"type": "refuse"}, {"Idempotency-Key": "once"},
         422),  # the key reused with another body
    ]
    for target, player, body, headers, status in cases:
        with flask_dispatches(app, allowed=False):
            short = post(client, target, player, body, **headers)
        with flask_dispatches(app, allowed=True) as seen:
            flask = post(client, target, player, body, **headers, **FLASK)
        assert seen, "the Origin sends it to Flask"
        assert short.status_code == flask.status_code == status, short.get_data(as_text=True)
        assert sorted(short.headers.items()) == sorted(flask.headers.items())
        assert short.get_data() == flask.get_data()
    with flask_dispatches(app, allowed=False):
        replayed = post(client, match_id, replayer, first, **{"Idempotency-Key": "once"})
    assert replayed.status_code == 200
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.get_data() == done.get_data()
    # nothing refused was stored: one action, the first
    assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m", m=match_id) == 1


def test_what_is_not_plainly_an_action_goes_to_flask(client: Any, app: Any) -> None:
    (match_id, _), seated = twin_matches(client, app)
    mover, action = next_move(client, match_id, seated)
    path = f"/v1/matches/{match_id}/actions"
    auth = mover.headers
    not_plain = [
        ({"data": json.dumps({**action, "extra": 1}), "content_type": "application/json"},
         422),
        ({"data": json.dumps({**action, "slot": True}), "content_type": "application/json"},
         422),
        ({"data": json.dumps([action]), "content_type": "application/json"}, 422),
        ({"data": "{not json", "content_type": "application/json"}, 422),
        ({"data": json.dumps(action), "content_type": "text/plain"}, 415),
        ({"data": json.dumps(action), "content_type": "application/json",
          "headers": {"Authorization": "Bearer tk_unknown"}}, 401),
    ]
    for request, status in not_plain:
        headers = {**auth, **request.pop("headers", {})}
        with flask_dispatches(app, allowed=True) as seen:
            r = client.post(path, headers=headers, **request)
        assert r.status_code == status, (request, r.get_data(as_text=True))
        assert r.headers["Content-Type"] == "application/problem+json"
        if status != 401:  # (401 is the route's declared authentication: no dispatch)
            assert seen == [path], request
    with flask_dispatches(app, allowed=True) as seen:  # a long poll's query string
        r = client.post(f"{path}?wait=0", json=action, headers=auth)
    assert r.status_code == 200 and seen == [path]
    assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m", m=match_id) == 1


def test_only_plain_bodies_are_taken() -> None:
    from engine.actions import well_typed as plain_action

    assert plain_action({"type": "play", "card": "7c"})
    assert plain_action({"type": "play", "slot": 0, "face_down": True})
    assert plain_action({"type": "raise", "to": None})
    assert plain_action({"type": "raise", "to": 6})
    for body in ({"type": "fold"}, {"type": []}, {"type": {}}, {"type": None}, {"card": "7c"},
                 {"type": "play", "slot": True}, {"type": "play", "slot": 1.0},
                 {"type": "play", "face_down": 1},
                 {"type": "play", "card": ["7c"]}, {"type": "raise", "to": "6"},
                 {"type": "play", "slot": None}, {"type": "accept", "x": 1}, ["play"], None):
        assert not plain_action(body), body


def test_the_action_schema_has_the_engines_fields_and_kinds() -> None:
    """One definition of an action's shape: the engine's (engine/actions.py); the request
    schema takes its fields and kinds, and the fast path its types."""
    from engine.actions import FIELD_TYPES, KINDS
    from app.http.schemas.inputs import ActionSchema

    schema = ActionSchema()
    assert set(schema.fields) == set(FIELD_TYPES)
    assert schema.fields["type"].validate.choices == list(KINDS)


def test_a_body_shorter_than_declared_is_answered_400_by_flask(client: Any, app: Any) -> None:
    (match_id, _), seated = twin_matches(client, app)
    mover, action = next_move(client, match_id, seated)
    data = json.dumps(action).encode()
    environ = EnvironBuilder(path=f"/v1/matches/{match_id}/actions", method="POST",
                             data=data, content_type="application/json",
                             headers=mover.headers).get_environ()
    environ["CONTENT_LENGTH"] = str(len(data) + 10)  # the client broke off early
    environ["wsgi.input"] = io.BytesIO(data)
    answered: list[str] = []
    body = b"".join(app.wsgi_app(environ, lambda status, headers: answered.append(status)))
    assert answered == ["400 BAD REQUEST"]
    assert json.loads(body)["code"] == "bad_request"
    assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m", m=match_id) == 0


def test_a_failed_write_commits_nothing_and_is_answered_as_flask_does(
        client: Any, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The write and the COMMIT travel in one message: when the write fails, PostgreSQL runs
    no COMMIT, the transaction is rolled back, nothing is stored, and the answer is the
    same 500 problem Flask's path gives."""
    from app.db import hot_sql
    from app.db.prepared import Statement

    (match_id, _), seated = twin_matches(client, app)
    before = get_view(client, match_id, seated[0])["version"]
    mover, action = next_move(client, match_id, seated)
    broken = Statement("truco_test_broken_write",
                       "SELECT 1 / 0 FROM matches WHERE id = %(match_id)s", {"match_id": "text"})
    with monkeypatch.context() as patched:
        patched.setattr(hot_sql, "WRITE", broken)
        patched.setattr(hot_sql, "WRITE_IF_CURRENT", broken)  # (the match is kept)
        with flask_dispatches(app, allowed=False):
            short = post(client, match_id, mover, action)
        flask = post(client, match_id, mover, action, **FLASK)
    assert short.status_code == flask.status_code == 500
    assert sorted(short.headers.items()) == sorted(flask.headers.items())
    assert short.get_data() == flask.get_data()
    assert db_scalar(app, "SELECT version FROM matches WHERE id = :m", m=match_id) == before
    assert db_scalar(app, "SELECT count(*) FROM pg_stat_activity WHERE datname ="
                          " current_database() AND state LIKE 'idle in transaction%'") == 0
    act_ok(client, match_id, mover, action)  # the match is not left locked


def test_the_rate_limit_holds_before_flask(client: Any, app: Any) -> None:
    """The shortcut counts an action against the player's limit as Flask's route does, and
    answers the 429 Flask's path gives (Retry-After included); nothing over it is stored."""
    (match_id, _), seated = twin_matches(client, app)
    app.config["RATE_LIMIT_ACTION"] = "1/60"
    first, action = next_move(client, match_id, seated)
    with flask_dispatches(app, allowed=False):
        assert post(client, match_id, first, action).status_code == 200
    mover, action = next_move(client, match_id, seated)
    assert mover is not first  # (the deals are fixed: the other player answers)
    assert post(client, match_id, mover, action).status_code == 200
    mover, action = next_move(client, match_id, seated)
    assert mover is first
    with flask_dispatches(app, allowed=False):
        short = post(client, match_id, mover, action)
    flask = post(client, match_id, mover, action, **FLASK)
    assert short.status_code == flask.status_code == 429
    assert short.json["code"] == flask.json["code"] == "rate_limited"
    assert sorted(short.headers.keys()) == sorted(flask.headers.keys())
    assert 1 <= int(short.headers["Retry-After"]) <= 60
    assert db_scalar(app, "SELECT count(*) FROM actions WHERE match_id = :m", m=match_id) == 2


def test_an_empty_match_id_is_answered_as_flask_answers_it(client: Any, app: Any) -> None:
    (match_id, _), seated = twin_matches(client, app)
    mover, action = next_move(client, match_id, seated)
    fast = client.post("/v1/matches//actions", json=action, headers=mover.headers)
    slow = client.post("/v1/matches//actions", json=action, headers={**mover.headers, **FLASK})
    assert fast.status_code == slow.status_code == 404
    assert fast.json == slow.json and fast.json["code"] == "not_found"
