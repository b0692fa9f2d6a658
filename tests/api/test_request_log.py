"""Every answer carries an X-Request-Id (the request's own when sane); one access line per
request; the worker's line for work a request caused names that request's id."""
from __future__ import annotations

import json
import logging
import select
from typing import Any

import psycopg2
import pytest
from prometheus_client import REGISTRY

from app import create_app
from app.infra.logs import JsonLines, Text
from tests.support.api import create, register, run_worker
from tests.support.database import libpq_url


def test_an_answer_carries_the_requests_id_or_a_new_one(app: Any) -> None:
    client = app.test_client()
    given = client.get("/healthz", headers={"X-Request-Id": "trace-42.a:b_c"})
    assert given.headers["X-Request-Id"] == "trace-42.a:b_c"
    made = [client.get("/healthz", headers=h).headers["X-Request-Id"]
            for h in ({}, {"X-Request-Id": "no spaces allowed"}, {"X-Request-Id": "x" * 65})]
    assert len(set(made)) == 3 and all(1 <= len(rid) <= 64 for rid in made)
    assert "no spaces allowed" not in made


def test_both_fronts_carry_it(app: Any) -> None:
    """The view's fast path (a 304 heard of) and Flask's (a problem) alike."""
    client = app.test_client()
    ana = register(client, "ana")
    m = create(client, ana, bots=[{"seat": 1, "level": "random"}])
    tag = client.get(f"/v1/matches/{m['id']}", headers=ana.headers).headers["ETag"]
    fast = client.get(f"/v1/matches/{m['id']}",
                      headers={**ana.headers, "If-None-Match": tag, "X-Request-Id": "r1"})
    problem = client.get("/v1/matches/m_nothing", headers={"X-Request-Id": "r2"})
    assert (fast.status_code, fast.headers["X-Request-Id"]) == (304, "r1")
    assert (problem.status_code, problem.headers["X-Request-Id"]) == (404, "r2")


def test_one_access_line_per_request(database_url: str,
                                     caplog: pytest.LogCaptureFixture) -> None:
    client = create_app({"DATABASE_URL": database_url, "ACCESS_LOG": True}).test_client()
    with caplog.at_level(logging.INFO, logger="app.access"):
        client.get("/healthz", headers={"X-Request-Id": "line-1"})
        client.get("/v1/matches/m_nothing?wait=0")
    lines = [r for r in caplog.records if r.name == "app.access"]
    assert [(r.method, r.path, r.status) for r in lines] == [
        ("GET", "/healthz", 200), ("GET", "/v1/matches/m_nothing", 404)]
    assert lines[0].request_id == "line-1" and lines[0].ms >= 0
    assert lines[0].getMessage().startswith("GET /healthz 200 ")
    parsed = json.loads(JsonLines("web").format(lines[0]))
    assert {k: parsed[k] for k in ("level", "logger", "process", "request_id", "status")} == {
        "level": "info", "logger": "app.access", "process": "web", "request_id": "line-1",
        "status": 200}


def test_a_path_cannot_forge_a_text_line(database_url: str,
                                         caplog: pytest.LogCaptureFixture) -> None:
    """A newline (or a terminal escape) in the path is escaped in the people's format: the
    access line stays one line."""
    client = create_app({"DATABASE_URL": database_url, "ACCESS_LOG": True}).test_client()
    with caplog.at_level(logging.INFO, logger="app.access"):
        client.get("/v1/matches/x%0A2026-01-01 00:00:00 [web] GET /forged 200%0D%1B[2K/events")
    [line] = [r for r in caplog.records if r.name == "app.access"]
    text = Text("web").format(line)
    assert "\n" not in text and "\r" not in text and "\x1b" not in text
    assert "/v1/matches/x\\x0a2026-01-01" in text and text.endswith("request_id=" + line.request_id)
    assert json.loads(JsonLines("web").format(line))["path"].startswith("/v1/matches/x\n")


def test_the_worker_line_names_the_request_that_made_the_work_due(
        app: Any, database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    listener = psycopg2.connect(libpq_url(database_url))
    listener.autocommit = True
    listener.cursor().execute("LISTEN truco_due")
    client = app.test_client()
    ana = register(client, "ana")
    # the bot deals second and leads: its move is due as the match starts
    r = client.post("/v1/matches", headers={**ana.headers, "X-Request-Id": "made-it"}, json={
        "bots": [{"seat": 1, "level": "random"}], "options": {"first_dealer": 0}})
    assert r.status_code == 201
    select.select([listener], [], [], 5)
    listener.poll()
    payloads = [n.payload for n in listener.notifies]
    listener.close()
    assert f"{r.json['id']} made-it" in payloads
    steps = REGISTRY.get_sample_value("truco_worker_steps_total", {"step": "bot_moved"}) or 0
    app.config["ACCESS_LOG"] = True
    try:
        from app.db.extensions import db
        from app.play.background import run_due

        with app.app_context(), caplog.at_level(logging.INFO, logger="app.worker"):
            assert run_due(causes={r.json["id"]: "made-it"}) == 1
            db.session.remove()
    finally:
        app.config["ACCESS_LOG"] = False
    (line,) = [rec for rec in caplog.records if rec.name == "app.worker"]
    assert (line.step, line.match_id, line.request_id) == ("bot_moved", r.json["id"], "made-it")
    assert REGISTRY.get_sample_value("truco_worker_steps_total", {"step": "bot_moved"}) == steps + 1
    assert run_worker(app) == 0


def test_forked_processes_draw_request_ids_of_their_own() -> None:
    """gunicorn's workers are forks of one process: their ids must not collide."""
    import os

    from app.infra.request_ids import new_request_id

    mine = new_request_id()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's only work
        os.write(write, new_request_id().encode())
        os._exit(0)
    os.waitpid(child, 0)
    theirs = os.read(read, 100).decode()
    os.close(read)
    os.close(write)
    assert theirs.split("-")[0] != mine.split("-")[0]
    assert theirs.endswith("-1")
