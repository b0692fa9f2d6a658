"""ETags: If-None-Match on views (304), If-Match on actions (412 version_mismatch)."""
from __future__ import annotations

from typing import Any

from tests.support.api import (F1, act, act_ok, assert_problem, create, deal, full_match, join,
                               register, snapshot)

SETUP = {"options": {"first_dealer": 3}, "deals": [deal(F1)]}


def _get(client: Any, match_id: str, player: Any = None, **headers: str) -> Any:
    auth = {} if player is None else player.headers
    return client.get(f"/v1/matches/{match_id}", headers={**auth, **headers})


def test_every_view_has_an_etag(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = client.post("/v1/matches", json={}, headers=ana.headers)
    assert m.headers["ETag"]
    j = join(client, m.json["id"], bob)
    assert j.headers["ETag"]
    for viewer in (None, ana, bob):
        r = _get(client, m.json["id"], viewer)
        assert r.status_code == 200 and r.headers["ETag"].startswith('"')
        assert "no-cache" in r.headers["Cache-Control"]


def test_if_none_match_gives_304_without_a_body(client: Any) -> None:
    match_id, seated = full_match(client, players=2)
    for viewer in (None, *seated):
        first = _get(client, match_id, viewer)
        tag = first.headers["ETag"]
        again = _get(client, match_id, viewer, **{"If-None-Match": tag})
        assert again.status_code == 304
        assert again.get_data() == b""
        assert again.headers["ETag"] == tag
        # weak comparison and lists of tags are honoured
        assert _get(client, match_id, viewer,
                    **{"If-None-Match": f'"other", W/{tag}'}).status_code == 304
        assert _get(client, match_id, viewer, **{"If-None-Match": '"other"'}).status_code == 200


def test_the_etag_depends_on_the_viewer(client: Any) -> None:
    match_id, seated = full_match(client, players=4)
    eve = register(client, "eve")
    tags = {name: _get(client, match_id, p).headers["ETag"]
            for name, p in [("anon", None), ("eve", eve), *[(f"s{i}", p)
                                                              for i, p in enumerate(seated)]]}
    seat_tags = [tags[f"s{i}"] for i in range(4)]
    assert len(set(seat_tags)) == 4
    assert tags["anon"] not in seat_tags
    # the two spectator views are the same representation
    assert _get(client, match_id).json == _get(client, match_id, eve).json
    # one viewer's tag never validates another viewer's representation
    r = _get(client, match_id, seated[1], **{"If-None-Match": seat_tags[0]})
    assert r.status_code == 200
    r = _get(client, match_id, None, **{"If-None-Match": seat_tags[0]})
    assert r.status_code == 200
    r = _get(client, match_id, seated[0], **{"If-None-Match": tags["anon"]})
    assert r.status_code == 200 and r.json["hand"]["cards"] is not None


def test_the_etag_changes_after_every_action(client: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    viewers = [None, *seated]
    steps = [(0, {"type": "raise"}), (1, {"type": "accept"}),
             (0, {"type": "play", "card": "5c"}), (1, {"type": "play", "card": "2c"})]
    seen: set[str] = set()
    before = {i: _get(client, match_id, p).headers["ETag"] for i, p in enumerate(viewers)}
    seen.update(before.values())
    for seat, action in steps:
        r = act(client, match_id, seated[seat], action)
        assert r.status_code == 200
        assert r.headers["ETag"] == _get(client, match_id, seated[seat]).headers["ETag"]
        for i, p in enumerate(viewers):
            tag = _get(client, match_id, p).headers["ETag"]
            assert tag != before[i]
            # the old tag no longer gives a 304
            assert _get(client, match_id, p, **{"If-None-Match": before[i]}).status_code == 200
            before[i] = tag
            assert tag not in seen
            seen.add(tag)


def test_joining_changes_the_etag(client: Any) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    m = create(client, ana, players=4)
    tag = _get(client, m["id"]).headers["ETag"]
    join(client, m["id"], bob)
    assert _get(client, m["id"], **{"If-None-Match": tag}).status_code == 200


def test_if_match_with_a_stale_etag_is_412(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    stale = _get(client, match_id, seated[0]).headers["ETag"]
    act_ok(client, match_id, seated[0], {"type": "raise"})
    snap = snapshot(client, app, match_id, [None, *seated])
    current = _get(client, match_id, seated[1])

    r = act(client, match_id, seated[1], {"type": "accept"}, headers={"If-Match": stale})
    body = assert_problem(r, 412, "version_mismatch")
    assert body["current"] == current.json
    assert r.headers["ETag"] == current.headers["ETag"]
    assert snapshot(client, app, match_id, [None, *seated]) == snap


def test_if_match_with_another_viewers_etag_is_412(client: Any, app: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    snap = snapshot(client, app, match_id, [None, *seated])
    for tag in (_get(client, match_id, seated[1]).headers["ETag"],
                _get(client, match_id).headers["ETag"], '"nonsense"'):
        r = act(client, match_id, seated[0], {"type": "play", "card": "5c"},
                headers={"If-Match": tag})
        body = assert_problem(r, 412, "version_mismatch")
        assert body["current"]["you"] == {"seat": 0, "team": 0}
        assert body["current"]["hand"]["cards"] == ["5c", "3h", "6c"]
    assert snapshot(client, app, match_id, [None, *seated]) == snap


def test_a_matching_if_match_applies(client: Any) -> None:
    match_id, seated = full_match(client, players=4, **SETUP)
    tag = _get(client, match_id, seated[0]).headers["ETag"]
    r = act(client, match_id, seated[0], {"type": "play", "card": "5c"},
            headers={"If-Match": tag})
    assert r.status_code == 200
    assert r.json["hand"]["tricks"][0]["plays"][0]["card"] == "5c"
    assert r.headers["ETag"] != tag
    # the ETag of the answer is good for the next action of the same seat
    r = act(client, match_id, seated[1], {"type": "play", "card": "2c"},
            headers={"If-Match": _get(client, match_id, seated[1]).headers["ETag"]})
    assert r.status_code == 200
    # and the weak form of a current tag matches too
    tag = _get(client, match_id, seated[2]).headers["ETag"]
    r = act(client, match_id, seated[2], {"type": "play", "card": "Qd"},
            headers={"If-Match": f"W/{tag}"})
    assert r.status_code == 200


def test_if_match_is_checked_before_the_rules(client: Any, app: Any) -> None:
    """A stale precondition wins over an illegal action: the client must re-read first."""
    match_id, seated = full_match(client, players=4, **SETUP)
    stale = _get(client, match_id, seated[0]).headers["ETag"]
    act_ok(client, match_id, seated[0], {"type": "play", "card": "5c"})
    r = act(client, match_id, seated[0], {"type": "play", "card": "3h"},
            headers={"If-Match": stale})
    assert_problem(r, 412, "version_mismatch")
