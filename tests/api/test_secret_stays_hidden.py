"""The secret of a match with auditable deals is in no answer, event, webhook or log line
before the match is finished, on every way a match ends (API.md, "Auditable deals")."""
from __future__ import annotations

import logging
import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.support.api import (act, create, db_rows, db_scalar, full_match, get_events,
                               get_view, join, register, run_worker, stored_secret)

HOOK = "http://127.0.0.1:9/hook"


class Recorded:
    """The test client, keeping the text of every answer it got (headers and body)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.answers: list[tuple[str, Any]] = []

    def _keep(self, r: Any) -> Any:
        body = r.json if r.is_json else None
        self.answers.append((str(r.headers) + r.get_data(as_text=True), body))
        return r

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._keep(self.client.get(*args, **kwargs))

    def post(self, *args: Any, **kwargs: Any) -> Any:
        return self._keep(self.client.post(*args, **kwargs))


def _poke(client: Recorded, match_id: str, seated: list[Any]) -> None:
    """Everything a curious client asks mid-match: every view, the logs, refusals."""
    for p in [*seated, None]:
        get_view(client, match_id, p)
        get_events(client, match_id, p)
    act(client, match_id, seated[0], {"type": "play", "card": "9z"})  # 422
    act(client, match_id, seated[0], {"type": "raise"}, headers={"If-Match": '"stale"'})
    join(client, match_id, register(client.client, "late"))  # 409: not waiting


def _step(client: Recorded, match_id: str, seated: list[Any], rng: random.Random) -> None:
    """One random legal action of a seat to act (people only)."""
    view = get_view(client, match_id)
    people = [s for s in view["hand"]["to_act"] if seated[s] is not None]
    if people:
        seat = rng.choice(people)
        mine = get_view(client, match_id, seated[seat])
        if mine["legal_actions"]:
            act(client, match_id, seated[seat], rng.choice(mine["legal_actions"]))


def _by_score(client: Recorded, app: Any, rng: random.Random, players: int,
              hook: bool) -> tuple[str, list[Any]]:
    match_id, seated = full_match(client, players=players)
    if hook:
        client.post("/v1/me/webhooks", json={"url": HOOK}, headers=seated[0].headers)
    while get_view(client, match_id)["status"] == "active":
        _poke(client, match_id, seated) if rng.random() < 0.1 else None
        _step(client, match_id, seated, rng)
    return match_id, seated


def _with_bots(client: Recorded, app: Any, rng: random.Random) -> tuple[str, list[Any]]:
    ana = register(client.client, "ana")
    client.post("/v1/me/webhooks", json={"url": HOOK}, headers=ana.headers)
    m = create(client, ana, players=4, seat=0, client_seed="ana",
               bots=[{"seat": s, "level": "easy"} for s in (1, 2, 3)])
    seated = [ana, None, None, None]
    while get_view(client, m["id"])["status"] == "active":
        run_worker(app)
        _poke(client, m["id"], [ana]) if rng.random() < 0.2 else None
        _step(client, m["id"], seated, rng)
    return m["id"], [ana]


def _resigned(client: Recorded, app: Any, rng: random.Random) -> tuple[str, list[Any]]:
    match_id, seated = full_match(client, players=6)
    client.post("/v1/me/webhooks", json={"url": HOOK}, headers=seated[2].headers)
    for _ in range(8):
        _step(client, match_id, seated, rng)
    _poke(client, match_id, seated)
    client.post(f"/v1/matches/{match_id}/resign", headers=seated[3].headers)
    return match_id, seated


def _forfeited(client: Recorded, app: Any, rng: random.Random) -> tuple[str, list[Any]]:
    match_id, seated = full_match(client, players=2, turn_timeout=600, on_timeout="forfeit")
    client.post("/v1/me/webhooks", json={"url": HOOK}, headers=seated[1].headers)
    _step(client, match_id, seated, rng)
    _poke(client, match_id, seated)
    deadline = get_view(client, match_id)["deadline"]
    run_worker(app, now=datetime.fromisoformat(deadline.replace("Z", "+00:00"))
               + timedelta(seconds=1))
    assert get_view(client, match_id, seated[0])["status"] == "finished"
    return match_id, seated


WAYS: dict[str, Callable[[Recorded, Any, random.Random], tuple[str, list[Any]]]] = {
    "score, 2 players, fast write path": lambda c, a, r: _by_score(c, a, r, 2, hook=False),
    "score, 4 players, webhooks (locked path)": lambda c, a, r: _by_score(c, a, r, 4,
                                                                          hook=True),
    "score, a person and 3 bots (worker)": _with_bots,
    "resignation, 6 players": _resigned,
    "forfeit by time (worker)": _forfeited,
}


@pytest.mark.parametrize("way", list(WAYS))
def test_no_secret_before_the_end(client: Any, app: Any, caplog: Any, way: str) -> None:
    caplog.set_level(logging.DEBUG)
    recorded = Recorded(client)
    match_id, seated = WAYS[way](recorded, app, random.Random(way))
    secret = stored_secret(app, match_id)
    ended = next(i for i, (_, body) in enumerate(recorded.answers)
                 if isinstance(body, dict) and body.get("id") == match_id
                 and body.get("status") == "finished")
    assert ended > 5
    assert not [text for text, _ in recorded.answers[:ended] if secret in text]
    assert secret in recorded.answers[ended][0]  # (the scan looks for the right thing)
    events = db_rows(app, "SELECT type, data::text FROM events WHERE match_id = :m ORDER BY seq",
                     m=match_id)
    assert events[-1].type == "deals_revealed"
    assert not [e for e in events[:-1] if secret in e.data]
    hooks = db_rows(app, "SELECT event, payload::text FROM webhook_deliveries")
    assert not [h for h in hooks if secret in h.payload]
    if way != "score, 2 players, fast write path":
        assert hooks  # (the scan has rows to look at)
    assert not [r for r in caplog.records if secret in r.getMessage()]
    final = get_view(client, match_id, seated[0])
    assert final["status"] == "finished" and final["fairness"]["secret"] == secret
    # the deal key (every deal follows from it) is never shown: verifiers derive it
    key = db_scalar(app, "SELECT state->>'deal_key' FROM matches WHERE id = :m", m=match_id)
    assert len(key) == 64
    shown = [text for text, _ in recorded.answers] + [e.data for e in events] \
        + [h.payload for h in hooks] + [r.getMessage() for r in caplog.records]
    assert not [text for text in shown if key in text]
