"""Review requests racing on two server processes: a match asked for by both its players at
once is queued once (one player's asks at once and the cap of reviews waiting:
tests/api/test_reviews.py, where no worker finishes a review during the race)."""
from __future__ import annotations

from collections import Counter

import requests

from tests.support.database import Pg
from tests.support.player import TIMEOUT
from tests.support.remote import Table, race
from tests.support.servers import Server


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
