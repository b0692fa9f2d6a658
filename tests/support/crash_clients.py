"""Clients that keep playing through a crash of the servers: each plays one seat with random
legal actions, alternating between servers, retrying a lost request with the same
Idempotency-Key, and records the body of every action that got a 200."""
from __future__ import annotations

import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import requests

REQUEST_TIMEOUT = 5.0
RETRY_PAUSE = 0.1


@dataclass
class SeatClient:
    """One human seat of one match, played from a thread by `play`."""

    urls: list[str]
    match_id: str
    seat: int
    token: str
    seed: int
    acknowledged: list[dict[str, Any]] = field(default_factory=list)
    """The body of every action answered 200, in the order sent."""
    lost_requests: int = 0
    """Requests that got no answer (connection refused or reset by the crash) or a 5xx."""
    retried_keys: int = 0
    """Actions sent again with the same Idempotency-Key after a lost answer."""
    replayed: int = 0
    """200s that were an idempotent replay: the lost attempt had committed."""
    finished: bool = False
    error: str | None = None
    _turn: int = 0

    def _url(self) -> str:
        self._turn += 1
        return self.urls[self._turn % len(self.urls)]

    def _headers(self, **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **extra}

    def _get_view(self, etag: str | None) -> requests.Response | None:
        """The view; held up to 2 s until it changes from `etag`. None: no answer."""
        headers = self._headers(**({"If-None-Match": etag} if etag else {}))
        try:
            r = requests.get(f"{self._url()}/v1/matches/{self.match_id}",
                             params={"wait": 2 if etag else 0}, headers=headers,
                             timeout=REQUEST_TIMEOUT)
        except requests.RequestException:
            r = None
        if r is None or r.status_code >= 500:
            self.lost_requests += 1
            time.sleep(RETRY_PAUSE)
            return None
        return r

    def _send(self, action: dict[str, Any], deadline: float) -> None:
        """Post `action` until a definite answer, with one Idempotency-Key throughout."""
        key = uuid.uuid4().hex
        first = True
        while time.monotonic() < deadline:
            if not first:
                self.retried_keys += 1
            first = False
            try:
                r = requests.post(f"{self._url()}/v1/matches/{self.match_id}/actions",
                                  json=action, headers=self._headers(**{"Idempotency-Key": key}),
                                  timeout=REQUEST_TIMEOUT)
            except requests.RequestException:
                r = None
            if r is None or r.status_code >= 500:
                self.lost_requests += 1
                time.sleep(RETRY_PAUSE)
                continue
            if r.status_code == 200:
                self.acknowledged.append(action)
                self.replayed += "Idempotent-Replayed" in r.headers
            elif r.status_code != 409:  # 409: the match moved on meanwhile; look again
                self.error = f"{r.status_code} {r.text[:300]}"
            return

    def play(self, deadline: float) -> None:
        """Act whenever this seat is to act, until the match is finished or `deadline`."""
        rng = random.Random(self.seed)
        etag: str | None = None
        while time.monotonic() < deadline and self.error is None:
            r = self._get_view(etag)
            if r is None:
                etag = None
                continue
            if r.status_code == 304:
                continue
            if r.status_code != 200:
                self.error = f"view {r.status_code} {r.text[:300]}"
                return
            view = r.json()
            if view["status"] == "finished":
                self.finished = True
                return
            if self.seat in view["hand"]["to_act"] and view["legal_actions"]:
                self._send(rng.choice(view["legal_actions"]), deadline)
                etag = None
            else:
                etag = r.headers.get("ETag")


def run_all(clients: list[SeatClient], deadline: float) -> list[threading.Thread]:
    """Start every client's `play` in a thread of its own."""
    threads = [threading.Thread(target=c.play, args=(deadline,), daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    return threads
