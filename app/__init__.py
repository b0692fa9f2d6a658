"""The Truco HTTP service: :func:`create_app` builds the Flask application."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy.orm import configure_mappers

from app import action_shortcut, body, dbwait, logs, security_headers, view_shortcut
from app.config import client_deadlines, load_config
from app.cors import init_cors
from app.config import normalise_database_url
from app.errors import ApiRequest, register_error_handlers
from app.metrics import routes
from app.request_log import RequestLog
# (aliased: the subpackage app.api would shadow a global named ``api`` in this package)
from app.extensions import api as smorest_api
from app.extensions import db, migrate

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

    # The "app" logger's handler (app/logs.py), before Flask would give it its own; the
    # modules' loggers (app.errors, app.waiting, app.access...) are its children.
    logs.configure("web", app.config["JSON_LOGS"])
    app.logger.debug("configured")
    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    smorest_api.init_app(app)
    register_error_handlers(app)
    init_cors(app)
    body.init_app(app)
    security_headers.init_app(app)

    from app import models  # noqa: F401  (register the tables on db.metadata)

    # Now, not at a first query: app/action_path.py makes model instances without their
    # constructor, which would otherwise configure the mappers.
    configure_mappers()
    from app.api import register_blueprints

    register_blueprints(app)
    action_shortcut.init_app(app)  # (these two last: they read the CORS origins set above;
    view_shortcut.init_app(app)  # the view shortcut goes in front of the action shortcut)
    # outermost: both fronts answer through it (the same X-Request-Id, one access line)
    app.wsgi_app = RequestLog(  # type: ignore[method-assign]
        app.wsgi_app, app.config["ACCESS_LOG"], routes(r.rule for r in app.url_map.iter_rules()))
    return app
