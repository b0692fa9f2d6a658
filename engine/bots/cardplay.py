"""Card-play rules of thumb shared by the heuristic bots and the hard bot's playouts.

They read only what the seat to play sees: its own cards, the cards on the table (a face-down
card counts 0, whoever played it) and the results of the done tricks.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

Play = tuple[int, "str | None", bool]
"""(seat, card or None when hidden, face_down) as on the table."""


class CardChoice(NamedTuple):
    card: str
    intent: str
    """"lead", "win", "tie" or "dump" (the trick is not worth a good card)."""


def opponents_after(seat: int, players: int, played: int) -> int:
    """Opponents still to play in the open trick after `seat`, when `played` cards are down."""
    return sum(1 for i in range(1, players - played) if (seat + i) % 2 != seat % 2)


def table_top(plays: Sequence[Play], strength: dict[str, int]) -> tuple[int, set[int]]:
    """The top strength on the table and the teams that hold it (empty set: no card yet)."""
    top, teams = -1, set()
    for seat, card, face_down in plays:
        value = 0 if face_down or card is None else strength[card]
        if value > top:
            top, teams = value, {seat % 2}
        elif value == top:
            teams.add(seat % 2)
    return top, teams


def choose_card(cards: list[str], strength: dict[str, int], plays: Sequence[Play], seat: int,
                results: list[int | None], opponents_after: int = 0,
                beat_chance: dict[str, float] | None = None) -> CardChoice:
    """The card to play: win the trick as cheaply as is safe, else dump the weakest.

    `results` are the done tricks' winning teams (None: tied). `opponents_after` is how many
    opponents play after this seat in the trick; with `beat_chance` (for each card, the chance
    that it beats one unseen card) the cheapest winner that will likely survive them is chosen.
    """
    by_value = sorted(cards, key=lambda c: strength[c])
    lowest, highest = by_value[0], by_value[-1]
    team = seat % 2
    if not plays:
        if not results and len(by_value) == 3 and strength[by_value[1]] >= 9:
            return CardChoice(by_value[1], "lead")  # two good cards: keep the best for later
        return CardChoice(highest, "lead")
    top, teams = table_top(plays, strength)
    if teams == {team}:
        return CardChoice(lowest, "dump")  # the partner is winning it
    winners = [c for c in by_value if strength[c] > top]
    if winners:
        if beat_chance is not None and opponents_after:
            for card in winners:
                if beat_chance[card] ** opponents_after >= 0.5:
                    return CardChoice(card, "win")
            return CardChoice(winners[-1], "win")
        return CardChoice(winners[0], "win")
    tying = [c for c in by_value if strength[c] == top]
    tie_helps = not results or results[0] != 1 - team  # a tie after their first trick loses
    if tying and tie_helps and team not in teams:
        return CardChoice(tying[0], "tie")
    return CardChoice(lowest, "dump")


def strong_cards(cards: list[str], strength: dict[str, int]) -> int:
    """How many cards are a 2, a 3 or a manilha (strength 9 or more)."""
    return sum(1 for c in cards if strength[c] >= 9)


def simple_strength(cards: list[str], strength: dict[str, int], results: list[int | None],
                    team: int) -> int:
    """The easy rule's hand strength: good cards held plus tricks already won by the team."""
    return strong_cards(cards, strength) + sum(1 for r in results if r == team)


def top_manilha(cards: list[str], strength: dict[str, int]) -> bool:
    """Whether `cards` hold one of the two strongest manilhas (strength 13 or more)."""
    return any(strength[c] >= 13 for c in cards)


def easy_calls(cards: list[str], strength: dict[str, int], results: list[int | None],
               team: int) -> bool:
    """The easy rule for calling: two good things (cards or won tricks), or a top manilha."""
    return simple_strength(cards, strength, results, team) >= 2 or top_manilha(cards, strength)
