"""Where a change's rows go: the log of events, the recorded action, the webhook outbox, the
notifications. Two ways with one interface:

- :class:`SessionWrites`, through the ORM session at once (leaving, resigning, the worker:
  the less frequent verbs, where clarity beats round trips);
- :class:`BufferedWrites`, kept in memory and written by app/db/hot_sql.py in the one
  statement that also stores the match (actions, joins, creations: what every match does).

The decisions (which events, which deliveries, which notifications) are made once, by the
callers in app/play/store.py and app/webhooks/outbox.py, whichever way is used.
"""
from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import select, text

from app.db.extensions import db
from app.db.models import ActionRecord, Event
from app.db.channels import known_at_commit
from app.db.webhook_models import WebhookDelivery, WebhookEndpoint


@dataclass(frozen=True)
class Endpoint:
    """What the outbox needs of an active webhook endpoint."""

    id: str
    player_id: str
    events: tuple[str, ...]


class Writes(Protocol):
    def endpoints(self, player_ids: set[str]) -> list[Endpoint]:
        """The active webhook endpoints of these players."""

    def event(self, match_id: str, seq: int, version: int, data: Mapping[str, Any]) -> None: ...

    def action(self, match_id: str, n: int, seat: int, player_id: str | None,
               body: dict[str, Any]) -> None: ...

    def delivery(self, endpoint_id: str, event: str, payload: dict[str, Any],
                 now: datetime) -> None: ...

    def notify(self, channel: str, payload: str) -> None:
        """Sent at commit (PostgreSQL holds notifications until then)."""

    def changed(self, match_id: str, version: int) -> None:
        """Tell this process of the match's new version once it is committed."""


class SessionWrites:
    """Each write goes to the ORM session as it is made."""

    def endpoints(self, player_ids: set[str]) -> list[Endpoint]:
        """The active webhook endpoints of these players, each held (FOR KEY SHARE) until
        the commit, so that the deliveries written for them keep their foreign key: an
        endpoint whose deletion is under way is waited for and, once it is deleted, left
        out; a deletion that comes later waits and deletes them by its cascade."""
        with db.session.no_autoflush:  # (nothing pending changes the answer: no flush yet)
            rows = db.session.execute(select(WebhookEndpoint).where(
                WebhookEndpoint.player_id.in_(player_ids),
                WebhookEndpoint.status == "active")
                .with_for_update(read=True, key_share=True)).scalars()
            return [Endpoint(e.id, e.player_id, tuple(e.events)) for e in rows]

    def event(self, match_id: str, seq: int, version: int, data: Mapping[str, Any]) -> None:
        db.session.add(Event(match_id=match_id, seq=seq, version=version, type=data["type"],
                             data=data))

    def action(self, match_id: str, n: int, seat: int, player_id: str | None,
               body: dict[str, Any]) -> None:
        db.session.add(ActionRecord(match_id=match_id, n=n, seat=seat, player_id=player_id,
                                    body=body))

    def delivery(self, endpoint_id: str, event: str, payload: dict[str, Any],
                 now: datetime) -> None:
        db.session.add(WebhookDelivery(endpoint_id=endpoint_id, event=event,
                                       next_attempt_at=now, payload=payload))

    def notify(self, channel: str, payload: str) -> None:
        with db.session.no_autoflush:  # (delivered at the commit, whatever is flushed when)
            db.session.execute(text("SELECT pg_notify(:channel, :payload)"),
                               {"channel": channel, "payload": payload})

    def changed(self, match_id: str, version: int) -> None:
        known_at_commit(db.session(), match_id, version)


SESSION_WRITES = SessionWrites()


def new_delivery_id() -> str:
    """A webhook delivery's id (its `webhook-id` header), as the model's default makes it."""
    return "msg_" + secrets.token_hex(12)


@dataclass
class BufferedWrites:
    """Writes kept for one statement; the endpoints were read with the match."""

    known_endpoints: list[Endpoint]
    events: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    deliveries: list[dict[str, Any]] = field(default_factory=list)
    notifications: list[tuple[str, str]] = field(default_factory=list)
    changes: list[tuple[str, int]] = field(default_factory=list)
    """(match id, version) to tell this process of after the commit (app/db/hot_sql.py)."""

    def endpoints(self, player_ids: set[str]) -> list[Endpoint]:
        return [e for e in self.known_endpoints if e.player_id in player_ids]

    def event(self, match_id: str, seq: int, version: int, data: Mapping[str, Any]) -> None:
        self.events.append({"seq": seq, "version": version, "type": data["type"],
                            "data": data})

    def action(self, match_id: str, n: int, seat: int, player_id: str | None,
               body: dict[str, Any]) -> None:
        self.actions.append({"n": n, "seat": seat, "player_id": player_id, "body": body})

    def delivery(self, endpoint_id: str, event: str, payload: dict[str, Any],
                 now: datetime) -> None:
        self.deliveries.append({"id": new_delivery_id(), "endpoint_id": endpoint_id,
                                "event": event, "payload": payload,
                                "next_attempt_at": now.isoformat()})

    def notify(self, channel: str, payload: str) -> None:
        self.notifications.append((channel, payload))

    def changed(self, match_id: str, version: int) -> None:
        self.changes.append((match_id, version))
