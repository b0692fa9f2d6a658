"""Request and response schemas: they validate input and are the source of openapi.yaml.

One module per kind of body. Importing the package imports every module, so that each named
enumeration and union is registered before the spec is built."""
from app.http.schemas import (actions, base, components, docs, events, inputs,  # noqa: F401
                              options, players, problems, ratings, rulesets, views, webhooks)
