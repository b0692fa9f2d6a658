"""The test player: a registered player's id, name and token, its Authorization header, and
its calls to a real server over HTTP."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import requests

TIMEOUT = 15
"""Client timeout of a plain request to a real server (a long poll adds its wait)."""


@dataclass
class Player:
    """A registered player. Through the Flask test client, see ``tests.support.api.register``;
    on a real server, :meth:`register_at`."""

    id: str
    name: str
    token: str

    @classmethod
    def register_at(cls, base: str, name: str) -> Player:
        """A new player, registered on the server at `base`."""
        r = requests.post(f"{base}/v1/players", json={"name": name}, timeout=TIMEOUT)
        assert r.status_code == 201, r.text
        return cls(r.json()["id"], r.json()["name"], r.json()["token"])

    @property
    def headers(self) -> dict[str, str]:
        """The player's Authorization header."""
        return {"Authorization": f"Bearer {self.token}"}

    def headers_with(self, **extra: str) -> dict[str, str]:
        """The player's Authorization header and `extra`."""
        return {**self.headers, **extra}

    def view(self, base: str, match_id: str) -> requests.Response:
        """The player's 200 view of `match_id` on the server at `base`."""
        r = requests.get(f"{base}/v1/matches/{match_id}", headers=self.headers,
                         timeout=TIMEOUT)
        assert r.status_code == 200, r.text
        return r

    def act(self, base: str, match_id: str, body: dict[str, Any],
            **headers: str) -> requests.Response:
        """The answer to the player's action `body` on `match_id` at `base`."""
        return requests.post(f"{base}/v1/matches/{match_id}/actions", json=body,
                             headers=self.headers_with(**headers), timeout=TIMEOUT)
