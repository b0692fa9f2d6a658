"""Webhook request and response schemas (the source of their part of openapi.yaml)."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates

from app.schemas import ResponseSchema, enum
from app.webhook_models import DELIVERY_STATUSES, ENDPOINT_STATUSES, WEBHOOK_EVENTS
from app.webhook_urls import MAX_URL_LENGTH


class WebhookCreateSchema(Schema):
    url = fields.String(required=True, validate=validate.Length(1, MAX_URL_LENGTH), metadata={
        "description": "http or https URL the server POSTs events to (https and a public "
                       "address in production)"})
    events = fields.List(fields.String(validate=validate.OneOf(WEBHOOK_EVENTS)),
                         load_default=lambda: list(WEBHOOK_EVENTS),
                         validate=validate.Length(min=1), metadata={
                             "description": "the events wanted; default: all of them"})

    @validates("events")
    def _distinct(self, value: list[str], **_: Any) -> None:
        if len(set(value)) != len(value):
            raise ValidationError("must not repeat an event")


WEBHOOK_EXAMPLES: dict[str, Any] = {
    "every_event": {"url": "https://push.example/truco"},
    "turns_only": {"url": "https://push.example/truco", "events": ["your_turn"]},
}


class WebhookSchema(ResponseSchema):
    id = fields.String()
    url = fields.String()
    events = fields.List(enum(WEBHOOK_EVENTS))
    status = enum(ENDPOINT_STATUSES, metadata={
        "description": "disabled: deliveries failed for a day; nothing more is sent"})
    disabled_at = fields.DateTime(allow_none=True)
    disabled_reason = fields.String(allow_none=True)
    created_at = fields.DateTime()


class WebhookCreatedSchema(WebhookSchema):
    secret = fields.String(metadata={
        "description": "whsec_...: the signing key, shown only here (docs/correspondence.md)"})


class WebhookDeliverySchema(ResponseSchema):
    id = fields.String(metadata={"description": "the webhook-id header (same on retries)"})
    event = enum(WEBHOOK_EVENTS)
    match_id = fields.String(allow_none=True)
    status = enum(DELIVERY_STATUSES)
    attempts = fields.Integer()
    response_status = fields.Integer(allow_none=True,
                                     metadata={"description": "of the last attempt"})
    last_error = fields.String(allow_none=True)
    created_at = fields.DateTime()
    last_attempt_at = fields.DateTime(allow_none=True)
    next_attempt_at = fields.DateTime(allow_none=True)
    delivered_at = fields.DateTime(allow_none=True)


class WebhookDetailSchema(WebhookSchema):
    deliveries = fields.List(fields.Nested(WebhookDeliverySchema), metadata={
        "description": "the most recent deliveries, newest first"})


class WebhookListSchema(ResponseSchema):
    items = fields.List(fields.Nested(WebhookSchema))
