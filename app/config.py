"""Configuration from the environment (secrets and settings never live in the code).

Variables: ``DATABASE_URL`` (normalised to ``postgresql+psycopg2://``), ``TRUCO_ENV``
(``development`` | ``production`` | ``testing``, default ``development``) and
``TRUCO_FIXED_DEALS`` (``1`` / ``0``; unset: allowed everywhere but production).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from app.embedded_pg import normalise_database_url

ENVIRONMENTS = ("development", "production", "testing")
MAX_BODY_BYTES = 64 * 1024

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _flag(name: str, value: str | None, default: bool) -> bool:
    """Parse a boolean environment variable; unset or empty gives ``default``."""
    if value is None or not value.strip():
        return default
    text = value.strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"{name} must be 1 or 0, not {value!r}")


def load_config(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Build the Flask config mapping from ``environ`` (default: ``os.environ``)."""
    env = os.environ if environ is None else environ
    truco_env = (env.get("TRUCO_ENV") or "development").strip().lower()
    if truco_env not in ENVIRONMENTS:
        raise ValueError(f"TRUCO_ENV must be one of {', '.join(ENVIRONMENTS)}, not {truco_env!r}")
    url = env.get("DATABASE_URL")
    return {
        "TRUCO_ENV": truco_env,
        "TESTING": truco_env == "testing",
        "SQLALCHEMY_DATABASE_URI": normalise_database_url(url) if url else None,
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
        "FIXED_DEALS_ALLOWED": _flag(
            "TRUCO_FIXED_DEALS", env.get("TRUCO_FIXED_DEALS"), truco_env != "production"
        ),
        "MAX_CONTENT_LENGTH": MAX_BODY_BYTES,
        # "COUNT/SECONDS" shared by all processes (counted in PostgreSQL); empty turns a limit
        # off (the default under testing).
        "RATE_LIMIT_REGISTER": env.get(
            "TRUCO_RATE_REGISTER", "" if truco_env == "testing" else "20/60"),
        "RATE_LIMIT_ACTION": env.get(
            "TRUCO_RATE_ACTION", "" if truco_env == "testing" else "60/10"),
        "RATE_LIMIT_CREATE": env.get(
            "TRUCO_RATE_CREATE", "" if truco_env == "testing" else "30/60"),
        # How many matches one player may have waiting for players at once.
        "MAX_WAITING_MATCHES": int(env.get("TRUCO_MAX_WAITING_MATCHES") or 20),
        # flask-smorest / apispec: the generated spec is the source of openapi.yaml.
        "API_TITLE": "Truco API",
        "API_VERSION": "1",
        "OPENAPI_VERSION": "3.0.3",
        "API_SPEC_OPTIONS": {
            "info": {"description": (
                "Truco Paulista game server. The contract in prose is docs/api.md in the "
                "source repository (also served by the server at /docs/api.md); the rules are "
                "docs/rules.md (/docs/rules.md).")},
            "components": {
                "securitySchemes": {
                    "bearerAuth": {"type": "http", "scheme": "bearer"},
                },
            },
        },
    }
