"""CORS: off by default, ``*``, or a list of origins; preflights answered before auth.

No database is needed: these requests never reach one.
"""
from __future__ import annotations

from typing import Any

import pytest

from app import create_app
from app.http.cors import ALLOWED_HEADERS, EXPOSED_HEADERS, parse_origins

UNUSED_DB = "postgresql+psycopg2://nobody@127.0.0.1:1/none"
ALLOWED = "https://play.example"
OTHER = "https://evil.example"


def _client(origins: str | None, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A test client whose ``TRUCO_CORS_ORIGINS`` is ``origins`` (None: unset)."""
    if origins is None:
        monkeypatch.delenv("TRUCO_CORS_ORIGINS", raising=False)
    else:
        monkeypatch.setenv("TRUCO_CORS_ORIGINS", origins)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": UNUSED_DB})
    return app.test_client()


def _preflight(client: Any, path: str, origin: str, method: str = "POST") -> Any:
    return client.open(path, method="OPTIONS", headers={
        "Origin": origin, "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": "authorization, content-type, if-match"})


def _header_set(value: str | None) -> set[str]:
    return {h.strip().lower() for h in (value or "").split(",") if h.strip()}


def test_parse_origins() -> None:
    assert parse_origins(None) == ()
    assert parse_origins("  ") == ()
    assert parse_origins("*") == ("*",)
    assert parse_origins("https://a.example/, http://b.example:8080") == (
        "https://a.example", "http://b.example:8080")
    assert parse_origins("https://a.example,*") == ("*",)


@pytest.mark.parametrize("origins", [None, ""])
def test_off_by_default(origins: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    client = _client(origins, monkeypatch)
    r = client.get("/healthz", headers={"Origin": ALLOWED})
    assert r.status_code == 200
    assert not [h for h in r.headers.keys() if h.lower().startswith("access-control-")]
    # a preflight is not answered for CORS: the actions endpoint wants a token first
    r = _preflight(client, "/v1/matches/m_x/actions", ALLOWED)
    assert "Access-Control-Allow-Origin" not in r.headers
    assert r.status_code == 401


def test_star_allows_any_origin_and_exposes_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    client = _client("*", monkeypatch)
    r = client.get("/healthz", headers={"Origin": OTHER})
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert _header_set(r.headers["Access-Control-Expose-Headers"]) == {
        h.lower() for h in EXPOSED_HEADERS}
    assert "Access-Control-Allow-Credentials" not in r.headers
    # errors are readable too (a browser client must see the problem body and its code)
    r = client.post("/v1/matches", json={}, headers={"Origin": OTHER})
    assert r.status_code == 401
    assert r.json["code"] == "unauthorized"
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    # no Origin header (curl, bots): nothing to add
    assert "Access-Control-Allow-Origin" not in client.get("/healthz").headers


def test_star_preflight_is_answered_before_authentication(
        monkeypatch: pytest.MonkeyPatch) -> None:
    client = _client("*", monkeypatch)
    r = _preflight(client, "/v1/matches/m_x/actions", OTHER)
    assert r.status_code == 204
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert r.headers["Access-Control-Allow-Methods"] == "POST"
    assert _header_set(r.headers["Access-Control-Allow-Headers"]) == {
        h.lower() for h in ALLOWED_HEADERS}
    assert int(r.headers["Access-Control-Max-Age"]) > 0
    # the view: GET with If-None-Match
    r = _preflight(client, "/v1/matches/m_x", OTHER, method="GET")
    assert r.status_code == 204
    assert "GET" in r.headers["Access-Control-Allow-Methods"]


def test_unknown_url_preflight_is_a_404(monkeypatch: pytest.MonkeyPatch) -> None:
    client = _client("*", monkeypatch)
    r = _preflight(client, "/v1/nothing-here", OTHER)
    assert r.status_code == 404
    assert r.json["code"] == "not_found"


def test_list_allows_listed_origins_only(monkeypatch: pytest.MonkeyPatch) -> None:
    client = _client(f"{ALLOWED}, http://localhost:3000", monkeypatch)
    r = client.get("/healthz", headers={"Origin": ALLOWED})
    assert r.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "Origin" in r.headers.get("Vary", "")
    assert "ETag" in r.headers["Access-Control-Expose-Headers"]
    r = client.get("/healthz", headers={"Origin": "http://localhost:3000"})
    assert r.headers["Access-Control-Allow-Origin"] == "http://localhost:3000"

    refused = client.get("/healthz", headers={"Origin": OTHER})
    assert refused.status_code == 200  # the server answers; the browser withholds it
    assert "Access-Control-Allow-Origin" not in refused.headers
    assert "Origin" in refused.headers.get("Vary", "")


def test_list_preflight(monkeypatch: pytest.MonkeyPatch) -> None:
    client = _client(ALLOWED, monkeypatch)
    r = _preflight(client, "/v1/matches", ALLOWED)
    assert r.status_code == 204
    assert r.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert {"GET", "POST"} <= {m.strip() for m in
                               r.headers["Access-Control-Allow-Methods"].split(",")}
    refused = _preflight(client, "/v1/matches", OTHER)
    assert "Access-Control-Allow-Origin" not in refused.headers
    assert "Access-Control-Allow-Methods" not in refused.headers


def test_config_key_wins_over_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUCO_CORS_ORIGINS", "*")
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": UNUSED_DB,
                      "CORS_ORIGINS": ""})
    r = app.test_client().get("/healthz", headers={"Origin": OTHER})
    assert "Access-Control-Allow-Origin" not in r.headers
