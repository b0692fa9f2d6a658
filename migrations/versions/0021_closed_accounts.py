"""Closed accounts: a player who deleted their account keeps their row (the seats and ratings
of finished matches point at it) under a neutral name, without handle or usable token, and
`closed_at` says since when (app/play/accounts.py).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-08
"""
import sqlalchemy as sa
from alembic import op

revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("players", "closed_at")
