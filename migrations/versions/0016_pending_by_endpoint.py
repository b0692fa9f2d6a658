"""Each endpoint's pending webhook deliveries, by due time: the claim finds the endpoints
with deliveries pending by a skip scan of this index, so one owner's backlog (thousands of
deliveries waiting behind an open circuit) is not read row by row at every claim
(app/webhooks/delivery.py). It replaces the index by due time alone, which the planner
preferred and walked row by row through that backlog to reach another endpoint's delivery.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""
import sqlalchemy as sa
from alembic import op

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_webhook_deliveries_due", table_name="webhook_deliveries",
                  postgresql_where=sa.text("status = 'pending'"))
    op.create_index("ix_webhook_deliveries_pending", "webhook_deliveries",
                    ["endpoint_id", "next_attempt_at"], unique=False,
                    postgresql_where=sa.text("status = 'pending'"))


def downgrade() -> None:
    op.drop_index("ix_webhook_deliveries_pending", table_name="webhook_deliveries",
                  postgresql_where=sa.text("status = 'pending'"))
    op.create_index("ix_webhook_deliveries_due", "webhook_deliveries", ["next_attempt_at"],
                    unique=False, postgresql_where=sa.text("status = 'pending'"))
