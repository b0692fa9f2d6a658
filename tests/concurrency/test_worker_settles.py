"""The servers' background worker (`python -m app.worker`, as serve and docker-compose run
it) settles a finished match by itself: ratings and tallies move once, soon after the end."""
from __future__ import annotations

import time
from typing import Any

import requests

from tests.support.player import TIMEOUT, Player
from tests.support.servers import Server


def _duel_rating(base: str, player: Player) -> dict[str, Any]:
    r = requests.get(f"{base}/v1/players/{player.id}", timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    return {**r.json()["ratings"]["duel"], "won": r.json()["won"], "lost": r.json()["lost"]}


def test_the_worker_rates_a_resigned_duel_once(server_a: Server, server_b: Server) -> None:
    ana, bia = Player.register_at(server_a.url, "ana"), Player.register_at(server_a.url, "bia")
    r = requests.post(f"{server_a.url}/v1/matches", headers=ana.headers, json={"seat": 0},
                      timeout=TIMEOUT)
    match_id = r.json()["id"]
    assert requests.post(f"{server_b.url}/v1/matches/{match_id}/join", headers=bia.headers,
                         json={}, timeout=TIMEOUT).status_code == 200
    assert requests.post(f"{server_b.url}/v1/matches/{match_id}/resign",
                         headers=bia.headers, timeout=TIMEOUT).status_code == 200
    deadline = time.monotonic() + 10
    while _duel_rating(server_a.url, ana)["rated_matches"] == 0:
        assert time.monotonic() < deadline, "no worker settled the match"
        time.sleep(0.05)
    time.sleep(1.5)  # both workers have looked again since
    won, lost = _duel_rating(server_a.url, ana), _duel_rating(server_b.url, bia)
    assert (won["rated_matches"], won["won"], lost["rated_matches"], lost["lost"]) == (1, 1, 1, 1)
    assert won["rating"] > 1500 > lost["rating"]
