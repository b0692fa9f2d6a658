"""Review requests racing on two server processes: one player's asks at once never pass the
cap of reviews waiting, and a match asked for by everyone at once is queued once."""
from __future__ import annotations

from collections import Counter

import requests

from tests.support.database import Pg
from tests.support.player import TIMEOUT, Player
from tests.support.remote import Table, race
from tests.support.servers import Server


def _finished_against_a_bot(base: str, player: Player) -> str:
    r = requests.post(f"{base}/v1/matches", headers=player.headers, timeout=TIMEOUT,
                      json={"bots": [{"seat": 1, "level": "random"}], "visibility": "private"})
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    r = requests.post(f"{base}/v1/matches/{match_id}/resign", headers=player.headers,
                      timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    return match_id


def test_one_players_asks_at_once_stop_at_three_waiting(server_a: Server, server_b: Server,
                                                        pg: Pg) -> None:
    # (without the lock on the asker, 5 or 6 of 10 such asks were queued)
    ana = Player.register_at(server_a.url, "ana")
    matches = [_finished_against_a_bot(server_a.url, ana) for _ in range(10)]
    answers = race([lambda b=base, m=m: requests.post(f"{b}/v1/matches/{m}/review",
                                                      headers=ana.headers, timeout=TIMEOUT)
                    for m, base in zip(matches, [server_a.url, server_b.url] * 5)])
    statuses = Counter(a.status_code for a in answers)
    assert statuses == Counter({202: 3, 429: 7}), [(a.status_code, a.text) for a in answers]
    assert pg.one("SELECT count(*) FROM match_reviews WHERE requested_by = %s", ana.id) == (3,)


def test_a_match_asked_for_by_both_players_at_once_is_queued_once(
        server_a: Server, server_b: Server, pg: Pg) -> None:
    table = Table(server_a.url)
    ana, bia = table.players
    r = requests.post(f"{server_a.url}/v1/matches/{table.id}/resign", headers=bia.headers,
                      timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    answers = race([lambda b=base, p=player: requests.post(
        f"{b}/v1/matches/{table.id}/review", headers=p.headers, timeout=TIMEOUT)
        for base in (server_a.url, server_b.url) for player in (ana, bia) for _ in range(2)])
    statuses = Counter(a.status_code for a in answers)
    assert statuses == Counter({202: 1, 200: 7}), [(a.status_code, a.text) for a in answers]
    assert {a.json()["requested_at"] for a in answers} == {answers[0].json()["requested_at"]}
    assert pg.one("SELECT count(*) FROM match_reviews WHERE match_id = %s", table.id) == (1,)
