"""Flask extension objects, bound to an app in ``create_app``."""

from __future__ import annotations

import http

import flask_smorest
from flask_migrate import Migrate
from flask_smorest.utils import prepare_response
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

from app.errors import PROBLEM_MIMETYPE, ProblemSchema

# Stable constraint names, so that migrations can refer to them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of every model."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class ProblemApi(flask_smorest.Api):
    """flask-smorest's Api, documenting error responses as ``application/problem+json``."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        """As flask-smorest 0.47 does, with the problem schema and media type."""
        for status in http.HTTPStatus:
            response: dict = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
                prepare_response(response, self.spec, PROBLEM_MIMETYPE)
            else:
                prepare_response(response, self.spec, self.DEFAULT_RESPONSE_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_MIMETYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
api = ProblemApi()
