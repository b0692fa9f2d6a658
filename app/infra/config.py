"""Configuration from the environment (secrets and settings never live in the code).

Variables: ``DATABASE_URL`` (normalised to ``postgresql+psycopg2://``), ``TRUCO_ENV``
(``development`` | ``production`` | ``testing``, default ``development``) and
``TRUCO_FIXED_DEALS`` (``1`` / ``0``; unset: allowed everywhere but production), the
database time limits ``TRUCO_DB_*`` (seconds, see :func:`database_limits`), the body read
limit ``TRUCO_BODY_TIMEOUT``, the long-poll cap ``TRUCO_MAX_POLLS_PER_CLIENT``, the
streams' heartbeat ``TRUCO_STREAM_HEARTBEAT`` and lifetime ``TRUCO_STREAM_MAX_SECONDS``,
the webhook URL rules ``TRUCO_WEBHOOK_ALLOW_HTTP`` / ``TRUCO_WEBHOOK_ALLOW_PRIVATE``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

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


_DRIVER_PREFIX = "postgresql+psycopg2://"
_POSTGRES_SCHEMES = {"postgres", "postgresql", "postgresql+psycopg", "postgresql+psycopg2"}


def normalise_database_url(url: str) -> str:
    """Return ``url`` with an explicit psycopg2 driver (SQLAlchemy 2.1 defaults to psycopg 3).

    ``postgres://``, ``postgresql://`` and ``postgresql+psycopg://`` become
    ``postgresql+psycopg2://``; any other scheme is returned unchanged.
    """
    scheme, sep, rest = url.strip().partition("://")
    if sep and scheme.lower() in _POSTGRES_SCHEMES:
        return _DRIVER_PREFIX + rest
    return url.strip()


POOL_RECYCLE_SECONDS = 600
"""A pooled connection is replaced after this long (idle connections cut by a proxy or a
firewall are not kept for ever)."""

# Seconds (fractions allowed); 0 turns a server-side timeout off.
DB_LIMIT_DEFAULTS = {
    "TRUCO_DB_CONNECT_TIMEOUT": 3.0,
    "TRUCO_DB_STATEMENT_TIMEOUT": 4.0,
    "TRUCO_DB_LOCK_TIMEOUT": 3.0,
    "TRUCO_DB_IDLE_TX_TIMEOUT": 10.0,
    "TRUCO_DB_POOL_TIMEOUT": 3.0,
    "TRUCO_DB_TCP_USER_TIMEOUT": 10.0,
}
READ_DEADLINE_MARGIN = 1.0
"""The client gives up on a silent database this long after the statement timeout."""


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    """A non-negative number of seconds from ``env[name]``; unset or empty gives ``default``."""
    value = (env.get(name) or "").strip()
    if not value:
        return default
    try:
        seconds = float(value)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {value!r}") from None
    if seconds < 0 or math.isnan(seconds):
        raise ValueError(f"{name} must be a number of seconds >= 0, not {value!r}")
    return seconds


def database_limits(env: Mapping[str, str]) -> dict[str, float]:
    """The database time limits in seconds, by variable name (defaults filled in)."""
    return {name: _seconds(env, name, default) for name, default in DB_LIMIT_DEFAULTS.items()}


def connect_args(limits: Mapping[str, float]) -> dict[str, Any]:
    """libpq connection parameters that bound every wait on the database.

    ``connect_timeout`` (whole seconds, libpq's minimum is 2), server-side statement, lock and
    idle-in-transaction timeouts, and TCP keepalives plus ``tcp_user_timeout`` so that a peer
    that vanishes mid-query is noticed. Under gevent, :mod:`app.infra.dbwait` adds client-side
    deadlines (libpq ignores ``connect_timeout`` in asynchronous mode, and a stopped server
    ACKs every byte, so only the client can time it out).
    """
    def ms(name: str) -> int:
        return round(limits[name] * 1000)

    tcp_user = limits["TRUCO_DB_TCP_USER_TIMEOUT"]
    options = " ".join([
        f"-c statement_timeout={ms('TRUCO_DB_STATEMENT_TIMEOUT')}",
        f"-c lock_timeout={ms('TRUCO_DB_LOCK_TIMEOUT')}",
        f"-c idle_in_transaction_session_timeout={ms('TRUCO_DB_IDLE_TX_TIMEOUT')}",
        # the hot paths' prepared statements are planned once per connection (app/db/prepared.py)
        "-c plan_cache_mode=force_generic_plan",
    ])
    args: dict[str, Any] = {
        "connect_timeout": max(2, math.ceil(limits["TRUCO_DB_CONNECT_TIMEOUT"])),
        "options": options,
        "keepalives": 1,
        "keepalives_idle": max(1, math.ceil(tcp_user / 2)),
        "keepalives_interval": max(1, math.ceil(tcp_user / 6)),
        "keepalives_count": 3,
        "tcp_user_timeout": round(tcp_user * 1000),
    }
    return args


def client_deadlines(limits: Mapping[str, float]) -> tuple[float, float]:
    """(connect, read) deadlines in seconds of :mod:`app.infra.dbwait` (0 timeouts: 60 s)."""
    connect = limits["TRUCO_DB_CONNECT_TIMEOUT"] or 60.0
    statement = limits["TRUCO_DB_STATEMENT_TIMEOUT"] or 60.0 - READ_DEADLINE_MARGIN
    return connect, statement + READ_DEADLINE_MARGIN


def load_config(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Build the Flask config mapping from ``environ`` (default: ``os.environ``)."""
    env = os.environ if environ is None else environ
    truco_env = (env.get("TRUCO_ENV") or "development").strip().lower()
    if truco_env not in ENVIRONMENTS:
        raise ValueError(f"TRUCO_ENV must be one of {', '.join(ENVIRONMENTS)}, not {truco_env!r}")
    url = env.get("DATABASE_URL")
    limits = database_limits(env)
    return {
        "TRUCO_ENV": truco_env,
        "TESTING": truco_env == "testing",
        "SQLALCHEMY_DATABASE_URI": normalise_database_url(url) if url else None,
        "DATABASE_LIMITS": limits,
        "DATABASE_CONNECT_ARGS": connect_args(limits),
        "SQLALCHEMY_ENGINE_OPTIONS": {
            # Off by default: a ping is a round trip per request. A connection that died
            # (the database restarted) fails its request with a 503 once, and SQLAlchemy then
            # replaces every pooled connection older than the failure; recycling bounds the
            # age of idle ones (docs/reliability.md).
            "pool_pre_ping": _flag("TRUCO_DB_PRE_PING", env.get("TRUCO_DB_PRE_PING"), False),
            "pool_recycle": POOL_RECYCLE_SECONDS,
            # Connections kept per process. Under gevent a worker serves many requests at
            # once; connections opened beyond the pool are closed when given back, and a new
            # PostgreSQL backend costs far more than a query (its prepared statements too).
            "pool_size": int(env.get("TRUCO_DB_POOL_SIZE") or 10),
            "max_overflow": int(env.get("TRUCO_DB_MAX_OVERFLOW") or 10),
            "pool_timeout": limits["TRUCO_DB_POOL_TIMEOUT"],
            # The connection given back last is taken first: under light load the same few
            # backends serve every request (warm in the CPU's caches, fewer processes woken)
            # and the rest sit idle, instead of a round robin over the whole pool.
            "pool_use_lifo": True,
            "connect_args": connect_args(limits),
        },
        # a request body must arrive whole within this many seconds (408 otherwise)
        "BODY_TIMEOUT": _seconds(env, "TRUCO_BODY_TIMEOUT", 10.0),
        # concurrent long polls per token (or per address without one), per process; 0: no cap
        "MAX_POLLS_PER_CLIENT": int(_seconds(
            env, "TRUCO_MAX_POLLS_PER_CLIENT", 0 if truco_env == "testing" else 20)),
        # a Server-Sent Events stream sends a comment line after this many idle seconds
        # (0.5 to 25: the contract promises a line at least every 25 s)
        "STREAM_HEARTBEAT_SECONDS": max(0.5, min(
            _seconds(env, "TRUCO_STREAM_HEARTBEAT", 20.0), 25.0)),
        # a stream ends after this many seconds (its client reconnects with Last-Event-ID)
        "STREAM_MAX_SECONDS": _seconds(env, "TRUCO_STREAM_MAX_SECONDS", 3600.0),
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
        # join, leave and resign per player
        "RATE_LIMIT_SEAT": env.get(
            "TRUCO_RATE_SEAT", "" if truco_env == "testing" else "60/60"),
        # Webhooks: plain http URLs, and hosts with private / loopback / link-local / reserved
        # addresses (docs/correspondence.md), are allowed except in production.
        "WEBHOOK_ALLOW_HTTP": _flag("TRUCO_WEBHOOK_ALLOW_HTTP", env.get(
            "TRUCO_WEBHOOK_ALLOW_HTTP"), truco_env != "production"),
        "WEBHOOK_ALLOW_PRIVATE": _flag("TRUCO_WEBHOOK_ALLOW_PRIVATE", env.get(
            "TRUCO_WEBHOOK_ALLOW_PRIVATE"), truco_env != "production"),
        "MAX_WEBHOOKS_PER_PLAYER": 10,
        # How many matches one player may have waiting for players at once.
        "MAX_WAITING_MATCHES": int(env.get("TRUCO_MAX_WAITING_MATCHES") or 20),
        # One line per request and per worker step (app/http/request_log.py), JSON in production.
        "ACCESS_LOG": _flag("TRUCO_ACCESS_LOG", env.get("TRUCO_ACCESS_LOG"),
                            truco_env != "testing"),
        "JSON_LOGS": truco_env == "production",
        # GET /metrics needs "Bearer <this>" when set; in production without it, it is off.
        "METRICS_TOKEN": env.get("TRUCO_METRICS_TOKEN") or None,
        # Invitations: pending ones per invitee and per inviter -> invitee (0: no cap), and
        # the seconds one holds before it expires (app/play/invitation_rules.py).
        "MAX_INVITATIONS_PER_INVITEE": int(_seconds(
            env, "TRUCO_MAX_INVITATIONS", 0 if truco_env == "testing" else 20)),
        "MAX_INVITATIONS_PER_PAIR": int(_seconds(
            env, "TRUCO_MAX_INVITATIONS_PER_INVITER", 0 if truco_env == "testing" else 3)),
        "INVITATION_TTL": _seconds(env, "TRUCO_INVITATION_TTL", 7 * 86400),
        # Built-in bots one player may keep busy (app/play/bot_quota.py); 0: no cap (testing).
        "MAX_BOT_MATCHES": int(_seconds(
            env, "TRUCO_MAX_BOT_MATCHES", 0 if truco_env == "testing" else 10)),
        "MAX_HARD_BOTS": int(_seconds(
            env, "TRUCO_MAX_HARD_BOTS", 0 if truco_env == "testing" else 10)),
        # flask-smorest / apispec: the generated spec is the source of openapi.yaml.
        "API_TITLE": "Truco API",
        "API_VERSION": "1",
        "OPENAPI_VERSION": "3.0.3",
        "API_SPEC_OPTIONS": {
            "info": {"description": (
                "Truco Paulista game server. The contract in prose is docs/api.md in the "
                "source repository (also served by the server at /docs/api); the rules are "
                "docs/rules.md (/docs/rules); every guide is listed at /docs/.")},
            "components": {
                "securitySchemes": {
                    "bearerAuth": {"type": "http", "scheme": "bearer"},
                },
            },
        },
    }
