"""An idempotency record keeps the answer as the text that was sent (`answer`).

As JSONB, every action with an `Idempotency-Key` had PostgreSQL parse its 2 KB answer and
store a larger binary form: a fifth of the action's database CPU went to this record, and
the JSON input was a third of that. The bytes are only ever sent back (a replay), never
queried. Records made before keep their JSONB `response` (now nullable); every record has
one of the two. Only metadata changes here and a validation that reads the table without
blocking writes: no rewrite of the table. Code from before this revision reads only
`response`: it would replay a record made by newer code with an empty body, so stop the old
processes before starting the new ones (as `docker compose up` does: upgrade, then start).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("idempotency_records", sa.Column("answer", sa.Text(), nullable=True))
    op.alter_column("idempotency_records", "response", nullable=True)
    op.execute("ALTER TABLE idempotency_records ADD CONSTRAINT"
               " ck_idempotency_records_answer_or_response"
               " CHECK (answer IS NOT NULL OR response IS NOT NULL) NOT VALID")
    op.execute("ALTER TABLE idempotency_records VALIDATE CONSTRAINT"
               " ck_idempotency_records_answer_or_response")


def downgrade() -> None:
    op.execute("UPDATE idempotency_records SET response = answer::jsonb"
               " WHERE response IS NULL")
    op.drop_constraint("ck_idempotency_records_answer_or_response", "idempotency_records")
    op.alter_column("idempotency_records", "response", nullable=False)
    op.drop_column("idempotency_records", "answer")
