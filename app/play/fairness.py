"""Auditable deals in the service (scheme truco-commit-v1, docs/fairness.md): a match's
secret and commitment, its key once the seeds are fixed, the view's `fairness` and the
reveal when the match is finished.

A match with auditable deals keeps `config["fairness"]` = {"scheme", "commitment", "secret"}
(hex); the secret leaves the server only through :func:`fairness_view` and
:func:`reveal_events`, both once the match is finished.
"""
from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import engine
from app.db.models import Match

SECRET_BYTES = 32


def new_secret() -> str:
    """32 bytes from the operating system's CSPRNG, as hex."""
    return secrets.token_bytes(SECRET_BYTES).hex()


def commitment_of(secret: str) -> str:
    """The commitment to the hex `secret`: hex SHA-256 of its bytes."""
    return engine.deal_commitment(bytes.fromhex(secret))


def fairness_config(secret: str) -> dict[str, str]:
    """What a match's config keeps of its scheme (`config["fairness"]`)."""
    return {"scheme": engine.DEAL_SCHEME, "commitment": commitment_of(secret), "secret": secret}


def key_of(config: dict[str, Any], match_id: str, client_seeds: Sequence[str]) -> bytes | None:
    """The deal key of a match with this config, id and seeds; None without auditable deals."""
    fairness = config.get("fairness")
    if fairness is None:
        return None
    return engine.deal_key(bytes.fromhex(fairness["secret"]), match_id, client_seeds)


def client_seeds(match: Match) -> list[str]:
    """Each seat's client_seed, "" for a seat that sent none, a bot's or an empty one."""
    seats = {s.seat: s.client_seed for s in match.seats}
    return [seats.get(n, "") for n in range(match.players)]


def match_key(match: Match) -> bytes | None:
    """The key of `match` from its seats' seeds as they stand (fixed once it starts)."""
    return key_of(match.config, match.id, client_seeds(match))


def fairness_view(match: Match, seat: int | None) -> dict[str, Any] | None:
    """The view's `fairness` for `seat` (None: a spectator): the seeds of others only once
    the match has started, the secret only once it is finished; None for fixed deals."""
    fairness = match.config.get("fairness")
    if fairness is None:
        return None
    seeds: list[str | None] = list(client_seeds(match))
    if match.status not in ("active", "finished"):
        seeds = [s if n == seat else None for n, s in enumerate(seeds)]
    return {"scheme": fairness["scheme"], "commitment": fairness["commitment"],
            "client_seeds": seeds,
            "secret": fairness["secret"] if match.status == "finished" else None}


def reveal_events(match: Match) -> list[dict[str, Any]]:
    """The events that close the log of `match` as it finishes: `deals_revealed`."""
    fairness = match.config.get("fairness")
    return [] if fairness is None else [{"type": "deals_revealed",
                                         "secret": fairness["secret"]}]
