"""The inbox lists invitations "the most recent first" (docs/correspondence.md, docs/api.md):
the most recently *sent* invitation first, whatever happened since in the matches they
belong to. They were ordered by the match's last change, so a seat taken by someone else in
an older invitation's match moved that invitation ahead of a newer one."""
from __future__ import annotations

from typing import Any

from tests.support.api import create, db_execute, join, my_matches, register


def test_invitations_are_listed_by_when_they_were_sent_not_by_the_matchs_last_change(
        client: Any, app: Any) -> None:
    ana, bob, eve, zed = (register(client, n) for n in ("ana", "bob", "eve", "zed"))
    older = create(client, bob, players=4, invite=[{"seat": 1, "player_id": ana.id}])["id"]
    newer = create(client, eve, invite=[{"seat": 1, "player_id": ana.id}])["id"]
    # the older invitation was sent a minute before the newer one
    db_execute(app, "UPDATE seats SET joined_at = joined_at - interval '1 minute' "
                    "WHERE match_id = :m AND invited", m=older)
    assert [i["id"] for i in my_matches(client, ana)] == [newer, older]

    assert join(client, older, zed).status_code == 200  # the older match changes
    items = my_matches(client, ana)
    assert all(i["invitation"] for i in items)
    assert [i["id"] for i in items] == [newer, older]
    page = client.get("/v1/me/matches?limit=1", headers=ana.headers).json
    assert [i["id"] for i in page["items"]] == [newer]
