"""The hand-written components of the spec: the ``oneOf`` unions and the response headers."""
from __future__ import annotations

from typing import Any

from app.http.schemas.actions import (AcceptActionSchema, PlayActionSchema, RaiseActionSchema,
                                      RefuseActionSchema)
from app.http.schemas.base import OneOf, one_of
from app.http.schemas.events import (CardPlayedEventSchema, DeadlineSetEventSchema,
                                     DealsRevealedEventSchema, ElevenDecidedEventSchema,
                                     GameWonEventSchema, HandDealtEventSchema, HandWonEventSchema,
                                     IllegalCallEventSchema, InvitationDeclinedEventSchema,
                                     MatchCancelledEventSchema, MatchForfeitedEventSchema,
                                     MatchStartedEventSchema, MatchWonEventSchema,
                                     PlayerInvitedEventSchema, PlayerJoinedEventSchema,
                                     PlayerLeftEventSchema, PlayerResignedEventSchema,
                                     RaiseAcceptedEventSchema, RaisedEventSchema,
                                     RaiseRefusedEventSchema, TrickTiedEventSchema,
                                     TrickWonEventSchema, TurnTimedOutEventSchema)
from app.http.schemas.views import MaoDeOnzePendingSchema, RaisePendingSchema

UNIONS: dict[str, OneOf] = {
    "Action": one_of("type", PlayActionSchema, RaiseActionSchema, AcceptActionSchema,
                     RefuseActionSchema),
    "Pending": one_of("kind", RaisePendingSchema, MaoDeOnzePendingSchema),
    "Event": one_of("type", PlayerJoinedEventSchema, PlayerLeftEventSchema,
                    PlayerInvitedEventSchema, InvitationDeclinedEventSchema,
                    MatchCancelledEventSchema, MatchStartedEventSchema, HandDealtEventSchema,
                    CardPlayedEventSchema, TrickWonEventSchema, TrickTiedEventSchema,
                    RaisedEventSchema, RaiseAcceptedEventSchema, RaiseRefusedEventSchema,
                    ElevenDecidedEventSchema, IllegalCallEventSchema, HandWonEventSchema,
                    GameWonEventSchema, MatchWonEventSchema, PlayerResignedEventSchema,
                    TurnTimedOutEventSchema, DeadlineSetEventSchema,
                    MatchForfeitedEventSchema, DealsRevealedEventSchema),
}

# --- response headers (components/headers) -------------------------------------------------

HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {"description": "this representation's tag, for If-None-Match and If-Match",
             "schema": {"type": "string"}},
    "Location": {"description": "the URL of what was created", "schema": {"type": "string"}},
    "Retry-After": {"description": "seconds to wait before trying again",
                    "schema": {"type": "integer"}},
    "Idempotent-Replayed": {"description": "`true`: the stored answer of an earlier request "
                                           "with this Idempotency-Key; nothing was done again",
                            "schema": {"type": "string", "enum": ["true"]}},
}
