"""Settling a finished match: its players' tallies and, when it is rated, their ratings, in
one transaction with the match's `settled_at` marker, so each finished match is counted
exactly once whatever retries, races or crashes happen (docs/ratings.md).

- The match row is locked first and the marker checked under the lock: a second settler
  finds it set and does nothing; the workers' queue skips rows another settler holds.
- The marker, the tallies and the ratings commit together: a settler killed midway leaves
  nothing, and the match is still in the queue.
- Rows of `player_tallies` and `ratings` are locked in player-id order, tallies first, so
  two settlers sharing players wait for each other instead of deadlocking.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy import text

from app.play import level_players
from app.play import ratings
from app.db.extensions import db

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Side:
    """Who a settled match counts for one participant (a player, or a bot level's player)."""

    player_id: str
    teams: frozenset[int]


_CLAIM = text("""
SELECT id FROM matches WHERE status = 'finished' AND settled_at IS NULL
   AND id <> ALL(CAST(:failed AS text[]))
 ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED""")
_LOCK = text("""
SELECT status = 'finished' AND settled_at IS NULL FROM matches WHERE id = :m FOR UPDATE""")
_MATCH = text("""
UPDATE matches SET settled_at = now() WHERE id = :m
RETURNING players, winner_team, fixed_deals, end_reason""")
_SEATS = text("""
SELECT seat, player_id, bot_level FROM seats WHERE match_id = :m AND NOT invited ORDER BY seat""")
_HANDS = text("""
SELECT (data->>'winner_team')::int AS team, count(*) AS hands FROM events
 WHERE match_id = :m AND type = 'hand_won' AND data->>'winner_team' IS NOT NULL
 GROUP BY 1""")
_TALLY = text("""
INSERT INTO player_tallies AS t (player_id, matches_played, won, lost, forfeited, hands_won)
SELECT * FROM unnest(CAST(:ids AS text[]), CAST(:played AS int[]), CAST(:won AS int[]),
                     CAST(:lost AS int[]), CAST(:forfeited AS int[]), CAST(:hands AS int[]))
ON CONFLICT (player_id) DO UPDATE SET
  matches_played = t.matches_played + excluded.matches_played, won = t.won + excluded.won,
  lost = t.lost + excluded.lost, forfeited = t.forfeited + excluded.forfeited,
  hands_won = t.hands_won + excluded.hands_won""")
_NEW_RATINGS = text("""
INSERT INTO ratings (player_id, format, mu, sigma, rated_matches)
SELECT id, :f, :mu, :sigma, 0 FROM unnest(CAST(:ids AS text[])) AS id
ON CONFLICT DO NOTHING""")
_LOCK_RATINGS = text("""
SELECT player_id, mu, sigma FROM ratings WHERE format = :f AND player_id = ANY(:ids)
 ORDER BY player_id FOR UPDATE""")
_RATE = text("""
UPDATE ratings AS r SET mu = x.mu, sigma = x.sigma, rated_matches = r.rated_matches + 1,
       updated_at = now()
  FROM unnest(CAST(:ids AS text[]), CAST(:mu AS float8[]), CAST(:sigma AS float8[]))
       AS x(id, mu, sigma)
 WHERE r.format = :f AND r.player_id = x.id""")
_CHANGES = text("""
INSERT INTO rating_changes (match_id, player_id, format, team, mu_before, sigma_before,
                            mu_after, sigma_after, rated_matches)
SELECT :m, x.id, :f, x.team, x.mu, x.sigma, r.mu, r.sigma, r.rated_matches
  FROM unnest(CAST(:ids AS text[]), CAST(:teams AS int[]), CAST(:mu AS float8[]),
              CAST(:sigma AS float8[])) AS x(id, team, mu, sigma)
  JOIN ratings AS r ON r.format = :f AND r.player_id = x.id""")


def settle_due(limit: int | None = None) -> int:
    """Settle finished matches not yet settled, oldest first, one transaction each, until
    none is left (or `limit`); how many were settled. Rows another settler holds are
    skipped, and so is a match whose settlement failed (logged; tried again next call).
    Needs an app context."""
    done, failed = 0, list[str]()
    while limit is None or done < limit:
        match_id = db.session.execute(_CLAIM, {"failed": failed}).scalar()
        if match_id is None:
            db.session.rollback()
            return done
        try:
            _settle(match_id)
            db.session.commit()
        except Exception:  # noqa: BLE001 - one bad match must not stop the others
            db.session.rollback()
            log.exception("settling match %s failed; trying again later", match_id)
            failed.append(match_id)
            continue
        done += 1
    return done


def settle(match_id: str) -> bool:
    """Settle `match_id` if it is finished and not settled yet, waiting for any settler
    that holds it; whether this call settled it. Needs an app context."""
    due = db.session.execute(_LOCK, {"m": match_id}).scalar()
    if due:
        _settle(match_id)
    db.session.commit()
    return bool(due)


def _settle(match_id: str) -> None:
    """Mark the locked, unsettled, finished `match_id` settled and count it (uncommitted)."""
    players, winner, fixed, reason = db.session.execute(_MATCH, {"m": match_id}).one()
    seats = db.session.execute(_SEATS, {"m": match_id}).all()
    if any(s.bot_level is not None for s in seats):
        level_players.ensure(db.session())
    ids = [s.player_id or level_players.LEVEL_PLAYERS[s.bot_level] for s in seats]
    teams = [[pid for s, pid in zip(seats, ids) if s.seat % 2 == team] for team in (0, 1)]
    sides = [Side(pid, frozenset(t for t in (0, 1) if pid in teams[t]))
             for pid in sorted(set(ids))]
    timed_out = reason == "timed_out"
    hands: dict[int, int] = {team: n for team, n in db.session.execute(_HANDS, {"m": match_id})}
    _tally(sides, winner, timed_out, hands)
    if not fixed:
        _rate(match_id, ratings.format_of(players), teams, sides, winner)


def _tally(sides: list[Side], winner: int, timed_out: bool, hands: dict[int, int]) -> None:
    """Add one finished match to each side's counts (a level seated on both teams counts
    it as played only)."""
    lost = [s.teams == {1 - winner} for s in sides]
    db.session.execute(_TALLY, {
        "ids": [s.player_id for s in sides], "played": [1] * len(sides),
        "won": [int(s.teams == {winner}) for s in sides], "lost": [int(x) for x in lost],
        "forfeited": [int(x and timed_out) for x in lost],
        "hands": [hands.get(next(iter(s.teams)), 0) if len(s.teams) == 1 else 0
                  for s in sides]})


def _rate(match_id: str, fmt: str, teams: list[list[str]], sides: list[Side],
          winner: int) -> None:
    """One team update of the format's ratings, each rated player's before and after kept in
    `rating_changes`; a participant seated twice takes the result of its first seat, and a
    level seated on both teams is not updated."""
    ids = [s.player_id for s in sides]
    db.session.execute(_NEW_RATINGS, {"f": fmt, "mu": ratings.MU, "sigma": ratings.SIGMA,
                                      "ids": ids})
    before = {pid: (mu, sigma) for pid, mu, sigma
              in db.session.execute(_LOCK_RATINGS, {"f": fmt, "ids": ids}).all()}
    after = ratings.update([[before[pid] for pid in team] for team in teams], winner)
    moved: dict[str, tuple[float, float]] = {}
    for team, results in zip(teams, after):
        for pid, result in zip(team, results):
            moved.setdefault(pid, result)
    rated = [s for s in sides if len(s.teams) == 1]
    rated_ids = [s.player_id for s in rated]
    db.session.execute(_RATE, {"f": fmt, "ids": rated_ids,
                               "mu": [moved[p][0] for p in rated_ids],
                               "sigma": [moved[p][1] for p in rated_ids]})
    db.session.execute(_CHANGES, {"m": match_id, "f": fmt, "ids": rated_ids,
                                  "teams": [next(iter(s.teams)) for s in rated],
                                  "mu": [before[p][0] for p in rated_ids],
                                  "sigma": [before[p][1] for p in rated_ids]})
