"""Background work: the seats to act and when work is due, per match.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('matches', sa.Column('to_act', postgresql.ARRAY(sa.SmallInteger()),
                                       server_default=sa.text("'{}'"), nullable=False))
    op.add_column('matches', sa.Column('due_at', sa.DateTime(timezone=True), nullable=True))
    op.create_index('ix_matches_due_at', 'matches', ['due_at'], unique=False,
                    postgresql_where=sa.text('due_at IS NOT NULL'))
    # matches already under way: their seats to act, from the stored state
    op.execute("UPDATE matches SET to_act = ARRAY(SELECT jsonb_array_elements_text("
               "state->'hand'->'to_act')::smallint) WHERE status = 'active'")
    # and the bots among them (they moved inside requests before): due now
    op.execute("UPDATE matches m SET due_at = now() WHERE status = 'active' AND EXISTS ("
               "SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.bot_level IS NOT NULL "
               "AND s.seat = ANY(m.to_act))")


def downgrade() -> None:
    op.drop_index('ix_matches_due_at', table_name='matches',
                  postgresql_where=sa.text('due_at IS NOT NULL'))
    op.drop_column('matches', 'due_at')
    op.drop_column('matches', 'to_act')
