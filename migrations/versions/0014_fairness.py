"""Auditable deals (docs/fairness.md): each seat's client_seed, and the commitments table.

Both are additive: existing seats get "" (no seed), and matches made before this revision keep
the deal scheme their stored state records (the seed scheme), so they replay as before.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("client_seed", sa.String(length=64), nullable=False,
                                     server_default=sa.text("''")))
    op.create_table(
        "commitments",
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("secret", sa.String(length=64), nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"),
                  nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_commitments_player_id_players"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("commitment", name=op.f("pk_commitments")),
    )
    op.create_index(op.f("ix_commitments_player_id"), "commitments", ["player_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_commitments_player_id"), table_name="commitments")
    op.drop_table("commitments")
    op.drop_column("seats", "client_seed")
