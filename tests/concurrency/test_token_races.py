"""Token rotations racing on real server processes: every 200 hands out a token that works.
Of rotations sent at once with the same token, one replaces it and the others find it
replaced (401), as they would one after the other."""
from __future__ import annotations

from collections import Counter

import requests

from tests.support.player import TIMEOUT, Player
from tests.support.remote import race
from tests.support.servers import Server

RACERS = 6


def test_rotations_at_once_never_answer_a_dead_token(server_a: Server,
                                                     server_b: Server) -> None:
    for _ in range(3):
        player = Player.register_at(server_a.url, "rot")
        answers = race([lambda base=base: requests.post(
            f"{base}/v1/players/me/token", headers=player.headers, timeout=TIMEOUT)
            for base in [server_a.url, server_b.url] * (RACERS // 2)])
        assert Counter(r.status_code for r in answers) == {200: 1, 401: RACERS - 1}, [
            (r.status_code, r.text) for r in answers]
        (won,) = [r for r in answers if r.status_code == 200]
        token = won.json()["token"]
        for base in (server_a.url, server_b.url):
            me = requests.get(f"{base}/v1/players/me",
                              headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT)
            assert me.status_code == 200 and me.json()["id"] == player.id
