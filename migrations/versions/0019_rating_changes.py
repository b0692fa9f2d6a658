"""Rating changes: what each rated match did to its players' ratings (before and after),
written by the settlement that rates it, in its transaction, so that a match's page and a
client can say "1500 -> 1523" (GET /v1/matches/{id}/ratings; docs/ratings.md).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07
"""
import sqlalchemy as sa
from alembic import op

revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("format", sa.String(length=8), nullable=False),
        sa.Column("team", sa.SmallInteger(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("rated_matches", sa.Integer(), nullable=False),
        sa.CheckConstraint("format IN ('duel', 'teams')", name=op.f("ck_rating_changes_format")),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name=op.f("fk_rating_changes_match_id_matches"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_rating_changes_player_id_players"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "player_id", name=op.f("pk_rating_changes")),
    )
    op.create_index("ix_rating_changes_player_id", "rating_changes", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player_id", table_name="rating_changes")
    op.drop_table("rating_changes")
