"""Turn deadlines: how many deadlines each seat let pass (in all, and in a row).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""
from alembic import op
import sqlalchemy as sa

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('seats', sa.Column('timeouts', sa.SmallInteger(), server_default=sa.text('0'),
                                     nullable=False))
    op.add_column('seats', sa.Column('timeouts_in_row', sa.SmallInteger(),
                                     server_default=sa.text('0'), nullable=False))


def downgrade() -> None:
    op.drop_column('seats', 'timeouts_in_row')
    op.drop_column('seats', 'timeouts')
