"""Fair share under abuse: a circuit breaker per webhook endpoint (failures in a row, and
until when its deliveries wait), app/webhooks/breaker.py; the players a player has blocked
(app/play/blocks.py).

Two columns with defaults that mean "closed" (existing endpoints need no data) and a new,
empty table.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("webhook_endpoints", sa.Column(
        "failures_in_row", sa.Integer(), server_default=sa.text("0"), nullable=False))
    op.add_column("webhook_endpoints", sa.Column(
        "open_until", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "player_blocks",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("blocked_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"),
                  nullable=False),
        sa.ForeignKeyConstraint(["blocked_id"], ["players.id"],
                                name=op.f("fk_player_blocks_blocked_id_players"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_player_blocks_player_id_players"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "blocked_id", name=op.f("pk_player_blocks")),
    )


def downgrade() -> None:
    op.drop_table("player_blocks")
    op.drop_column("webhook_endpoints", "open_until")
    op.drop_column("webhook_endpoints", "failures_in_row")
