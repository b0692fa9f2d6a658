"""The expert level's betting strategy table: its file format, written by training and read by
the bot.

A gzip-compressed JSON object: `meta` (how it was trained) and `strategy`, which maps each
information-set key of the abstract game (abstraction.infoset_key) to the probabilities of its
actions, in the order of abstraction.BET or abstraction.ANSWER. The bytes depend only on the
content: sorted keys, no timestamp in the gzip header.
"""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

TABLE_PATH = Path(__file__).resolve().parent / "data" / "expert_table.json.gz"
DIGITS = 4
"""Decimals kept of each probability."""


@dataclass(frozen=True, slots=True)
class StrategyTable:
    meta: dict[str, Any]
    strategy: dict[str, list[float]]

    def probabilities(self, key: str) -> list[float] | None:
        """The actions' probabilities at `key`, None for a key training never reached."""
        return self.strategy.get(key)

    def mixed(self, key: str, n: int) -> list[float]:
        """The probabilities of the `n` actions at `key`, uniform where training never
        reached it (a cfr.Strategy)."""
        probs = self.strategy.get(key)
        return probs if probs is not None and len(probs) == n else [1.0 / n] * n


def encode(meta: dict[str, Any], strategy: dict[str, list[float]]) -> bytes:
    """The file's bytes for `strategy` (probabilities rounded to DIGITS decimals)."""
    body = {"meta": meta,
            "strategy": {k: [round(p, DIGITS) for p in v] for k, v in strategy.items()}}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def decode(data: bytes) -> StrategyTable:
    body = json.loads(gzip.decompress(data))
    return StrategyTable(body["meta"], body["strategy"])


@lru_cache(maxsize=1)
def shipped_table() -> StrategyTable:
    """The table shipped with the engine (read once per process)."""
    return decode(TABLE_PATH.read_bytes())
