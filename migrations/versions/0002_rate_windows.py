"""Rate limit windows in PostgreSQL, shared by every app process; matches by creator.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""
from alembic import op
import sqlalchemy as sa

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('rate_windows',
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('kind', 'key', name=op.f('pk_rate_windows'))
    )
    op.create_index(op.f('ix_matches_created_by'), 'matches', ['created_by'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_matches_created_by'), table_name='matches')
    op.drop_table('rate_windows')
