"""The teams' points in a column of their own: lists read it instead of the engine's state.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30
"""
from alembic import op
import sqlalchemy as sa

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('matches', sa.Column('score', sa.ARRAY(sa.SmallInteger()), nullable=False,
                                       server_default=sa.text("'{0,0}'")))
    # matches stored before: the points of their state, or the start score while waiting
    op.execute("""
        UPDATE matches SET score = ARRAY(
            SELECT jsonb_array_elements_text(
                coalesce(state->'score', config->'start_score', '[0, 0]'::jsonb))::smallint)
        WHERE coalesce(state->'score', config->'start_score') IS NOT NULL
          AND jsonb_typeof(coalesce(state->'score', config->'start_score')) = 'array'""")


def downgrade() -> None:
    op.drop_column('matches', 'score')
