"""How a match ended, and its rematch: `matches.end_reason` and `matches.rematch_id`.

Matches that ended before this revision get their reason from their log: a forfeit by time
(a `turn_timed_out` event whose outcome was `forfeit`), a resignation (`player_resigned`),
else the score; a cancelled match, `cancelled`. Their `match_won` events get the same
`end_reason` (and `match_cancelled` events `cancelled`); their old `player_resigned` events
stay as they were logged.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None

END_REASONS = ('score', 'resigned', 'timed_out', 'cancelled')


def upgrade() -> None:
    op.add_column('matches', sa.Column('end_reason', sa.String(length=16), nullable=True))
    op.add_column('matches', sa.Column('rematch_id', sa.String(length=32), nullable=True))
    op.create_check_constraint(op.f('ck_matches_end_reason'), 'matches',
                               f"end_reason IN {END_REASONS!r}")
    op.create_foreign_key(op.f('fk_matches_rematch_id_matches'), 'matches', 'matches',
                          ['rematch_id'], ['id'], ondelete='SET NULL')
    op.execute("""
        UPDATE matches m SET end_reason = CASE
            WHEN m.status = 'cancelled' THEN 'cancelled'
            WHEN EXISTS (SELECT 1 FROM events e WHERE e.match_id = m.id
                           AND e.type = 'turn_timed_out' AND e.data->>'outcome' = 'forfeit')
                THEN 'timed_out'
            WHEN EXISTS (SELECT 1 FROM events e WHERE e.match_id = m.id
                           AND e.type = 'player_resigned') THEN 'resigned'
            ELSE 'score' END
         WHERE m.status IN ('finished', 'cancelled')""")
    op.execute("""
        UPDATE events e SET data = e.data || jsonb_build_object('end_reason', m.end_reason)
          FROM matches m
         WHERE m.id = e.match_id AND e.type = 'match_won' AND m.end_reason IS NOT NULL""")
    op.execute("""
        UPDATE events SET data = data || '{"end_reason": "cancelled"}'::jsonb
         WHERE type = 'match_cancelled'""")


def downgrade() -> None:
    op.drop_constraint(op.f('fk_matches_rematch_id_matches'), 'matches', type_='foreignkey')
    op.drop_constraint(op.f('ck_matches_end_reason'), 'matches', type_='check')
    op.drop_column('matches', 'rematch_id')
    op.drop_column('matches', 'end_reason')
