"""A typed reading of one seat's view: everything a bot decides from, and nothing more."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import strengths
from ..determinize import SeatKnowledge, seat_knowledge
from ..rules import RULESETS, TARGET_SCORE
from .cardplay import Play, opponents_after


@dataclass(frozen=True, slots=True)
class Observation:
    view: dict[str, Any]
    knowledge: SeatKnowledge
    """The hands the seat sees and the cards it cannot place (decided by engine.knowledge)."""
    seat: int
    players: int
    ruleset: str
    strength: dict[str, int]
    cards: list[str] | None
    """The seat's cards, None in a blind mão de ferro."""
    plays: list[Play]
    """The open trick's plays."""
    results: list[int | None]
    """Done tricks' winning teams, None for a tie."""
    stake: int
    special: str | None
    pending: dict[str, Any] | None
    score: list[int]
    legal: list[dict[str, Any]]
    calls: list[dict[str, Any]]
    """The hand's betting so far, in order (the view's `hand.calls`)."""

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def partner_hands(self) -> list[list[str]]:
        return [c for s, c in self.knowledge.known_hands.items() if s != self.seat]

    @property
    def opponents_after(self) -> int:
        """Opponents still to play in the open trick after this seat."""
        return opponents_after(self.seat, self.players, len(self.plays))

    @property
    def opponents_answered(self) -> bool:
        """An opponent accepted this team's call this hand, or raised over it: they showed
        strength."""
        calls = [c for c in self.calls if "kind" not in c]
        return any(c["seat"] % 2 != self.team and (
            c["action"] == "accept" or c["action"] == "raise" and i > 0
            and calls[i - 1]["action"] == "raise" and calls[i - 1]["seat"] % 2 == self.team)
            for i, c in enumerate(calls))

    def need(self, team: int) -> int:
        """Points `team` lacks to win the game."""
        return TARGET_SCORE - self.score[team]

    def raise_action(self) -> dict[str, Any] | None:
        return raise_action(self.legal)

    def play_action(self, card: str, face_down: bool = False) -> dict[str, Any]:
        return play_action(self.legal, card, face_down)

    def playable_cards(self) -> list[str]:
        return playable_cards(self.legal)

    @property
    def base(self) -> int:
        return RULESETS[self.ruleset].base


def raise_action(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The call among the `legal` actions, or None."""
    return next((a for a in legal if a["type"] == "raise"), None)


def play_action(legal: list[dict[str, Any]], card: str,
                face_down: bool = False) -> dict[str, Any]:
    """The legal play of `card` (face down when asked and allowed)."""
    plays = [a for a in legal if a.get("card") == card]  # only a play names a card
    return next((a for a in plays if bool(a.get("face_down")) == face_down), plays[0])


def playable_cards(legal: list[dict[str, Any]]) -> list[str]:
    """Cards with a legal play (all of them, or the strongest when play is forced)."""
    return list(dict.fromkeys(a["card"] for a in legal if a["type"] == "play" and "card" in a))


def observe(view: dict[str, Any]) -> Observation:
    """The observation of the seat whose view this is."""
    h = view["hand"]
    tricks = h["tricks"]
    done = [t for t in tricks if len(t["plays"]) == view["players"]]
    open_plays = tricks[-1]["plays"] if tricks and len(tricks[-1]["plays"]) < view["players"] \
        else []
    cards = None if h["cards"] is None or None in h["cards"] else list(h["cards"])
    return Observation(
        view=view, knowledge=seat_knowledge(view), seat=int(view["you"]["seat"]),
        players=int(view["players"]), ruleset=view["ruleset"],
        strength=strengths(view["ruleset"], h["vira"]), cards=cards,
        plays=[(p["seat"], p["card"], p["face_down"]) for p in open_plays],
        results=[None if t["tie"] else t["winner_team"] for t in done],
        stake=int(h["stake"]), special=h["special"], pending=h["pending"],
        score=list(view["score"]), legal=list(view["legal_actions"]),
        calls=list(h.get("calls", [])))
