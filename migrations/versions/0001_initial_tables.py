"""Initial tables: players, matches, seats, events, actions, idempotency_records.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('players',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=32), nullable=False),
    sa.Column('bot', sa.Boolean(), server_default=sa.text('false'), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players'))
    )
    op.create_index(op.f('ix_players_token_hash'), 'players', ['token_hash'], unique=True)

    op.create_table('matches',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('ruleset', sa.String(length=16), nullable=False),
    sa.Column('players', sa.SmallInteger(), nullable=False),
    sa.Column('target_score', sa.SmallInteger(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('visibility', sa.String(length=8), nullable=False),
    sa.Column('invite_code', sa.String(length=32), nullable=True),
    sa.Column('created_by', sa.String(length=32), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('fixed_deals', sa.Boolean(), server_default=sa.text('false'), nullable=False),
    sa.Column('config', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('state', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.Column('version', sa.Integer(), server_default=sa.text('1'), nullable=False),
    sa.Column('event_count', sa.Integer(), server_default=sa.text('0'), nullable=False),
    sa.Column('action_count', sa.Integer(), server_default=sa.text('0'), nullable=False),
    sa.Column('winner_team', sa.SmallInteger(), nullable=True),
    sa.Column('turn_timeout', sa.Integer(), nullable=True),
    sa.Column('on_timeout', sa.String(length=16), nullable=False),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.CheckConstraint("status IN ('waiting', 'active', 'finished', 'cancelled')", name=op.f('ck_matches_status')),
    sa.CheckConstraint("visibility IN ('public', 'private')", name=op.f('ck_matches_visibility')),
    sa.ForeignKeyConstraint(['created_by'], ['players.id'], name=op.f('fk_matches_created_by_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_matches'))
    )
    op.create_index(op.f('ix_matches_deadline'), 'matches', ['deadline'], unique=False)
    op.create_index(op.f('ix_matches_status'), 'matches', ['status'], unique=False)

    op.create_table('actions',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('n', sa.Integer(), nullable=False),
    sa.Column('seat', sa.SmallInteger(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=True),
    sa.Column('body', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_actions_match_id_matches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_actions_player_id_players')),
    sa.PrimaryKeyConstraint('match_id', 'n', name=op.f('pk_actions'))
    )
    op.create_table('events',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=32), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('data', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'{}'::jsonb"), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_events_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'seq', name=op.f('pk_events'))
    )
    op.create_table('idempotency_records',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('key', sa.String(length=255), nullable=False),
    sa.Column('request_hash', sa.String(length=64), nullable=False),
    sa.Column('status_code', sa.Integer(), nullable=False),
    sa.Column('response', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('headers', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'{}'::jsonb"), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_idempotency_records_match_id_matches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_idempotency_records_player_id_players')),
    sa.PrimaryKeyConstraint('player_id', 'match_id', 'key', name=op.f('pk_idempotency_records'))
    )
    op.create_table('seats',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.SmallInteger(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=True),
    sa.Column('bot_level', sa.String(length=8), nullable=True),
    sa.Column('joined_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_seats_match_id_matches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_seats_player_id_players')),
    sa.PrimaryKeyConstraint('match_id', 'seat', name=op.f('pk_seats')),
    sa.UniqueConstraint('match_id', 'player_id', name=op.f('uq_seats_match_id_player_id'))
    )
    op.create_index(op.f('ix_seats_player_id'), 'seats', ['player_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_seats_player_id'), table_name='seats')
    op.drop_table('seats')
    op.drop_table('idempotency_records')
    op.drop_table('events')
    op.drop_table('actions')
    op.drop_index(op.f('ix_matches_status'), table_name='matches')
    op.drop_index(op.f('ix_matches_deadline'), table_name='matches')
    op.drop_table('matches')
    op.drop_index(op.f('ix_players_token_hash'), table_name='players')
    op.drop_table('players')
