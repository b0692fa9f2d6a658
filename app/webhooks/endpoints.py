"""Webhook endpoints: a player registers, lists, shows and removes the URLs the server
POSTs their events to (docs/correspondence.md). Each verb is one transaction."""
from __future__ import annotations

from typing import Any

from flask import current_app
from sqlalchemy import func, select

from app.infra.problems import ApiError
from app.db.extensions import db
from app.db.models import Player, id_can_exist
from app.db.webhook_models import WebhookDelivery, WebhookEndpoint
from app.webhooks.signing import new_secret
from app.webhooks.urls import UnsafeUrl, check, parse

RECENT_DELIVERIES = 20


def check_url(url: str) -> None:
    """422 validation_error unless the server may call `url`: its form and scheme, and,
    where private addresses are refused, the addresses its host resolves to now (where they
    are allowed any address is, so the host is only resolved at delivery)."""
    allow_http = current_app.config["WEBHOOK_ALLOW_HTTP"]
    try:
        if current_app.config["WEBHOOK_ALLOW_PRIVATE"]:
            parse(url, allow_http=allow_http)
        else:
            check(url, allow_http=allow_http, allow_private=False)
    except UnsafeUrl as exc:
        raise ApiError(422, "validation_error", f"Field 'url': {exc}",
                       errors={"url": [str(exc)]}) from None


def create(player: Player, body: dict[str, Any]) -> tuple[WebhookEndpoint, str]:
    """A new endpoint and its secret (to show once); 409 over the per-player limit."""
    check_url(body["url"])
    # the player's row is locked so that parallel registrations count each other
    db.session.execute(select(Player.id).where(Player.id == player.id).with_for_update())
    count = db.session.execute(select(func.count()).select_from(WebhookEndpoint)
                               .where(WebhookEndpoint.player_id == player.id)).scalar_one()
    cap = current_app.config["MAX_WEBHOOKS_PER_PLAYER"]
    if count >= cap:
        raise ApiError(409, "too_many_webhooks",
                       f"you already have {count} webhooks (at most {cap}); delete one first")
    secret = new_secret()
    endpoint = WebhookEndpoint(player_id=player.id, url=body["url"], events=body["events"],
                               secret=secret, status="active")
    db.session.add(endpoint)
    db.session.commit()
    return endpoint, secret


def owned(player: Player, endpoint_id: str) -> WebhookEndpoint:
    """The caller's endpoint, or 404 (another player's endpoint is not found either)."""
    endpoint = db.session.get(WebhookEndpoint, endpoint_id) if id_can_exist(endpoint_id) \
        else None
    if endpoint is None or endpoint.player_id != player.id:
        raise ApiError(404, "webhook_not_found", f"you have no webhook {endpoint_id}")
    return endpoint


def listed(player: Player) -> list[WebhookEndpoint]:
    """The caller's endpoints, oldest first."""
    return list(db.session.execute(
        select(WebhookEndpoint).where(WebhookEndpoint.player_id == player.id)
        .order_by(WebhookEndpoint.created_at, WebhookEndpoint.id)).scalars())


def recent(endpoint: WebhookEndpoint) -> list[WebhookDelivery]:
    """The endpoint's latest deliveries, newest first."""
    return list(db.session.execute(
        select(WebhookDelivery).where(WebhookDelivery.endpoint_id == endpoint.id)
        .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.id.desc())
        .limit(RECENT_DELIVERIES)).scalars())


def delete(player: Player, endpoint_id: str) -> None:
    """Remove the endpoint and its deliveries (pending ones are not sent)."""
    db.session.delete(owned(player, endpoint_id))
    db.session.commit()
