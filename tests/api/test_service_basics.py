"""Service endpoints on a real PostgreSQL: health, readiness, problems, docs, contract."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import requests
import yaml

from app import create_app
from tests.support.servers import Server

ROOT = Path(__file__).resolve().parents[2]
PROBLEM = "application/problem+json"


def test_healthz(client: Any) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json == {"status": "ok"}


def test_readyz_with_database(client: Any) -> None:
    r = client.get("/readyz")
    assert r.status_code == 200
    assert r.json == {"status": "ready"}


def test_readyz_without_database_is_503_problem() -> None:
    app = create_app({"TESTING": True,
                      "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg2://nobody@127.0.0.1:1/none"})
    r = app.test_client().get("/readyz")
    assert r.status_code == 503
    assert r.content_type == PROBLEM
    assert r.json["code"] == "database_unavailable"
    assert r.json["status"] == 503


def test_unknown_path_is_404_problem(client: Any) -> None:
    r = client.get("/no/such/thing")
    assert r.status_code == 404
    assert r.content_type == PROBLEM
    body = r.json
    assert body["code"] == "not_found"
    assert body["status"] == 404
    assert set(body) >= {"type", "title", "status", "detail", "code"}
    assert "<" not in r.get_data(as_text=True)


def test_docs_page_uses_only_local_assets(client: Any) -> None:
    r = client.get("/docs")
    assert r.status_code == 200
    assert r.mimetype == "text/html"
    html = r.get_data(as_text=True)
    assert "swagger-ui" in html.lower()
    assert "/openapi.yaml" in html
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", html, re.I), "no external URL"
    assets = re.findall(r'(?:src|href)="(/docs/[^"]+)"', html)
    assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
    for asset in assets:
        assert client.get(asset).status_code == 200, asset


def test_openapi_yaml_is_the_committed_file(client: Any) -> None:
    r = client.get("/openapi.yaml")
    assert r.status_code == 200
    assert r.mimetype == "application/yaml"
    assert r.data == (ROOT / "openapi.yaml").read_bytes()
    assert "openapi" in yaml.safe_load(r.data)


def test_openapi_yaml_missing_is_404_problem(database_url: str, tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url,
                      "OPENAPI_FILE": str(tmp_path / "absent.yaml")})
    r = app.test_client().get("/openapi.yaml")
    assert r.status_code == 404
    assert r.content_type == PROBLEM


def test_gunicorn_gevent_serves_on_real_postgres(database_url: str, tmp_path: Path) -> None:
    """gunicorn.conf.py + wsgi:app in a real gevent worker (psycogreen) answer /readyz."""
    log = tmp_path / "gunicorn.log"
    server = Server("basics", {"DATABASE_URL": database_url, "TRUCO_ENV": "testing"},
                    worker=False, log_path=log)
    try:
        server.wait_healthy(timeout=30)
        base = server.url
        r = requests.get(f"{base}/healthz", timeout=2)
        assert r.json() == {"status": "ok"}
        r = requests.get(f"{base}/readyz", timeout=5)
        assert r.status_code == 200, r.text
        r = requests.get(f"{base}/nope", timeout=5)
        assert r.status_code == 404
        assert r.headers["Content-Type"] == PROBLEM
    finally:
        server.stop()
    assert server.process.returncode == 0, log.read_text()[-2000:]
