"""Webhook endpoints and deliveries: what a client sends to register one, and what it is shown."""
from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from app.http.schemas.base import ResponseSchema, enum, named_enum, pascal, tag
from app.http.schemas.views import END_REASONS, STATUSES
from app.db.webhook_models import DELIVERY_STATUSES, ENDPOINT_STATUSES, WEBHOOK_EVENTS
from app.webhooks.urls import MAX_URL_LENGTH


URL_PATTERN = "^[Hh][Tt][Tt][Pp][Ss]?://\\S+$"
"""What every URL app/webhooks/urls.parse accepts has (the scheme, `//`, no space): stated in
the spec so that a client (a fuzzer) does not send what cannot be a webhook URL; the
server's rules go further (a host, no credentials, printable, a public address)."""


def url_field(**kwargs: Any) -> fields.String:
    """A webhook's URL as a body gives it (the server checks it further: app/webhooks/urls.py)."""
    return fields.String(validate=validate.Length(1, MAX_URL_LENGTH), metadata={
        "description": "http or https URL the server POSTs events to (https and a public "
                       "address in production)", "pattern": URL_PATTERN}, **kwargs)


def events_field(**kwargs: Any) -> fields.List[str]:
    """A webhook's events as a body gives them: known ones, at least one, each once."""
    return fields.List(fields.String(validate=validate.OneOf(WEBHOOK_EVENTS)),
                       validate=[validate.Length(min=1), _distinct], **kwargs)


def _distinct(value: list[str]) -> None:
    if len(set(value)) != len(value):
        raise ValidationError("must not repeat an event")


class WebhookCreateSchema(Schema):
    url = url_field(required=True)
    events = events_field(load_default=lambda: list(WEBHOOK_EVENTS), metadata={
        "description": "the events wanted, each once; default: all of them",
        "uniqueItems": True})


class WebhookUpdateSchema(Schema):
    SPEC_RULES: ClassVar[dict[str, Any]] = {"minProperties": 1}
    url = url_field()
    events = events_field(metadata={"description": "the events wanted, each once",
                                    "uniqueItems": True})
    status = fields.String(validate=validate.OneOf(["active"]), metadata={
        "description": "active: enable a disabled webhook again (its failures forgotten; "
                       "deliveries given up stay given up)"})

    @validates_schema
    def _not_empty(self, data: dict[str, Any], **_: Any) -> None:
        if not data:
            raise ValidationError("send url, events or status", "_body")


WEBHOOK_EXAMPLES: dict[str, Any] = {
    "every_event": {"url": "https://push.example/truco"},
    "turns_only": {"url": "https://push.example/truco", "events": ["your_turn"]},
}


class WebhookSchema(ResponseSchema):
    id = fields.String()
    url = fields.String()
    events = fields.List(enum(WEBHOOK_EVENTS))
    status = enum(ENDPOINT_STATUSES, metadata={
        "description": "disabled: deliveries failed for a day, or it answered 410 Gone; "
                       "nothing more is sent"})
    disabled_at = fields.DateTime(allow_none=True)
    disabled_reason = fields.String(allow_none=True)
    created_at = fields.DateTime()
    secret_rotated_at = fields.DateTime(allow_none=True, metadata={
        "description": "when the signing secret was last rotated (null: never); for a day "
                       "after it the one it replaced signs too"})


class WebhookCreatedSchema(WebhookSchema):
    secret = fields.String(metadata={
        "description": "whsec_...: the signing key, shown only here, at registration and at "
                       "each rotation (docs/correspondence.md)"})


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


# --- the payloads the server POSTs (app/webhooks/outbox.py), documented as x-webhooks ---------


