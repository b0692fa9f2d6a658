"""Service endpoints: liveness, readiness, the committed contract and its docs.

``/healthz`` and ``/readyz`` are documented in the OpenAPI spec (flask-smorest);
``/openapi.yaml`` and ``/docs`` (Swagger UI from the flask-swagger-ui package, no CDN) are not.
"""

from __future__ import annotations

from pathlib import Path

import flask_swagger_ui
import marshmallow as ma
from flask import Blueprint, Response, current_app, send_from_directory
from flask_smorest import Blueprint as ApiBlueprint
from sqlalchemy.exc import SQLAlchemyError

from app.infra.problems import PROBLEM_MIMETYPE, UNAVAILABLE_RETRY_AFTER, ApiError
from app.http.errors import ProblemSchema
from app.infra.logthrottle import warn_throttled
from app.play.readiness import check_database

SWAGGER_UI_DIST = Path(flask_swagger_ui.__file__).resolve().parent / "dist"

blp = ApiBlueprint("service", __name__, description="Service health")
docs_bp = Blueprint("docs", __name__)


class StatusSchema(ma.Schema):
    """``{"status": "ok"}``."""

    status = ma.fields.String(required=True)


@blp.route("/healthz")
@blp.response(200, StatusSchema)
@blp.doc(operationId="getHealth")
def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@blp.route("/readyz")
@blp.response(200, StatusSchema)
@blp.alt_response(503, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="The database is unreachable (code database_unavailable)")
@blp.doc(operationId="getReadiness")
def readyz() -> dict[str, str]:
    """The process can reach its database."""
    try:
        check_database()
    except SQLAlchemyError as exc:
        warn_throttled(current_app.logger, "readiness check failed",
                       type(getattr(exc, "orig", None) or exc).__name__)
        raise ApiError(503, "database_unavailable", "The database is not reachable.",
                       retry_after=UNAVAILABLE_RETRY_AFTER) from None
    return {"status": "ready"}


@docs_bp.get("/openapi.yaml")
def openapi_yaml() -> Response:
    """The committed contract, ``openapi.yaml`` at the repository root."""
    path = Path(current_app.config["OPENAPI_FILE"])
    if not path.is_file():
        raise ApiError(404, "not_found", "openapi.yaml is not available.")
    return send_from_directory(path.parent, path.name, mimetype="application/yaml")


DOCS_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Truco API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>
    window.onload = function () {
      window.ui = SwaggerUIBundle({
        url: "/openapi.yaml", dom_id: "#swagger-ui", deepLinking: true,
        validatorUrl: null, persistAuthorization: true
      });
    };
  </script>
</body>
</html>
"""


@docs_bp.get("/docs")
def docs() -> Response:
    """Interactive documentation of ``/openapi.yaml`` (Swagger UI)."""
    return Response(DOCS_PAGE, mimetype="text/html")


@docs_bp.get("/docs/<path:filename>")
def docs_asset(filename: str) -> Response:
    """Swagger UI's static files, from the installed package."""
    return send_from_directory(SWAGGER_UI_DIST, filename, max_age=86400)
