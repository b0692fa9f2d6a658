"""The rating model (docs/ratings.md): openskill's Plackett-Luce, on a display scale where
a new player is 1500 +- 500; formats, the provisional rule, and ratings as JSON."""
from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from app.db.rating_models import FORMATS

MU, SIGMA = 1500.0, 500.0
"""A new player's mean and uncertainty (openskill's 25 and 25/3, times 60)."""
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=MU / 300)
"""Beta (the spread of one match's performance) and tau (the uncertainty added before each
match) are openskill's defaults on this scale."""
PROVISIONAL_ABOVE = 350.0
"""A rating is provisional while its sigma is above this: 7 to 9 rated duels against settled
ratings, 16 to 22 against new players (docs/ratings.md)."""


def format_of(players: int) -> str:
    """`duel` for 2-player matches, `teams` for 4 and 6."""
    return FORMATS[0] if players == 2 else FORMATS[1]


def update(teams: list[list[tuple[float, float]]], winner: int) -> list[list[tuple[float, float]]]:
    """The (mu, sigma) of every member of the two `teams` after `winner` (0 or 1) won: one
    team update, so partners gain or lose together."""
    rated = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    after: list[list[PlackettLuceRating]] = MODEL.rate(
        rated, ranks=[0, 1] if winner == 0 else [1, 0])
    return [[(r.mu, r.sigma) for r in team] for team in after]


def rating_json(mu: float, sigma: float, rated_matches: int) -> dict[str, Any]:
    """One format's rating as profiles show it; `rating` is the mean, to one decimal."""
    return {"rating": round(mu, 1), "mu": mu, "sigma": sigma,
            "provisional": sigma > PROVISIONAL_ABOVE, "rated_matches": rated_matches}


def ratings_json(found: dict[str, tuple[float, float, int]]) -> dict[str, Any]:
    """Both formats' ratings, a new player's where `found` (by format) has none."""
    return {f: rating_json(*found.get(f, (MU, SIGMA, 0))) for f in FORMATS}
