"""Scheme truco-commit-v1 (docs/fairness.md): the deals and the first dealer of a match as
pure functions of its key, HMAC-SHA256(secret, the match id and the players' seeds).

Anyone who has the revealed secret and the seeds recomputes every deal with SHA-256 and HMAC
alone; nothing here reads a clock or a random generator.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

SCHEME = "truco-commit-v1"


def commitment(secret: bytes) -> str:
    """The public commitment to `secret`: lowercase hex of its SHA-256."""
    return hashlib.sha256(secret).hexdigest()


def _mac(key: bytes, message: str) -> int:
    """HMAC-SHA256(`key`, `message` as UTF-8) as a big-endian integer."""
    return int.from_bytes(hmac.new(key, message.encode(), hashlib.sha256).digest(), "big")


def match_key(secret: bytes, match_id: str, client_seeds: Sequence[str]) -> bytes:
    """The match's key: HMAC-SHA256(secret, "truco-commit-v1|<id>|<seed 0>|...|<seed P-1>")."""
    message = "|".join([SCHEME, match_id, *client_seeds])
    return hmac.new(secret, message.encode(), hashlib.sha256).digest()


def hand_entropy(key: bytes, number: int) -> int:
    """The integer that draws hand `number`'s cards (1, 2, ...)."""
    return _mac(key, f"hand|{number}")


def first_dealer(key: bytes, players: int) -> int:
    """The first hand's dealer when the option `first_dealer` is `random`."""
    return _mac(key, "first-dealer") % players
