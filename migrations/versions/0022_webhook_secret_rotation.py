"""Rotating a webhook's signing secret: the secret it replaced, which signs beside the new
one for a day after the rotation (app/webhooks/signing.py), and when that was.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-08
"""
import sqlalchemy as sa
from alembic import op

revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('webhook_endpoints',
                  sa.Column('previous_secret', sa.String(length=64), nullable=True))
    op.add_column('webhook_endpoints',
                  sa.Column('secret_rotated_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column('webhook_endpoints', 'secret_rotated_at')
    op.drop_column('webhook_endpoints', 'previous_secret')
