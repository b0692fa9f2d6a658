"""Rematch requests racing on two server processes: whoever asks and however many at once,
a finished match gets one rematch, and every answer names it."""
from __future__ import annotations

from collections import Counter

import requests

from tests.support.database import Pg
from tests.support.player import TIMEOUT, Player
from tests.support.remote import Table, race
from tests.support.servers import Server

ROUNDS = 3


def test_both_players_asking_at_once_on_two_servers_make_one_rematch(
        server_a: Server, server_b: Server, pg: Pg) -> None:
    for _ in range(ROUNDS):
        table = Table(server_a.url)
        ana, bia = table.players
        r = requests.post(f"{server_a.url}/v1/matches/{table.id}/resign",
                          headers=bia.headers, timeout=TIMEOUT)
        assert r.status_code == 200, r.text

        def ask(base: str, player: Player) -> requests.Response:
            return requests.post(f"{base}/v1/matches/{table.id}/rematch",
                                 headers=player.headers, timeout=TIMEOUT)

        answers = race([lambda b=base, p=player: ask(b, p)
                        for base in (server_a.url, server_b.url) for player in (ana, bia)
                        for _ in range(2)])
        statuses = Counter(a.status_code for a in answers)
        assert statuses == Counter({201: 1, 200: 7}), [(a.status_code, a.text) for a in answers]
        made = {a.json()["id"] for a in answers}
        assert len(made) == 1
        (rematch_id,) = made
        assert pg.one("SELECT rematch_id FROM matches WHERE id = %s", table.id) == (rematch_id,)
        assert pg.one("SELECT count(*) FROM matches WHERE config->>'rematch_of' = %s",
                      table.id) == (1,)
