"""The match state: plain data, a cheap copy for `apply`, and an exact JSON round trip."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .rules import Options

SEED_SCHEME = "seed-blake2b"
"""The deal scheme of matches with a seed (engine/deal.py: shuffled_cards)."""

Play = tuple[int, str, bool]
"""(seat, card, face_down) as played on the table."""


@dataclass(slots=True)
class Trick:
    leader: int
    plays: list[Play] = field(default_factory=list)
    winner_team: int | None = None
    tie: bool = False
    done: bool = False

    def copy(self) -> "Trick":
        return self if self.done else Trick(self.leader, list(self.plays), None, False, False)

    def as_table(self) -> dict[str, Any]:
        """The trick as it lies on the table (unredacted): API.md's trick object."""
        return {"plays": [{"seat": s, "card": c, "face_down": fd} for s, c, fd in self.plays],
                "winner_team": self.winner_team, "tie": self.tie}

    def to_json(self) -> dict[str, Any]:
        return {"leader": self.leader, "plays": [list(p) for p in self.plays],
                "winner_team": self.winner_team, "tie": self.tie, "done": self.done}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Trick":
        return cls(d["leader"], [(p[0], p[1], p[2]) for p in d["plays"]],
                   d["winner_team"], d["tie"], d["done"])


@dataclass(slots=True)
class Hand:
    number: int
    dealer: int
    vira: str | None
    hands: list[list[str]]
    """Each seat's cards still in hand, in dealt order. A seat's list is replaced, never
    mutated in place, so copies share the lists of seats that did not play."""
    stake: int
    special: str | None
    pending: dict[str, Any] | None
    """Replaced, never mutated in place, so copies may share it."""
    refused: list[int]
    """Seats that refused the pending question."""
    last_call_team: int | None
    tricks: list[Trick]
    """Done tricks, then the open one (absent once the hand is over)."""
    turn: int | None
    """The seat to play once nothing is pending (None while the mão de onze is decided)."""
    to_act: list[int]
    eleven_team: int | None = None
    """The team on 11 (10) in a mão de onze: it sees its partners' cards all hand."""
    calls: list[dict[str, Any]] = field(default_factory=list)
    """The hand's betting in order (API.md `hand.calls`), public to every viewer.
    Replaced, never mutated in place, so copies may share it."""

    def copy(self) -> "Hand":
        return Hand(self.number, self.dealer, self.vira, list(self.hands),
                    self.stake, self.special, self.pending, list(self.refused),
                    self.last_call_team, [t if t.done else t.copy() for t in self.tricks],
                    self.turn, list(self.to_act), self.eleven_team, self.calls)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "dealer": self.dealer, "vira": self.vira,
                "hands": [list(h) for h in self.hands], "stake": self.stake,
                "special": self.special, "pending": self.pending, "refused": list(self.refused),
                "last_call_team": self.last_call_team,
                "tricks": [t.to_json() for t in self.tricks], "turn": self.turn,
                "to_act": list(self.to_act), "eleven_team": self.eleven_team,
                "calls": list(self.calls)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Hand":
        return cls(d["number"], d["dealer"], d["vira"], [list(h) for h in d["hands"]],
                   d["stake"], d["special"], d["pending"], list(d["refused"]),
                   d["last_call_team"], [Trick.from_json(t) for t in d["tricks"]], d["turn"],
                   list(d["to_act"]), d["eleven_team"],
                   [dict(c) for c in d.get("calls", [])])  # (no calls: stored before them)


@dataclass(slots=True)
class MatchState:
    ruleset: str
    players: int
    options: Options
    seed: int
    deals: list[dict[str, Any]]
    """Fixed deals for the first hands (canonical codes); later hands are shuffled."""
    score: list[int]
    games: list[int]
    status: str
    """"active" or "finished"."""
    winner_team: int | None
    hand: Hand
    last_hand: dict[str, Any] | None
    """How the last finished hand ended, with full (unredacted) tricks and its calls."""
    end_reason: str | None = None
    """How a finished match ended: "score", "resigned" or "timed_out" (API.md)."""
    deal_scheme: str = SEED_SCHEME
    """How shuffled hands are drawn: SEED_SCHEME (from `seed`) or "truco-commit-v1" (from
    `deal_key`, engine/fairness.py). A state stored without it has the seed scheme."""
    deal_key: str = ""
    """The hex key of a truco-commit-v1 match (secret: it determines every deal)."""

    def copy(self) -> "MatchState":
        return MatchState(self.ruleset, self.players, self.options, self.seed, self.deals,
                          list(self.score), list(self.games), self.status, self.winner_team,
                          self.hand.copy(), self.last_hand, self.end_reason, self.deal_scheme,
                          self.deal_key)

    @property
    def to_act(self) -> list[int]:
        """The seats that may act now (empty once the match is over)."""
        return self.hand.to_act

    def to_json(self) -> dict[str, Any]:
        return {"format": 1, "ruleset": self.ruleset, "players": self.players,
                "options": self.options.to_dict(), "seed": self.seed, "deals": self.deals,
                "score": list(self.score), "games": list(self.games), "status": self.status,
                "winner_team": self.winner_team, "hand": self.hand.to_json(),
                "last_hand": self.last_hand, "end_reason": self.end_reason,
                "deal_scheme": self.deal_scheme, "deal_key": self.deal_key}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "MatchState":
        return cls(d["ruleset"], d["players"], Options.from_dict(d["options"]), d["seed"],
                   d["deals"], list(d["score"]), list(d["games"]), d["status"],
                   d["winner_team"], Hand.from_json(d["hand"]), d["last_hand"],
                   d.get("end_reason"), d.get("deal_scheme", SEED_SCHEME), d.get("deal_key", ""))
