"""HTTP API blueprints. Add each resource's blueprint to :func:`register_blueprints`."""

from __future__ import annotations

from flask import Flask

from app.extensions import api


def register_blueprints(app: Flask) -> None:
    """Register every blueprint on ``app`` (after ``api.init_app(app)``)."""
    from app.api import actions, events, health, invitations, matches, players, rulesets, webhooks

    for module in (health, players, matches, actions, events, rulesets, webhooks, invitations):
        api.register_blueprint(module.blp)
    app.register_blueprint(health.docs_bp)
    from app.api import landing

    app.register_blueprint(landing.bp)
