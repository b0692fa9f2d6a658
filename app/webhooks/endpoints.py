"""Webhook endpoints: a player registers, lists, shows, changes (its URL, its events,
enabling it again), rotates the secret of, and removes the URLs the server POSTs their events
to (docs/correspondence.md). Each verb is one transaction."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from flask import current_app
from sqlalchemy import func, select

from app.infra.problems import ApiError
from app.db.extensions import db
from app.db.models import Player, id_can_exist
from app.db.webhook_models import WebhookDelivery, WebhookEndpoint
from app.webhooks.breaker import close
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


def owned(player: Player, endpoint_id: str, *, lock: bool = False) -> WebhookEndpoint:
    """The caller's endpoint, or 404 (another player's endpoint is not found either). With
    `lock`, read afresh and held FOR NO KEY UPDATE until the commit, as the delivery worker
    holds it (the lock order: app/webhooks/delivery.py)."""
    endpoint = None
    if id_can_exist(endpoint_id):
        query = select(WebhookEndpoint).where(WebhookEndpoint.id == endpoint_id)
        if lock:
            query = query.with_for_update(key_share=True).execution_options(
                populate_existing=True)
        endpoint = db.session.execute(query).scalar_one_or_none()
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


def update(player: Player, endpoint_id: str, changes: dict[str, Any]) -> WebhookEndpoint:
    """Change the endpoint's `url` and `events`; `status: "active"` enables a disabled one
    again. The endpoint after it. Deliveries already made are left as they are: those pending
    go to the new URL (read at each attempt), those given up stay given up."""
    owned(player, endpoint_id)  # (404 before the URL's check)
    if "url" in changes:
        check_url(changes["url"])  # (it may resolve the host: before the row is locked)
    endpoint = owned(player, endpoint_id, lock=True)
    if "url" in changes:
        endpoint.url = changes["url"]
    if "events" in changes:
        endpoint.events = changes["events"]
    if changes.get("status") == "active" and endpoint.status != "active":
        _enable(endpoint)
    db.session.commit()
    return endpoint


def _enable(endpoint: WebhookEndpoint) -> None:
    """A disabled endpoint active again, as if new: its circuit closed, its failures in a
    row forgotten."""
    endpoint.status, endpoint.disabled_at, endpoint.disabled_reason = "active", None, None
    close(endpoint)


def rotate_secret(player: Player, endpoint_id: str) -> tuple[WebhookEndpoint, str]:
    """A new secret for the endpoint, and the endpoint; the secret it replaces signs beside
    it for a while (app/webhooks/signing.py: live_secrets), and any older one no more."""
    endpoint = owned(player, endpoint_id, lock=True)
    secret = new_secret()
    endpoint.previous_secret, endpoint.secret = endpoint.secret, secret
    endpoint.secret_rotated_at = datetime.now(timezone.utc)
    db.session.commit()
    return endpoint, secret
