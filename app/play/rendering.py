"""Turning stored matches into the JSON that API.md describes, always via the engine's view."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import engine
from app.play.fairness import fairness_view
from app.play.invitation_rules import expires_at as invitation_expires_at
from app.db.models import Event, Match, Player, Seat
from app.infra.encoding import etag_of, iso, tagged


def player_public(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "handle": player.handle, "bot": player.bot,
            "created_at": iso(player.created_at)}


def seat_of(match: Match, player: Player | None) -> int | None:
    """The caller's seat in `match`, or None for a spectator."""
    return seat_number(match, None if player is None else player.id)


def seat_number(match: Match, player_id: str | None) -> int | None:
    """The seat of `player_id` in `match`, or None for a spectator."""
    seat = match.seat_of(player_id)
    return None if seat is None else seat.seat


def etag(match: Match, seat: int | None) -> str:
    """Strong ETag of one viewer's representation: the version and who is looking."""
    return etag_of(match.id, match.version, seat)


@dataclass(frozen=True)
class Answer:
    """What a verb answers: a status, a JSON body and headers (the blueprint sends them)."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    encoded: bytes | None = field(default=None, compare=False, repr=False)
    """The body as sent, when the verb has encoded it already (an action stores those
    bytes for its Idempotency-Key)."""


def view_headers(match: Match, seat: int | None) -> dict[str, str]:
    return tagged(etag(match, seat))


def view_answer(match: Match, seat: int | None, status: int = 200,
                state: engine.MatchState | None = None) -> Answer:
    """The match as `seat` sees it, with its ETag: a verb makes it before its commit, from
    what it holds (after the commit the session would read the match again)."""
    return Answer(status, match_view(match, seat, state), view_headers(match, seat))


def _rules_while_waiting(match: Match) -> dict[str, Any]:
    ruleset = engine.RULESETS[match.ruleset]
    options = engine.rules.make_options(ruleset, match.players, match.config.get("options"))
    return {"ruleset": match.ruleset, **options.to_dict()}


def match_view(match: Match, seat: int | None,
               state: engine.MatchState | None = None,
               open_cards: bool = False) -> dict[str, Any]:
    """The match as `seat` (None: spectator) may see it (`state`: the engine's state of
    `match.state`, when the caller has it already; `open_cards`: every card, for a finished
    match's replay, engine.view)."""
    if state is None and match.state:
        state = engine.MatchState.from_json(match.state)
    game = engine.view(state, seat, open_cards) if state is not None else None
    in_hand = game["cards_in_hand"] if game else [0] * match.players
    start = match.config.get("start_score") or [0, 0]
    seats = {s.seat: s for s in match.seats}
    return {
        "id": match.id, "ruleset": match.ruleset, "players": match.players,
        "target_score": match.target_score, "status": match.status, "version": match.version,
        "visibility": match.visibility,
        "invite_code": match.invite_code if seat is not None else None,
        "fixed_deals": match.fixed_deals, "start_score": list(start),
        "turn_timeout": match.turn_timeout, "on_timeout": match.on_timeout,
        "deadline": iso(match.deadline),
        "seats": [_seat_json(seats.get(i), i, in_hand[i]) for i in range(match.players)],
        "score": game["score"] if game else list(start),
        "games": game["games"] if game else [0, 0],
        "winner_team": match.winner_team, "end_reason": match.end_reason,
        "rematch_id": match.rematch_id,
        "fairness": fairness_view(match, seat),
        "you": None if seat is None else {"seat": seat, "team": seat % 2},
        "hand": game["hand"] if game else None,
        "last_hand": game["last_hand"] if game else None,
        "legal_actions": game["legal_actions"] if game and match.status == "active" else [],
        "rules": game["rules"] if game else _rules_while_waiting(match),
        "created_at": iso(match.created_at), "updated_at": iso(match.updated_at),
    }


def _summary_seat(seat: Seat | None, number: int) -> dict[str, Any]:
    """Who sits at seat `number`, as a list shows it (the view's seat without its cards and
    timeouts): a list names the opponents without a request per match."""
    player = seat.player if seat is not None else None
    return {"seat": number, "team": number % 2,
            "player": player_public(player) if player is not None else None,
            "bot_level": seat.bot_level if seat is not None else None,
            "invited": seat is not None and seat.invited}


def _seat_json(seat: Seat | None, number: int, cards: int) -> dict[str, Any]:
    """The view's seat: the summary's, with its timeouts and cards in hand."""
    return {**_summary_seat(seat, number),
            "timeouts": seat.timeouts if seat is not None else 0,
            "timeouts_in_row": seat.timeouts_in_row if seat is not None else 0,
            "cards_in_hand": cards}


def match_summary(match: Match, player: Player | None) -> dict[str, Any]:
    """One line of a list: the match as anyone may see it, and what it asks of `player`."""
    seat = seat_of(match, player)
    invitation = match.invitation_for(player.id) if player is not None else None
    if invitation is not None:
        seat = invitation.seat
    taken = {s.seat: s for s in match.seats}
    return {
        "id": match.id, "ruleset": match.ruleset, "players": match.players,
        "status": match.status, "visibility": match.visibility, "version": match.version,
        "score": list(match.score),
        "seats_free": sum(1 for i in range(match.players) if i not in taken),
        "winner_team": match.winner_team, "end_reason": match.end_reason,
        "seats": [_summary_seat(taken.get(i), i) for i in range(match.players)],
        "to_act": list(match.to_act or []) if match.status == "active" else [],
        "you": None if seat is None else {"seat": seat, "team": seat % 2},
        "your_turn": invitation is not None or (seat is not None and seat in match.to_act),
        "invitation": invitation is not None,
        "deadline": iso(match.deadline),
        "created_at": iso(match.created_at), "updated_at": iso(match.updated_at),
        "invitation_expires_at": None if invitation is None or invitation.joined_at is None
        else iso(invitation_expires_at(invitation.joined_at)),
        "turn_timeout": match.turn_timeout, "on_timeout": match.on_timeout,
        "fixed_deals": match.fixed_deals,
    }


def event_json(event: Event, seat: int | None, finished: bool) -> dict[str, Any]:
    # (the engine redacts its own events and passes any other, the app's, through)
    data = engine.redact_event(cast("engine.events.Event", event.data), seat, finished)
    return {**data, "seq": event.seq, "version": event.version, "type": event.type,
            "at": iso(event.at)}
