"""Deployment files: docker-compose.yml, Dockerfile and gunicorn.conf.py say what we rely on."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _command_text(command: Any) -> str:
    return command if isinstance(command, str) else " ".join(command)


def _migrates_then_serves(command: str) -> bool:
    upgrade, gunicorn = command.find("db upgrade"), command.find("gunicorn")
    return 0 <= upgrade < gunicorn and "&&" in command[upgrade:gunicorn]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_services(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"db", "app", "worker"}
    db = services["db"]
    assert db["image"].startswith("postgres:16")
    assert "pg_isready" in _command_text(db["healthcheck"]["test"])


def test_compose_app_runs_migrations_before_gunicorn(compose: dict[str, Any]) -> None:
    app = compose["services"]["app"]
    assert app["build"] == "."
    env = app["environment"]
    assert env["DATABASE_URL"] == "postgresql+psycopg2://truco:truco@db:5432/truco"
    assert env["TRUCO_ENV"] == "production"
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert any(str(p).split(":")[-1] == "8000" for p in app["ports"])
    assert _migrates_then_serves(_command_text(app["command"]))


def test_compose_runs_a_background_worker(compose: dict[str, Any]) -> None:
    worker = compose["services"]["worker"]
    assert worker["command"] == ["python", "-m", "app.worker"]
    assert worker["environment"]["DATABASE_URL"] == compose["services"]["app"]["environment"][
        "DATABASE_URL"]
    # it starts once the app has migrated the database
    assert worker["depends_on"]["app"]["condition"] == "service_healthy"


def test_dockerfile_migrates_then_serves() -> None:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    assert lines[0].strip() == "FROM python:3.11-slim"
    assert any("pip install -r requirements.txt" in line for line in lines)
    cmd = [line for line in lines if line.startswith("CMD ")]
    assert len(cmd) == 1
    assert _migrates_then_serves(_command_text(json.loads(cmd[0][4:])))


def test_the_image_installs_only_the_runtime_set() -> None:
    """The test and CI tools of requirements-dev.txt stay out of the image."""
    steps = [line for line in (ROOT / "Dockerfile").read_text().splitlines()
             if line.startswith(("RUN ", "COPY "))]
    assert "COPY requirements.txt ." in steps and "RUN pip install -r requirements.txt" in steps
    assert not any("requirements-dev" in step or "pytest" in step for step in steps)


def test_gunicorn_conf_uses_gevent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    monkeypatch.setenv("PORT", "8123")
    monkeypatch.delenv("BIND_HOST", raising=False)
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert conf["worker_class"] == "app.infra.gunicorn_worker.ProblemGeventWorker"
    assert conf["worker_connections"] == 2000
    assert conf["workers"] == 3
    assert conf["bind"] == ["0.0.0.0:8123"]


def test_gunicorn_post_fork_patches_psycopg_only_under_gevent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from app.infra import dbwait
    from gunicorn.workers.ggevent import GeventWorker
    from gunicorn.workers.sync import SyncWorker

    calls: list[int] = []
    monkeypatch.setattr(dbwait, "patch_psycopg", lambda: calls.append(1))
    post_fork = runpy.run_path(str(ROOT / "gunicorn.conf.py"))["post_fork"]
    post_fork(None, SyncWorker.__new__(SyncWorker))
    assert calls == []
    post_fork(None, GeventWorker.__new__(GeventWorker))
    assert calls == [1]
