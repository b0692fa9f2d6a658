"""Conditional GETs and views answered from what the process knows (app/live/known.py): no query
when nothing changed, never a 304 for a version the process has not seen, a change made by
another process (or while the listener was down) always seen, a replaced token refused."""
from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import text

from tests.support.api import (D2_SETUP, act_ok, connections_held, counted, full_match, get_view,
                               listening, next_move)


def view(client: Any, match_id: str, player: Any, tag: str | None = None) -> Any:
    headers = dict(player.headers) if player is not None else {}
    if tag:
        headers["If-None-Match"] = tag
    return client.get(f"/v1/matches/{match_id}", headers=headers)


def watch(app: Any, match_id: str) -> None:
    """Someone waits on the match (app/live/watches.py): its actions are notified, and what a
    process hears of it after a read can be trusted."""
    from app.live import watches

    with app.app_context():
        watches.watch([match_id], watches.SECONDS)


def watched_match(client: Any, app: Any) -> tuple[str, list[Any], str]:
    """A started 2-player match, watched (app/live/watches.py), whose first seat's view this
    process has read (and so knows its token, seat and version, the listener being up):
    (match id, players, seat 0's tag)."""
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    view(client, match_id, seated[0])
    listening(app)
    watch(app, match_id)
    return match_id, seated, view(client, match_id, seated[0]).headers["ETag"]


def move(client: Any, match_id: str, seated: list[Any]) -> None:
    """One legal action by the seat to act."""
    for player in seated:
        legal = get_view(client, match_id, player)["legal_actions"]
        if legal:
            act_ok(client, match_id, player, legal[0])
            return
    raise AssertionError("nobody may act")


def eventually(check, seconds: float = 5.0) -> Any:  # noqa: ANN001
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.01)


