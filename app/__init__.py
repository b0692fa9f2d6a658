"""The Truco HTTP service: :func:`create_app` builds the Flask application."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy.orm import configure_mappers

from app.http.front import action as action_shortcut
from app.http import body
from app.infra import dbwait
from app.infra import logs
from app.http import security_headers
from app.http.front import view as view_shortcut
from app.infra.config import client_deadlines, load_config
from app.http import auth
from app.http.cors import init_cors
from app.infra.config import normalise_database_url
from app.http.errors import ApiRequest, register_error_handlers
from app.infra.metrics import routes
from app.http.request_log import RequestLog
from app.http.responses import untyped_when_empty
# (aliased: the subpackage app.http.routes would shadow a global named ``api`` in this package)
from app.http.api_spec import api as smorest_api
from app.db.extensions import db, migrate

ROOT = Path(__file__).resolve().parent.parent


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    """Build the app from the environment, then ``overrides`` (tests).

    ``overrides`` may name the database as ``DATABASE_URL`` or ``SQLALCHEMY_DATABASE_URI``.
    """
    app = Flask(__name__)
    app.request_class = ApiRequest
    # "/v1/matches//events" is a 404 problem, not werkzeug's HTML redirect to a merged path
    app.url_map.merge_slashes = False
    app.config.from_mapping(load_config())
    app.config["OPENAPI_FILE"] = str(ROOT / "openapi.yaml")
    overrides = dict(overrides or {})
    if "DATABASE_URL" in overrides:
        overrides["SQLALCHEMY_DATABASE_URI"] = overrides.pop("DATABASE_URL")
    app.config.update(overrides)
    uri = app.config.get("SQLALCHEMY_DATABASE_URI")
    if not uri:
        raise RuntimeError(
            "DATABASE_URL is not set (python3 scripts/dev.py serve starts an embedded PostgreSQL)"
        )
    app.config["SQLALCHEMY_DATABASE_URI"] = normalise_database_url(uri)
    dbwait.configure(*client_deadlines(app.config["DATABASE_LIMITS"]))

    # The "app" logger's handler (app/infra/logs.py), before Flask would give it its own; the
    # modules' loggers (app.http.errors, app.live.hub, app.access...) are its children.
    logs.configure("web", app.config["JSON_LOGS"])
    app.logger.debug("configured")
    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    smorest_api.init_app(app)
    register_error_handlers(app)
    init_cors(app)
    app.before_request(auth.check_options_caller)  # (after the CORS preflight answer)
    app.before_request_funcs.setdefault(None, []).insert(0, auth.check_caller_first)
    body.init_app(app)  # (first of all: the body read, then the caller, then the rest)
    app.after_request(untyped_when_empty)  # (runs after the next: hooks run last-in first)
    security_headers.init_app(app)

    from app.db import models  # noqa: F401  (register the tables on db.metadata)

    # Now, not at a first query: app/db/hot_rows.py makes model instances without their
    # constructor, which would otherwise configure the mappers.
    configure_mappers()
    from app.http.routes import register_blueprints

    register_blueprints(app)
    action_shortcut.init_app(app)  # (these two last: they read the CORS origins set above;
    view_shortcut.init_app(app)  # the view shortcut goes in front of the action shortcut)
    # outermost: both fronts answer through it (the same X-Request-Id, one access line)
    app.wsgi_app = RequestLog(  # type: ignore[method-assign]
        app.wsgi_app, app.config["ACCESS_LOG"], routes(r.rule for r in app.url_map.iter_rules()))
    return app
