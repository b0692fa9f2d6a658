"""Invitations: a seat reserved for a named player until they accept (join) or decline.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""
from alembic import op
import sqlalchemy as sa

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('seats', sa.Column('invited', sa.Boolean(), server_default=sa.text('false'),
                                     nullable=False))


def downgrade() -> None:
    op.drop_column('seats', 'invited')
