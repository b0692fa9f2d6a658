"""Fair share under abuse: a circuit breaker per webhook endpoint (failures in a row, and
until when its deliveries wait), app/webhook_breaker.py.

Two columns with defaults that mean "closed": existing endpoints need no data.

Revision ID: 0015
Revises: 0011
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("webhook_endpoints", sa.Column(
        "failures_in_row", sa.Integer(), server_default=sa.text("0"), nullable=False))
    op.add_column("webhook_endpoints", sa.Column(
        "open_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("webhook_endpoints", "open_until")
    op.drop_column("webhook_endpoints", "failures_in_row")
