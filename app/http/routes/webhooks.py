"""Webhooks: `/v1/me/webhooks`, the caller's push endpoints (docs/correspondence.md)."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from app.webhooks import endpoints as service
from app.http.responses import json_response
from app.http.auth import require_player, requires_player
from app.infra.problems import PROBLEM_MIMETYPE
from app.http.errors import ProblemSchema, takes_no_body
from app.http.precedence import found_first
from app.infra.encoding import PRIVATE_CACHE_CONTROL, iso
from app.http.schemas.docs import examples, headers, links
from app.db.webhook_models import WebhookDelivery, WebhookEndpoint
from app.http.schemas.webhooks import (WEBHOOK_EXAMPLES, WebhookCreateSchema, WebhookCreatedSchema,
                                       WebhookDetailSchema, WebhookListSchema, WebhookSchema,
                                       WebhookUpdateSchema)

blp = Blueprint("webhooks", __name__, url_prefix="/v1",
                description="Webhooks: your events POSTed to your server")


def endpoint_public(endpoint: WebhookEndpoint) -> dict[str, Any]:
    """An endpoint as its owner sees it (never the secret)."""
    return {"id": endpoint.id, "url": endpoint.url, "events": list(endpoint.events),
            "status": endpoint.status, "disabled_at": iso(endpoint.disabled_at),
            "disabled_reason": endpoint.disabled_reason,
            "created_at": iso(endpoint.created_at),
            "secret_rotated_at": iso(endpoint.secret_rotated_at)}


def with_secret(endpoint: WebhookEndpoint, secret: str) -> dict[str, Any]:
    """An endpoint as its owner sees it once, with its new secret."""
    return {**endpoint_public(endpoint), "secret": secret}


def _yours_first(path: dict[str, Any]) -> None:
    """404 for a webhook that is not the caller's, before its body's 422."""
    service.owned(require_player(), path["webhook_id"])


NOT_FOUND = "no such webhook of yours (code webhook_not_found)"


def delivery_public(delivery: WebhookDelivery) -> dict[str, Any]:
    return {"id": delivery.id, "event": delivery.event,
            "match_id": delivery.payload.get("data", {}).get("match_id"),
            "status": delivery.status, "attempts": delivery.attempts,
            "response_status": delivery.response_status, "last_error": delivery.last_error,
            "created_at": iso(delivery.created_at),
            "last_attempt_at": iso(delivery.last_attempt_at),
            "next_attempt_at": iso(delivery.next_attempt_at),
            "delivered_at": iso(delivery.delivered_at)}


@blp.route("/me/webhooks", methods=["POST"])
@requires_player
@blp.arguments(WebhookCreateSchema(), examples=examples(WEBHOOK_EXAMPLES))
@blp.response(201, WebhookCreatedSchema, headers=headers("Location"))
@blp.alt_response(409, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="you have the most webhooks allowed (code too_many_webhooks)")
@blp.doc(operationId="createWebhook",
         **links((201,), "webhook_id", ("getWebhook", "updateWebhook", "rotateWebhookSecret",
                                        "deleteWebhook")))
def create(body: dict[str, Any]) -> Response:
    """Register a webhook; the signing secret in the answer is shown only this once."""
    endpoint, secret = service.create(require_player(), body)
    return json_response(with_secret(endpoint, secret), 201,
                         {"Location": f"/v1/me/webhooks/{endpoint.id}",
                          "Cache-Control": "no-store"})


@blp.route("/me/webhooks")
@requires_player
@blp.response(200, WebhookListSchema)
@blp.doc(operationId="listWebhooks")
def index() -> Response:
    """Your webhooks, oldest first (without their secrets)."""
    items = [endpoint_public(e) for e in service.listed(require_player())]
    return json_response({"items": items}, 200, {"Cache-Control": PRIVATE_CACHE_CONTROL})


@blp.route("/me/webhooks/<webhook_id>")
@requires_player
@blp.response(200, WebhookDetailSchema)
@blp.alt_response(404, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description=NOT_FOUND)
@blp.doc(operationId="getWebhook")
def show(webhook_id: str) -> Response:
    """One of your webhooks with its most recent deliveries: status, attempts, the last
    answer's status and error, and when."""
    endpoint = service.owned(require_player(), webhook_id)
    body = {**endpoint_public(endpoint),
            "deliveries": [delivery_public(d) for d in service.recent(endpoint)]}
    return json_response(body, 200, {"Cache-Control": PRIVATE_CACHE_CONTROL})


@blp.route("/me/webhooks/<webhook_id>", methods=["DELETE"])
@requires_player
@blp.response(204)
@blp.alt_response(404, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description=NOT_FOUND)
@blp.doc(operationId="deleteWebhook")
def delete(webhook_id: str) -> Response:
    """Remove a webhook; its pending deliveries are not sent."""
    service.delete(require_player(), webhook_id)
    return Response(status=204)


@blp.route("/me/webhooks/<webhook_id>", methods=["PATCH"])
@requires_player
@found_first(_yours_first)
@blp.arguments(WebhookUpdateSchema())
@blp.response(200, WebhookSchema)
@blp.alt_response(404, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description=NOT_FOUND)
@blp.doc(operationId="updateWebhook")
def update(body: dict[str, Any], webhook_id: str) -> Response:
    """Change a webhook's `url` or `events`, or enable a disabled one again with
    `status: "active"`; the webhook after it (no secret)."""
    return json_response(endpoint_public(service.update(require_player(), webhook_id, body)))


@blp.route("/me/webhooks/<webhook_id>/secret", methods=["POST"])
@requires_player
@found_first(_yours_first)
@blp.response(200, WebhookCreatedSchema)
@blp.alt_response(404, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description=NOT_FOUND)
@blp.doc(operationId="rotateWebhookSecret")
@takes_no_body
def rotate_secret(webhook_id: str) -> Response:
    """Give a webhook a new signing secret, shown only in this answer; for a day every
    delivery is signed with it and with the one it replaces."""
    endpoint, secret = service.rotate_secret(require_player(), webhook_id)
    return json_response(with_secret(endpoint, secret), 200, {"Cache-Control": "no-store"})
