"""The API's OpenAPI document: flask-smorest's Api with typed components and problem
responses (the source of openapi.yaml)."""

from __future__ import annotations

import http
from typing import Any

import flask_smorest
import marshmallow
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.openapi import OpenAPIConverter
from apispec.ext.marshmallow.common import resolve_schema_instance
from flask_smorest.utils import prepare_response

from app.http.errors import ProblemSchema
from app.http.schemas.base import ENUMS, INT_NAMES, Component, ResponseSchema
from app.http.schemas.components import HEADERS, UNIONS
from app.http.schemas.options import MatchOptionsSchema
from app.http.schemas.problems import UNPROCESSABLE, RateLimitedProblemSchema
from app.infra.problems import PROBLEM_MIMETYPE

JSON = dict[str, Any]
"""An OpenAPI object as apispec builds it."""


class TypedConverter(OpenAPIConverter):
    """apispec's converter, writing the shapes that client generators turn into typed models:

    - a nullable nested object is ``allOf: [$ref]`` + ``nullable: true`` (apispec writes
      ``anyOf: [{type: object, nullable: true}, $ref]``, which generators read as a dict);
    - a :class:`~app.http.schemas.base.Component` field is a ``$ref`` to a hand-written component;
    - every field of a :class:`~app.http.schemas.base.ResponseSchema` is required unless it is
      named in its ``OPTIONAL`` (the server always sends it);
    - a schema's ``SPEC_RULES`` (a dict of JSON Schema keywords, such as ``oneOf``) is added to
      its object: the rules of its ``@validates_schema`` that a client can check before sending.
    """

    def init_attribute_functions(self) -> None:
        super().init_attribute_functions()
        self.attribute_functions.append(self.component2ref)

    def field2nullable(self, field: marshmallow.fields.Field[Any], ret: JSON) -> JSON:
        if field.allow_none and "$ref" in ret:
            return {"allOf": [{"$ref": ret.pop("$ref")}], "nullable": True}
        return super().field2nullable(field, ret)

    def field2property(self, field: marshmallow.fields.Field[Any]) -> JSON:
        """A field with ``metadata["component"]`` is that component's ``$ref`` (its
        description, default and nullability kept beside it in an ``allOf``)."""
        ret = super().field2property(field)
        name = field.metadata.get("component")
        if name is None or isinstance(field, Component):
            return ret
        ref = {"$ref": f"#/components/schemas/{name}"}
        kept = {k: ret[k] for k in ("description", "default") if k in ret}
        if field.allow_none:
            kept["nullable"] = True
        return {"allOf": [ref], **kept} if kept else ref

    def component2ref(self, field: marshmallow.fields.Field[Any], ret: JSON, **_: Any) -> JSON:
        if not isinstance(field, Component):
            return {}
        ref = {"$ref": f"#/components/schemas/{field.component}"}
        return {"allOf": [ref]} if field.allow_none else ref

    def schema2jsonschema(self, schema: Any) -> JSON:
        jsonschema = super().schema2jsonschema(schema)
        instance = resolve_schema_instance(schema)
        jsonschema.update(getattr(instance, "SPEC_RULES", {}))
        if isinstance(instance, ResponseSchema):
            sent = set(jsonschema["properties"]) - instance.OPTIONAL
            if sent:
                jsonschema["required"] = sorted(sent)
        return jsonschema


class TypedMarshmallowPlugin(MarshmallowPlugin):
    Converter = TypedConverter


class ProblemApi(flask_smorest.Api):
    """flask-smorest's Api, with the typed converter, error responses documented as
    ``application/problem+json``, and the hand-written components of app.http.schemas (the
    ``oneOf`` unions with their discriminators, the response headers)."""

    ERROR_SCHEMA = ProblemSchema

    def _init_spec(self, **kwargs: Any) -> None:
        kwargs.setdefault("marshmallow_plugin", TypedMarshmallowPlugin())
        super()._init_spec(**kwargs)
        components = self.spec.components
        for name, values in sorted(ENUMS.items()):
            if isinstance(values[0], int):
                components.schema(name, component={
                    "type": "integer", "enum": values,
                    "x-enum-varnames": [INT_NAMES[v].upper() for v in values]})
            else:
                components.schema(name, component={"type": "string", "enum": values})
        components.schema("MatchOptions", schema=MatchOptionsSchema)
        for name, union in UNIONS.items():
            mapping = {}
            for value, schema in union.variants.items():
                variant = schema.__name__.removesuffix("Schema")
                components.schema(variant, schema=schema)
                mapping[value] = f"#/components/schemas/{variant}"
            components.schema(name, component={
                "oneOf": [{"$ref": ref} for ref in mapping.values()],
                "discriminator": {"propertyName": union.key, "mapping": mapping}})
        for name, header in HEADERS.items():
            components.header(name, header)

    def _register_responses(self) -> None:
        """As flask-smorest 0.47 does, with the problem schemas and media type."""
        special: dict[int, tuple[Any, dict[str, str]]] = {
            422: (UNPROCESSABLE, {}),
            429: (RateLimitedProblemSchema, {"Retry-After": "Retry-After"}),
        }
        for status in http.HTTPStatus:
            response: JSON = {"description": status.phrase}
            if status >= 400:
                schema, headers = special.get(status, (self.ERROR_SCHEMA, {}))
                response["schema"] = schema
                if headers:
                    response["headers"] = headers
                prepare_response(response, self.spec, PROBLEM_MIMETYPE)
            else:
                prepare_response(response, self.spec, self.DEFAULT_RESPONSE_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_MIMETYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


api = ProblemApi()
