"""Idempotency records by age: the worker's prune deletes those older than 24 h through this
index, a batch at a time, instead of reading the whole table every minute
(app/play/retention.py; measured figures: docs/reliability.md).

Built CONCURRENTLY (outside the migration's transaction), so that the build does not stop
the writes to the table (every action sent with an Idempotency-Key) on a database that
already holds millions of records; an index left invalid by a build that was interrupted is
dropped first.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""
from alembic import op

revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.get_context().autocommit_block():
        op.drop_index("ix_idempotency_records_created_at", table_name="idempotency_records",
                      postgresql_concurrently=True, if_exists=True)
        op.create_index("ix_idempotency_records_created_at", "idempotency_records",
                        ["created_at"], unique=False, postgresql_concurrently=True)


def downgrade() -> None:
    with op.get_context().autocommit_block():
        op.drop_index("ix_idempotency_records_created_at", table_name="idempotency_records",
                      postgresql_concurrently=True, if_exists=True)
