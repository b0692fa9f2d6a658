"""Configuration from the environment and database URL normalisation."""

from __future__ import annotations

import pytest

from app import create_app
from app.infra.config import load_config
from app.infra.config import normalise_database_url

PSYCOPG2 = "postgresql+psycopg2://u:p@h:5432/d"


@pytest.mark.parametrize("url", [
    "postgres://u:p@h:5432/d",
    "postgresql://u:p@h:5432/d",
    "postgresql+psycopg://u:p@h:5432/d",
    "postgresql+psycopg2://u:p@h:5432/d",
    " postgresql://u:p@h:5432/d\n",
])
def test_database_urls_get_the_psycopg2_driver(url: str) -> None:
    assert normalise_database_url(url) == PSYCOPG2


def test_other_schemes_are_left_alone() -> None:
    assert normalise_database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_defaults() -> None:
    config = load_config({"DATABASE_URL": "postgres://u:p@h:5432/d"})
    assert config["TRUCO_ENV"] == "development"
    assert config["SQLALCHEMY_DATABASE_URI"] == PSYCOPG2
    assert config["FIXED_DEALS_ALLOWED"] is True
    assert config["MAX_CONTENT_LENGTH"] == 64 * 1024
    assert config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] is False
    assert config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_recycle"] == 600
    assert config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_size"] == 10
    assert config["SQLALCHEMY_ENGINE_OPTIONS"]["max_overflow"] == 10
    assert config["TESTING"] is False
    pinging = load_config({"DATABASE_URL": "postgres://u:p@h:5432/d", "TRUCO_DB_PRE_PING": "1"})
    assert pinging["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] is True


@pytest.mark.parametrize(("env", "flag", "allowed"), [
    ("development", None, True),
    ("testing", None, True),
    ("production", None, False),
    ("production", "1", True),
    ("development", "0", False),
    ("testing", "", True),
])
def test_fixed_deals_flag(env: str, flag: str | None, allowed: bool) -> None:
    environ = {"TRUCO_ENV": env}
    if flag is not None:
        environ["TRUCO_FIXED_DEALS"] = flag
    assert load_config(environ)["FIXED_DEALS_ALLOWED"] is allowed


@pytest.mark.parametrize("environ", [{"TRUCO_ENV": "staging"}, {"TRUCO_FIXED_DEALS": "maybe"}])
def test_bad_values_are_refused(environ: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        load_config(environ)


def test_app_needs_a_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    with pytest.raises(RuntimeError, match="DATABASE_URL"):
        create_app()


def test_app_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@h:5432/d")
    monkeypatch.setenv("TRUCO_ENV", "production")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == PSYCOPG2
    assert app.config["FIXED_DEALS_ALLOWED"] is False
    assert app.config["API_TITLE"] == "Truco API"
    spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    assert spec["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    assert spec["info"]["title"] == "Truco API"
    assert spec["openapi"] == "3.0.3"
    error = spec["components"]["responses"]["DEFAULT_ERROR"]["content"]
    assert list(error) == ["application/problem+json"]
    problem = spec["components"]["schemas"]["Problem"]
    assert set(problem["required"]) == {"type", "title", "status", "detail", "code"}
