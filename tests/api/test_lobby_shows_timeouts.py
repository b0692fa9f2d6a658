"""The lobby shows what a stranger must know before joining: the time per turn and what
happens when it runs out; a join that starts the match gives every player to act a full turn
from the moment of the join."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from typing import Any

from tests.support.api import create, join, register


def test_the_lobby_shows_turn_timeout_and_on_timeout(client: Any) -> None:
    ana = register(client, "ana")
    m = create(client, ana, turn_timeout=10, on_timeout="forfeit")
    (item,) = client.get("/v1/matches").json["items"]
    assert item["id"] == m["id"]
    assert (item["turn_timeout"], item["on_timeout"]) == (10, "forfeit")


def test_a_join_that_starts_the_match_gives_a_full_turn(client: Any) -> None:
    ana, bia = register(client, "ana"), register(client, "bia")
    m = create(client, ana, turn_timeout=10, on_timeout="forfeit",
               options={"first_dealer": 0})  # the joiner (seat 1) leads
    time.sleep(1.5)  # the match waited a while for its second player
    joined_at = datetime.now(timezone.utc)
    view = join(client, m["id"], bia).json
    assert view["hand"]["to_act"] == [1]
    deadline = datetime.fromisoformat(view["deadline"].replace("Z", "+00:00"))
    assert deadline >= joined_at + timedelta(seconds=10)