def test_unchanged_polls_send_no_query_and_views_one(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    ana = seated[0]
    view(client, match_id, ana)
    listening(app)
    tag = view(client, match_id, ana).headers["ETag"]
    # the first poll of a match nobody watches watches it (app/live/watches.py), then reads
    with counted(app) as statements:
        assert view(client, match_id, ana, tag).status_code == 304
    assert statements == ["EXECUTE truco_watch", "EXECUTE truco_view_current"]
    for viewer in (ana, seated[1], None):
        first = view(client, match_id, viewer)
        listening(app)
        first = view(client, match_id, viewer)  # (learned once the listener is up)
        tag = first.headers["ETag"]
        with counted(app) as statements:
            polled = view(client, match_id, viewer, tag)
        assert polled.status_code == 304 and polled.headers["ETag"] == tag
        assert statements == []
        with counted(app) as statements:
            again = view(client, match_id, viewer)
        # the version is read (one cheap query); the rendering is the shared one
        assert again.status_code == 200 and again.get_data() == first.get_data()
        assert len(statements) == 1 and "FOR UPDATE" not in statements[0]


def test_a_view_shows_a_change_not_heard_of_yet(client: Any, app: Any, other_app: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A client whose action another process acknowledged reads the match after it, however
    late this process hears of it (a 304 may lag by that much; a body never does)."""
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    ana = seated[0]
    view(client, match_id, ana)
    hub = listening(app)
    before = view(client, match_id, ana)
    assert view(client, match_id, ana, before.headers["ETag"]).status_code == 304
    monkeypatch.setattr(hub, "_heard", lambda note: None)  # the notification is late
    move(other_app.test_client(), match_id, seated)
    after = view(client, match_id, ana)
    assert after.status_code == 200
    assert after.json["version"] == before.json["version"] + 1
    assert after.headers["ETag"] != before.headers["ETag"]


def test_a_change_of_this_process_is_seen_at_once(client: Any, app: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, seated, tag = watched_match(client, app)
    ana = seated[0]
    mover, action = next_move(client, match_id, seated)
    assert view(client, match_id, ana, tag).status_code == 304
    # notifications arrive late (or never): what this process committed is known at commit
    monkeypatch.setattr(listening(app), "_heard", lambda note: None)
    act_ok(client, match_id, mover, action)
    r = view(client, match_id, ana, tag)
    assert r.status_code == 200 and r.headers["ETag"] != tag
    assert r.json["version"] == get_view(client, match_id, ana)["version"]


def test_a_change_of_another_process_is_never_answered_304(client: Any, app: Any,
                                                           other_app: Any) -> None:
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    ana = seated[0]
    view(client, match_id, ana)
    listening(app)
    tag = view(client, match_id, ana).headers["ETag"]
    assert view(client, match_id, ana, tag).status_code == 304
    other = other_app.test_client()
    move(other, match_id, seated)
    answer = eventually(lambda: view(client, match_id, ana, tag).status_code == 200)
    assert answer, "the other process's change was not seen"
    fresh = view(client, match_id, ana)
    assert fresh.json == get_view(other, match_id, ana)


def test_a_change_while_the_listener_is_down_is_read_from_the_database(
        client: Any, app: Any, other_app: Any) -> None:
    from app.db.extensions import db
    from app.live.hub import LISTENER_APPLICATION_NAME

    match_id, seated = full_match(client, players=2, **D2_SETUP)
    ana = seated[0]
    view(client, match_id, ana)
    hub = listening(app)
    tag = view(client, match_id, ana).headers["ETag"]
    with app.app_context():
        db.session.execute(text(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = :name AND pid <> pg_backend_pid()"),
            {"name": LISTENER_APPLICATION_NAME})
        db.session.commit()
    assert eventually(lambda: not hub.ready.is_set()), "the listener did not see the drop"
    # (the other app has no listener: its notification reaches nobody in this process)
    move(other_app.test_client(), match_id, seated)
    with counted(app) as statements:
        r = view(client, match_id, ana, tag)
    assert r.status_code == 200 and r.headers["ETag"] != tag
    assert statements, "answered without asking the database while not listening"


def test_a_replaced_token_is_refused_by_every_process(client: Any, app: Any,
                                                      other_app: Any) -> None:
    match_id, (ana, _) = full_match(client, players=2, **D2_SETUP)
    view(client, match_id, ana)
    listening(app)
    tag = view(client, match_id, ana).headers["ETag"]
    assert view(client, match_id, ana, tag).status_code == 304  # the token is known here
    r = other_app.test_client().post("/v1/players/me/token", headers=ana.headers)
    assert r.status_code == 200
    refused = eventually(lambda: view(client, match_id, ana, tag).status_code == 401)
    assert refused, "the old token still works in the other process"
    ana.token = r.json["token"]
    assert view(client, match_id, ana, tag).status_code == 304


def test_a_token_replaced_here_is_refused_at_once(client: Any, app: Any) -> None:
    match_id, (ana, _) = full_match(client, players=2, **D2_SETUP)
    view(client, match_id, ana)
    listening(app)
    tag = view(client, match_id, ana).headers["ETag"]
    assert view(client, match_id, ana, tag).status_code == 304
    assert client.post("/v1/players/me/token", headers=ana.headers).status_code == 200
    assert view(client, match_id, ana, tag).status_code == 401


def test_a_304_heard_of_is_answered_before_flask_with_the_same_headers(
        client: Any, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    for viewer in (seated[0], None):
        view(client, match_id, viewer)
        listening(app)
        tag = view(client, match_id, viewer).headers["ETag"]
        headers = {**(viewer.headers if viewer else {}), "If-None-Match": tag}
        # (an Origin header sends the request to Flask; CORS is off, so nothing else differs)
        through_flask = client.get(f"/v1/matches/{match_id}", headers={**headers, "Origin": "x"})
        with monkeypatch.context() as patched:
            def no_flask() -> None:
                raise AssertionError("Flask dispatched a request the shortcut answers")
            patched.setattr(app, "full_dispatch_request", no_flask)
            short = client.get(f"/v1/matches/{match_id}", headers=headers)
        assert through_flask.status_code == short.status_code == 304
        assert sorted(short.headers.items()) == sorted(through_flask.headers.items())
        assert short.get_data() == b""


def test_what_the_shortcut_does_not_know_goes_to_flask(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    view(client, match_id, seated[0])
    listening(app)
    tag = view(client, match_id, seated[0]).headers["ETag"]
    # another viewer's tag, a malformed or unknown token, a stale tag: Flask answers
    assert view(client, match_id, seated[1], tag).status_code == 200
    r = client.get(f"/v1/matches/{match_id}",
                   headers={"Authorization": "Basic x", "If-None-Match": tag})
    assert r.status_code == 401
    r = client.get(f"/v1/matches/{match_id}",
                   headers={"Authorization": "Bearer tk_unknown", "If-None-Match": tag})
    assert r.status_code == 401
    move(client, match_id, seated)
    assert view(client, match_id, seated[0], tag).status_code == 200


def test_woken_long_polls_share_one_read(client: Any, app: Any,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Waiters woken by a change answer with the version heard (newer than their tag)
    from one shared rendering: no read of the version per waiter."""
    import threading

    from app.http.front import view as front
    from app.http.routes import matches as routes

    match_id, seated, tag = watched_match(client, app)
    ana = seated[0]
    mover, action = next_move(client, match_id, seated)
    reads: list[str] = []
    for reader in (front._Reader, routes._Reader):  # (both fronts' reads of the version)
        def spy(self: Any, match_id: str, digest: Any, original: Any = reader.read) -> Any:
            reads.append(match_id)
            return original(self, match_id, digest)

        monkeypatch.setattr(reader, "read", spy)
    answers: list[Any] = []

    def poll() -> None:
        answers.append(app.test_client().get(
            f"/v1/matches/{match_id}?wait=10",
            headers={**ana.headers, "If-None-Match": tag}))

    threads = [threading.Thread(target=poll) for _ in range(6)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)  # (all waiting)
    moved = act_ok(app.test_client(), match_id, mover, action)
    for thread in threads:
        thread.join(10)
    assert len(answers) == 6
    assert {r.status_code for r in answers} == {200}
    assert {r.json["version"] for r in answers} == {moved["version"]}
    assert reads == []


def test_a_rendered_view_is_served_before_flask_with_the_same_answer(
        client: Any, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A view whose rendering this process has is read (one shared statement) and sent before
    Flask: the same status, headers and body as Flask's path gives."""
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    watch(app, match_id)  # (a stale If-None-Match would watch it first otherwise)
    for viewer in (seated[1], None):
        view(client, match_id, viewer)
        listening(app)
        auth = viewer.headers if viewer else {}
        through_flask = client.get(f"/v1/matches/{match_id}", headers={**auth, "Origin": "x"})
        stale = {**auth, "If-None-Match": '"m_other.v1.seat0"'}
        through_flask_stale = client.get(f"/v1/matches/{match_id}",
                                         headers={**stale, "Origin": "x"})
        with monkeypatch.context() as patched:
            def no_flask() -> None:
                raise AssertionError("Flask dispatched a request the shortcut answers")
            patched.setattr(app, "full_dispatch_request", no_flask)
            with counted(app) as statements:
                short = client.get(f"/v1/matches/{match_id}", headers=auth)
                short_stale = client.get(f"/v1/matches/{match_id}", headers=stale)
        assert statements == ["EXECUTE truco_view_current"] * 2
        for ours, flask in ((short, through_flask), (short_stale, through_flask_stale)):
            assert ours.status_code == flask.status_code == 200
            assert sorted(ours.headers.items()) == sorted(flask.headers.items())
            assert ours.get_data() == flask.get_data()
    # the token is checked in the database too: a rotated one goes to Flask (401)
    rotated = client.post("/v1/players/me/token", headers=seated[1].headers)
    assert rotated.status_code == 200
    assert client.get(f"/v1/matches/{match_id}", headers=seated[1].headers).status_code == 401


def _hold(app: Any, url: str, headers: dict[str, str], into: list[Any]) -> Any:
    import threading

    thread = threading.Thread(target=lambda: into.append(app.test_client().get(url,
                                                                              headers=headers)))
    thread.start()
    return thread


def test_a_long_poll_heard_of_waits_before_flask_and_answers_as_flask_does(
        client: Any, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, seated, tag = watched_match(client, app)
    ana = seated[0]
    mover, action = next_move(client, match_id, seated)
    url = f"/v1/matches/{match_id}?wait=5"
    headers = {**ana.headers, "If-None-Match": tag, "X-Request-Id": "held"}  # (one for both)
    real_dispatch = app.full_dispatch_request
    dispatched: list[str] = []

    def counting() -> Any:
        from flask import request
        if request.method == "GET":
            dispatched.append(request.headers.get("Origin", "-"))
        return real_dispatch()

    monkeypatch.setattr(app, "full_dispatch_request", counting)
    ours: list[Any] = []
    flask: list[Any] = []
    threads = [_hold(app, url, headers, ours),
               _hold(app, url, {**headers, "Origin": "x"}, flask)]
    time.sleep(0.3)
    assert not ours and not flask  # both wait
    act_ok(app.test_client(), match_id, mover, action)
    for thread in threads:
        thread.join(10)
    assert ours[0].status_code == flask[0].status_code == 200
    assert sorted(ours[0].headers.items()) == sorted(flask[0].headers.items())
    assert ours[0].get_data() == flask[0].get_data()
    assert dispatched == ["x"]  # ours never reached Flask
    # a wait that runs out: 304 with the tag, the same headers as Flask's
    tag = ours[0].headers["ETag"]
    quiet = {**ana.headers, "If-None-Match": tag}
    short = client.get(f"/v1/matches/{match_id}?wait=1", headers=quiet)
    through_flask = client.get(f"/v1/matches/{match_id}?wait=1", headers={**quiet, "Origin": "x"})
    assert short.status_code == through_flask.status_code == 304
    assert sorted(short.headers.items()) == sorted(through_flask.headers.items())


def test_the_long_poll_cap_holds_before_flask(client: Any, app: Any) -> None:
    app.config["MAX_POLLS_PER_CLIENT"] = 1
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    ana = seated[0]
    view(client, match_id, ana)
    listening(app)
    tag = view(client, match_id, ana).headers["ETag"]
    held: list[Any] = []
    thread = _hold(app, f"/v1/matches/{match_id}?wait=2",
                   {**ana.headers, "If-None-Match": tag}, held)
    time.sleep(0.3)
    over = client.get(f"/v1/matches/{match_id}?wait=2",
                      headers={**ana.headers, "If-None-Match": tag})
    assert over.status_code == 429 and over.json["code"] == "rate_limited"
    thread.join(5)
    assert held[0].status_code == 304
    # the slot was given back
    again = client.get(f"/v1/matches/{match_id}?wait=1",
                       headers={**ana.headers, "If-None-Match": tag})
    assert again.status_code == 304


def test_only_a_plain_wait_query_is_taken_before_flask() -> None:
    from app.http.front.view import wait_seconds

    assert wait_seconds("") == 0
    assert wait_seconds("wait=0") == 0 and wait_seconds("wait=60") == 60
    for other in ("wait=61", "wait=", "wait=+1", "wait=1&x=2", "x=1", "wait=١", "wait=100"):
        assert wait_seconds(other) is None, other


def test_a_render_the_shortcut_cannot_make_goes_to_flask(
        client: Any, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import psycopg2

    from app.http.front import view as view_shortcut

    match_id, seated, tag = watched_match(client, app)
    mover, action = next_move(client, match_id, seated)
    act_ok(client, match_id, mover, action)  # a version nobody has rendered for seat 0 yet

    def broken(match_id: str, conn: Any = None) -> Any:
        raise psycopg2.OperationalError("the database went away")

    monkeypatch.setattr(view_shortcut, "read_match", broken)
    r = view(client, match_id, seated[0])
    assert r.status_code == 200 and r.headers["ETag"] != tag  # rendered by Flask's path
    assert r.json["version"] == get_view(client, match_id, seated[1])["version"]


def test_a_poll_on_flasks_path_takes_no_second_connection(client: Any, app: Any) -> None:
    # a caller this process does not know yet is answered by Flask's path, on the session's
    # connection: a burst of such polls must not take two pooled connections each
    match_id, seated = full_match(client, players=2, **D2_SETUP)
    tag = view(client, match_id, seated[0]).headers["ETag"]
    listening(app).known.listening(True)  # (forgets every token: the next poll is Flask's)
    with connections_held(app) as most, counted(app) as statements:
        assert view(client, match_id, seated[0], tag).status_code == 304
    assert most == [1]
    assert "EXECUTE truco_watch" not in statements