class WebhookDataSchema(ResponseSchema):
    """What every webhook payload's ``data`` holds: never a card (fetch the view)."""

    match_id = fields.String()
    version = fields.Integer(metadata={"description": "the match's version after the event"})
    status = named_enum("MatchStatus", STATUSES)
    player_id = fields.String(metadata={"description": "the player the event is for"})
    seat = fields.Integer(allow_none=True, metadata={
        "description": "their seat; null for an invitation to no seat in particular"})
    team = fields.Integer(allow_none=True)
    your_turn = fields.Boolean(metadata={"description": "the match waits for them (their seat "
                                                        "may act, or they are invited)"})


class MatchFinishedDataSchema(WebhookDataSchema):
    winner_team = fields.Integer(allow_none=True)
    end_reason = named_enum("EndReason", END_REASONS)


class TurnTimedOutDataSchema(WebhookDataSchema):
    outcome = named_enum("TimeoutPolicy", ["auto_play", "forfeit"])
    abandoned = fields.Boolean(metadata={"description": "the third deadline in a row"})


class ReviewTallySchema(ResponseSchema):
    decisions = fields.Integer(metadata={"description": "their seat's decisions reviewed"})
    mistakes = fields.Integer(metadata={"description": "of them, mistakes"})
    loss = fields.Float(metadata={"description": "the chances to win they gave away, summed"})


class ReviewDoneDataSchema(WebhookDataSchema):
    review = fields.Nested(ReviewTallySchema, metadata={
        "description": "their seat's tally; the review itself: GET .../review"})


class DeadlineSoonDataSchema(WebhookDataSchema):
    deadline = fields.DateTime(metadata={"description": "when the turn runs out"})


def _payload(event: str, data: type[WebhookDataSchema], about: str) -> type[ResponseSchema]:
    """The schema of the ``event`` webhook's body: ``{"type", "timestamp", "data"}``."""
    name = pascal(event) + "WebhookSchema"
    return type(name, (ResponseSchema,), {
        "__doc__": about, "type": tag(event),
        "timestamp": fields.DateTime(metadata={"description": "when the event happened"}),
        "data": fields.Nested(data)})


WEBHOOK_PAYLOADS: dict[str, type[ResponseSchema]] = {
    "your_turn": _payload("your_turn", WebhookDataSchema,
                          "Their seat entered the seats to act of a match."),
    "match_started": _payload("match_started", WebhookDataSchema,
                              "A match they sit in started."),
    "match_finished": _payload("match_finished", MatchFinishedDataSchema,
                               "A match they sit in ended."),
    "invited": _payload("invited", WebhookDataSchema,
                        "A seat of a match is reserved for them: join to accept."),
    "deadline_soon": _payload("deadline_soon", DeadlineSoonDataSchema,
                              "Their turn's deadline is near: a quarter of the turn away, "
                              "at most an hour."),
    "turn_timed_out": _payload("turn_timed_out", TurnTimedOutDataSchema,
                               "Their turn's deadline passed: auto-played, or forfeited."),
    "review_done": _payload("review_done", ReviewDoneDataSchema,
                            "The computer's review of a match they played is done."),
}
"""Each webhook event's payload schema (app/webhooks/outbox.py builds them)."""


def document(spec: Any) -> None:
    """Add the payloads to ``spec``: a component per event, the ``WebhookPayload`` oneOf,
    and ``x-webhooks`` (OpenAPI 3.1's ``webhooks`` shape, in the 3.0 document)."""
    mapping = {}
    for event, schema in WEBHOOK_PAYLOADS.items():
        name = schema.__name__.removesuffix("Schema")
        spec.components.schema(name, schema=schema)
        mapping[event] = f"#/components/schemas/{name}"
    spec.components.schema("WebhookPayload", component={
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping}})
    spec.options["x-webhooks"] = {event: {"post": {
        "operationId": event.split("_")[0] + pascal(event)[len(event.split("_")[0]):] + "Webhook",
        "summary": (WEBHOOK_PAYLOADS[event].__doc__ or "").strip(),
        "description": "POSTed to your endpoint, signed (docs/correspondence.md)",
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": ref}}}},
        "responses": {"2XX": {"description": "received (any other answer is retried)"}}}}
        for event, ref in mapping.items()}
