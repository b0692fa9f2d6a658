"""Every error is a problem+json with a stable code (no database needed)."""

from __future__ import annotations

import logging
from typing import Any

import marshmallow as ma
import pytest
from flask import request
from flask_smorest import Blueprint, abort

from app import create_app
from app.infra.problems import ApiError
from app.http.api_spec import api

PROBLEM = "application/problem+json"
NO_DB = "postgresql+psycopg2://nobody@127.0.0.1:1/none"


class NameSchema(ma.Schema):
    name = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=32))
    seats = ma.fields.Integer()


@pytest.fixture()
def client() -> Any:
    """An app with a few routes that fail in each way (shadows the DB-backed client)."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": NO_DB})
    blp = Blueprint("errors_test", __name__, url_prefix="/t")

    @blp.route("/args", methods=["POST"])
    @blp.arguments(NameSchema)
    def with_args(body: dict[str, Any]) -> dict[str, Any]:
        return body

    @blp.route("/abort")
    def aborting() -> None:
        abort(409, message="That is taken.")

    api.register_blueprint(blp)

    @app.post("/t/raw-json")
    def raw_json() -> dict[str, Any]:
        return {"got": request.get_json()}

    @app.get("/t/api-error")
    def api_error() -> None:
        raise ApiError(422, "illegal_action", "Not your turn.", reason="not_your_turn",
                       legal_actions=[], headers={"X-Extra": "1"})

    @app.get("/t/unauthorized")
    def unauthorized() -> None:
        raise ApiError(401, "unauthorized", "Use a bearer token.")

    @app.get("/t/slow-down")
    def slow_down() -> None:
        raise ApiError(429, "rate_limited", "Too many requests.", retry_after=2.5)

    @app.get("/t/boom")
    def boom() -> None:
        raise RuntimeError("secret internals")

    return app.test_client()


def _problem(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.get_data(as_text=True)
    assert r.content_type == PROBLEM
    body = r.json
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"].endswith(code)
    assert body["title"] and body["detail"]
    return body


def test_api_error_carries_extra_fields_and_headers(client: Any) -> None:
    r = client.get("/t/api-error")
    body = _problem(r, 422, "illegal_action")
    assert body["reason"] == "not_your_turn"
    assert body["legal_actions"] == []
    assert body["detail"] == "Not your turn."
    assert r.headers["X-Extra"] == "1"


def test_401_asks_for_bearer(client: Any) -> None:
    r = client.get("/t/unauthorized")
    _problem(r, 401, "unauthorized")
    assert r.headers["WWW-Authenticate"] == "Bearer"


def test_retry_after_sets_header(client: Any) -> None:
    """2.5 s is rounded up, to the same whole number of seconds in the body and the header."""
    r = client.get("/t/slow-down")
    assert _problem(r, 429, "rate_limited")["retry_after"] == 3
    assert r.headers["Retry-After"] == "3"


def test_not_found(client: Any) -> None:
    _problem(client.get("/missing"), 404, "not_found")


def test_method_not_allowed_lists_allowed_methods(client: Any) -> None:
    r = client.delete("/healthz")
    _problem(r, 405, "method_not_allowed")
    assert "GET" in r.headers["Allow"]


def test_body_over_64_kib_is_413(client: Any) -> None:
    r = client.post("/t/args", data=b"x" * (64 * 1024 + 1), content_type="application/json")
    _problem(r, 413, "payload_too_large")


def test_schema_validation_lists_errors_per_field(client: Any) -> None:
    r = client.post("/t/args", json={"name": "", "seats": "many", "bogus": 1})
    body = _problem(r, 422, "validation_error")
    assert set(body["errors"]) == {"name", "seats", "bogus"}
    assert all(isinstance(v, list) and v for v in body["errors"].values())


@pytest.mark.parametrize("path", ["/t/args", "/t/raw-json"])
def test_malformed_json_is_422_validation_error(client: Any, path: str) -> None:
    r = client.post(path, data=b'{"name": ', content_type="application/json")
    body = _problem(r, 422, "validation_error")
    assert "_body" in body["errors"]


def test_get_json_with_other_content_type_is_415(client: Any) -> None:
    r = client.post("/t/raw-json", data=b"name=x", content_type="text/plain")
    _problem(r, 415, "unsupported_media_type")


def test_smorest_abort_keeps_message(client: Any) -> None:
    body = _problem(client.get("/t/abort"), 409, "conflict")
    assert body["detail"] == "That is taken."


def test_unexpected_exception_is_bare_500(client: Any, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        r = client.get("/t/boom")
    body = _problem(r, 500, "internal_error")
    text = r.get_data(as_text=True)
    assert "secret internals" not in text and "Traceback" not in text
    assert set(body) == {"type", "title", "status", "detail", "code"}
    assert any("secret internals" in rec.getMessage() or rec.exc_info for rec in caplog.records)
