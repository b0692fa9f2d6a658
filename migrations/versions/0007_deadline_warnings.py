"""Deadline warnings: when the players to act are told their deadline is near.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30
"""
from alembic import op
import sqlalchemy as sa

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('matches', sa.Column('warn_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column('matches', 'warn_at')
