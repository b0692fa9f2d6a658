"""Finished webhook deliveries (delivered or failed) by age: the worker's prune deletes those
older than 7 days through this index, a batch at a time, instead of reading the whole table
every minute (app/play/retention.py; measured at 2 million rows: 387-487 ms to delete a
minute's 174 rows before, 0.6-1.0 ms after; docs/reliability.md).

Built CONCURRENTLY (outside the migration's transaction), so that the build does not stop
the writes to the table (every change that enqueues a delivery, every attempt recorded) on a
database that already holds millions of deliveries; an index left invalid by a build that was
interrupted is dropped first.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06
"""
import sqlalchemy as sa
from alembic import op

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None

FINISHED = sa.text("status IN ('delivered', 'failed')")


def upgrade() -> None:
    with op.get_context().autocommit_block():
        op.drop_index("ix_webhook_deliveries_finished", table_name="webhook_deliveries",
                      postgresql_concurrently=True, if_exists=True)
        op.create_index("ix_webhook_deliveries_finished", "webhook_deliveries", ["created_at"],
                        unique=False, postgresql_where=FINISHED, postgresql_concurrently=True)


def downgrade() -> None:
    with op.get_context().autocommit_block():
        op.drop_index("ix_webhook_deliveries_finished", table_name="webhook_deliveries",
                      postgresql_concurrently=True, if_exists=True)
