"""Match reviews: the computer's judgement of every decision of a finished match, asked for by
one of its players (POST /v1/matches/{id}/review) and worked out by the background worker a few
decisions at a time (app/play/reviews.py).

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_reviews",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("requested_by", sa.String(length=32), nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), server_default=sa.text("now()"),
                  nullable=False),
        sa.Column("stepped_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("next_action", sa.Integer(), server_default="1", nullable=False),
        sa.Column("decisions", postgresql.JSONB(astext_type=sa.Text()), server_default="[]",
                  nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name=op.f("fk_match_reviews_match_id_matches"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["requested_by"], ["players.id"],
                                name=op.f("fk_match_reviews_requested_by_players"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_match_reviews")),
    )
    op.create_index("ix_match_reviews_pending", "match_reviews", ["stepped_at"], unique=False,
                    postgresql_where=sa.text("completed_at IS NULL"))
    op.create_index("ix_match_reviews_requested_by", "match_reviews", ["requested_by"],
                    unique=False)


def downgrade() -> None:
    op.drop_index("ix_match_reviews_requested_by", table_name="match_reviews")
    op.drop_index("ix_match_reviews_pending", table_name="match_reviews",
                  postgresql_where=sa.text("completed_at IS NULL"))
    op.drop_table("match_reviews")
