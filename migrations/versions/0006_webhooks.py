"""Webhooks: the endpoints players register and the outbox of deliveries.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'webhook_endpoints',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('player_id', sa.String(length=32), nullable=False),
        sa.Column('url', sa.String(length=2048), nullable=False),
        sa.Column('events', postgresql.ARRAY(sa.String(length=16)), nullable=False),
        sa.Column('secret', sa.String(length=64), nullable=False),
        sa.Column('status', sa.String(length=16), server_default=sa.text("'active'"),
                  nullable=False),
        sa.Column('disabled_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('disabled_reason', sa.String(length=200), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'),
                  nullable=False),
        sa.CheckConstraint("status IN ('active', 'disabled')",
                           name=op.f('ck_webhook_endpoints_status')),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], ondelete='CASCADE',
                                name=op.f('fk_webhook_endpoints_player_id_players')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_endpoints')),
    )
    op.create_index(op.f('ix_webhook_endpoints_player_id'), 'webhook_endpoints',
                    ['player_id'], unique=False)
    op.create_table(
        'webhook_deliveries',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('endpoint_id', sa.String(length=32), nullable=False),
        sa.Column('event', sa.String(length=16), nullable=False),
        sa.Column('payload', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column('status', sa.String(length=16), server_default=sa.text("'pending'"),
                  nullable=False),
        sa.Column('attempts', sa.Integer(), server_default=sa.text('0'), nullable=False),
        sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_attempt_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('delivered_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('response_status', sa.Integer(), nullable=True),
        sa.Column('last_error', sa.String(length=500), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'),
                  nullable=False),
        sa.CheckConstraint("status IN ('pending', 'delivered', 'failed')",
                           name=op.f('ck_webhook_deliveries_status')),
        sa.ForeignKeyConstraint(['endpoint_id'], ['webhook_endpoints.id'], ondelete='CASCADE',
                                name=op.f('fk_webhook_deliveries_endpoint_id_webhook_endpoints')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_deliveries')),
    )
    op.create_index(op.f('ix_webhook_deliveries_endpoint_id'), 'webhook_deliveries',
                    ['endpoint_id'], unique=False)
    op.create_index('ix_webhook_deliveries_due', 'webhook_deliveries', ['next_attempt_at'],
                    unique=False, postgresql_where=sa.text("status = 'pending'"))


def downgrade() -> None:
    op.drop_index('ix_webhook_deliveries_due', table_name='webhook_deliveries',
                  postgresql_where=sa.text("status = 'pending'"))
    op.drop_index(op.f('ix_webhook_deliveries_endpoint_id'), table_name='webhook_deliveries')
    op.drop_table('webhook_deliveries')
    op.drop_index(op.f('ix_webhook_endpoints_player_id'), table_name='webhook_endpoints')
    op.drop_table('webhook_endpoints')
