"""Handles, ratings and tallies (docs/ratings.md): `players.handle` (unique regardless of
case), `matches.settled_at` with the queue of finished matches not yet counted, the tables
`ratings` and `player_tallies`, and one player row per built-in bot level.

Matches finished before this revision have no `settled_at`: the workers settle them after
the upgrade (oldest first), so the tallies and ratings include them.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None

LEVELS = ("random", "easy", "medium", "hard")
"""The built-in levels; their players' ids are `p_level_<level>` (app/play/level_players.py)."""


def upgrade() -> None:
    op.add_column("players", sa.Column("handle", sa.String(length=20), nullable=True))
    op.create_index("uq_players_handle", "players", [sa.literal_column("lower(handle)")],
                    unique=True)
    op.add_column("matches", sa.Column("settled_at", sa.DateTime(timezone=True),
                                       nullable=True))
    op.create_index("ix_matches_unsettled", "matches", ["id"], unique=False,
                    postgresql_where=sa.text("status = 'finished' AND settled_at IS NULL"))
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("format", sa.String(length=8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rated_matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"),
                  nullable=False),
        sa.CheckConstraint("format IN ('duel', 'teams')", name=op.f("ck_ratings_format")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_ratings_player_id_players"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "format", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_board", "ratings", ["format", "mu"], unique=False)
    op.create_table(
        "player_tallies",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("matches_played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("forfeited", sa.Integer(), nullable=False),
        sa.Column("hands_won", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_player_tallies_player_id_players"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_player_tallies")),
    )
    # (a token hash is 64 hex digits: no token ever matches 'level:...')
    for level in LEVELS:
        op.execute(f"""INSERT INTO players (id, name, bot, token_hash, handle)
                       VALUES ('p_level_{level}', '{level} bot', true, 'level:{level}',
                               'bot-{level}') ON CONFLICT DO NOTHING""")


def downgrade() -> None:
    op.execute("DELETE FROM players WHERE id LIKE 'p\\_level\\_%'")
    op.drop_table("player_tallies")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_matches_unsettled", table_name="matches",
                  postgresql_where=sa.text("status = 'finished' AND settled_at IS NULL"))
    op.drop_column("matches", "settled_at")
    op.drop_index("uq_players_handle", table_name="players")
    op.drop_column("players", "handle")
