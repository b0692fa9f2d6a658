"""HTTP API blueprints. Add each resource's blueprint to :func:`register_blueprints`."""

from __future__ import annotations

from flask import Flask

from app.http.api_spec import api
from app.http.schemas.webhooks import document as document_webhooks


def register_blueprints(app: Flask) -> None:
    """Register every blueprint on ``app`` (after ``api.init_app(app)``)."""
    from app.http.routes import (actions, commitments, events, health, invitations, leaderboard,
                         matches, players, replays, reviews, rulesets, streams,
                                 webhooks)

    for module in (health, players, matches, actions, events, rulesets, webhooks, leaderboard,
                   commitments, replays, reviews, invitations, streams):
        api.register_blueprint(module.blp)
    document_webhooks(api.spec)
    app.register_blueprint(health.docs_bp)
    from app.http.routes import landing, metrics, webclient

    app.register_blueprint(landing.bp)
    app.register_blueprint(metrics.bp)
    app.register_blueprint(webclient.bp)
