"""Watched matches: an action is notified only while someone waits on its match or answers
its conditional GETs from what they hear (app/live/watches.py).

A new table, empty at first: until a process watches a match, no action on it is notified,
and no process trusts what it heard of it (they read the database instead), so the change
needs no data. Code from before this revision notifies every action and trusts every
notification it hears: run old and new processes together only briefly (stop the old ones
before starting the new ones, as `docker compose up` does: upgrade, then start).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_watches",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name=op.f("fk_match_watches_match_id_matches"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_match_watches")),
    )


def downgrade() -> None:
    op.drop_table("match_watches")
