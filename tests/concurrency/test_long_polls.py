"""Long polls against a real server: woken at once by another client's action, 304 (or an
empty page) when the wait runs out, and no wait at all without If-None-Match."""
from __future__ import annotations

import time

import requests

from tests.support.player import TIMEOUT, Player
from tests.support.remote import Table, long_poll, settle
from tests.support.servers import Server

WAKE_LIMIT = 1.0
"""Seconds from the action's answer to the long poll's answer."""


def _play_first(table: Table, seat: int) -> requests.Response:
    body = next(a for a in table.view(seat).json()["legal_actions"] if a["type"] == "play")
    r = table.act(seat, body)
    assert r.status_code == 200, r.text
    return r


def test_match_long_poll_is_woken_by_an_action(server_a: Server) -> None:
    table = Table(server_a.url)
    seat = table.to_act()
    other = 1 - seat
    before = table.view(other)
    poll = long_poll(f"{server_a.url}/v1/matches/{table.id}", 30,
                     table.players[other].headers_with(
                         **{"If-None-Match": before.headers["ETag"]}))
    settle(poll)
    acted = _play_first(table, seat)
    acted_at = time.monotonic()
    r = poll.result(TIMEOUT)
    latency = poll.finished_at - acted_at
    print(f"\nmatch long poll woken {latency * 1000:.0f} ms after the action's answer")
    assert r.status_code == 200
    assert r.json()["version"] == acted.json()["version"] > before.json()["version"]
    assert r.headers["ETag"] == table.view(other).headers["ETag"] != before.headers["ETag"]
    assert latency < WAKE_LIMIT


def test_match_long_poll_without_change_answers_304_after_the_wait(server_a: Server) -> None:
    table = Table(server_a.url)
    tag = table.view(0).headers["ETag"]
    start = time.monotonic()
    r = requests.get(f"{server_a.url}/v1/matches/{table.id}", params={"wait": 1},
                     headers=table.players[0].headers_with(**{"If-None-Match": tag}),
                     timeout=TIMEOUT)
    elapsed = time.monotonic() - start
    assert r.status_code == 304
    assert r.headers["ETag"] == tag
    assert 0.9 <= elapsed < 3, elapsed


def test_match_wait_without_if_none_match_answers_at_once(server_a: Server) -> None:
    table = Table(server_a.url)
    start = time.monotonic()
    r = requests.get(f"{server_a.url}/v1/matches/{table.id}", params={"wait": 30},
                     headers=table.players[0].headers, timeout=TIMEOUT)
    assert r.status_code == 200
    assert r.json()["id"] == table.id
    assert time.monotonic() - start < 1
    # and a stale If-None-Match answers at once too (the match already changed)
    start = time.monotonic()
    r = requests.get(f"{server_a.url}/v1/matches/{table.id}", params={"wait": 30},
                     headers=table.players[0].headers_with(**{"If-None-Match": '"stale"'}),
                     timeout=TIMEOUT)
    assert r.status_code == 200
    assert time.monotonic() - start < 1


def test_events_long_poll_returns_the_new_events(server_a: Server) -> None:
    table = Table(server_a.url)
    seat = table.to_act()
    watcher = table.players[1 - seat]
    url = f"{server_a.url}/v1/matches/{table.id}/events"
    page = requests.get(url, headers=watcher.headers, timeout=TIMEOUT).json()
    after = page["next_after"]
    assert after > 0 and page["items"]

    # no change: 304 after the wait, as the match's own long poll answers (API.md)
    start = time.monotonic()
    r = requests.get(url, params={"after": after, "wait": 1}, headers=watcher.headers,
                     timeout=TIMEOUT)
    assert r.status_code == 304 and r.content == b""
    assert "Content-Type" not in r.headers
    assert 0.9 <= time.monotonic() - start < 3
    # without a wait, nothing new is a page with no items, at once
    r = requests.get(url, params={"after": after}, headers=watcher.headers, timeout=TIMEOUT)
    assert r.status_code == 200 and r.json() == {"items": [], "next_after": after}

    poll = long_poll(url, 30, watcher.headers, {"after": after})
    settle(poll)
    acted = _play_first(table, seat)
    acted_at = time.monotonic()
    r = poll.result(TIMEOUT)
    latency = poll.finished_at - acted_at
    print(f"\nevents long poll woken {latency * 1000:.0f} ms after the action's answer")
    assert r.status_code == 200
    items = r.json()["items"]
    assert items and all(e["seq"] > after for e in items)
    assert items[0]["type"] == "card_played"
    assert {e["version"] for e in items} == {acted.json()["version"]}
    assert r.json()["next_after"] == items[-1]["seq"]
    assert latency < WAKE_LIMIT


def test_my_matches_your_turn_long_poll_returns_when_it_becomes_my_turn(
        server_a: Server) -> None:
    table = Table(server_a.url)
    seat = table.to_act()
    waiter = table.players[1 - seat]
    url = f"{server_a.url}/v1/me/matches"

    # not my turn, nothing happens: an empty list after the wait
    start = time.monotonic()
    r = requests.get(url, params={"your_turn": "true", "wait": 1}, headers=waiter.headers,
                     timeout=TIMEOUT)
    assert r.status_code == 200 and r.json()["items"] == []
    assert 0.9 <= time.monotonic() - start < 3

    poll = long_poll(url, 30, waiter.headers, {"your_turn": "true"})
    settle(poll)
    acted = _play_first(table, seat)
    acted_at = time.monotonic()
    r = poll.result(TIMEOUT)
    latency = poll.finished_at - acted_at
    print(f"\n/v1/me/matches long poll woken {latency * 1000:.0f} ms after the action's answer")
    assert r.status_code == 200
    (item,) = r.json()["items"]
    assert item["id"] == table.id and item["your_turn"] is True
    assert item["version"] == acted.json()["version"]
    assert latency < WAKE_LIMIT

    # my turn already: answers at once
    start = time.monotonic()
    r = requests.get(url, params={"your_turn": "true", "wait": 30}, headers=waiter.headers,
                     timeout=TIMEOUT)
    assert [i["id"] for i in r.json()["items"]] == [table.id]
    assert time.monotonic() - start < 1


def test_my_matches_long_poll_wakes_for_a_match_joined_after_it_began(
        server_a: Server, server_b: Server) -> None:
    """The inbox waits on the player, not on the matches it had when the poll began: a match
    made and started after that (here on the other process) wakes it."""
    host = Player.register_at(server_a.url, "host")
    guest = Player.register_at(server_a.url, "guest")
    url = f"{server_a.url}/v1/me/matches"
    poll = long_poll(url, 30, guest.headers, {"your_turn": "true"})
    settle(poll)
    created = requests.post(f"{server_b.url}/v1/matches", headers=host.headers, json={
        "players": 2, "seat": 1, "options": {"first_dealer": 1}}, timeout=TIMEOUT)
    assert created.status_code == 201
    match_id = created.json()["id"]
    # guest takes seat 0, which leads the first trick (the dealer is seat 1)
    joined = requests.post(f"{server_b.url}/v1/matches/{match_id}/join",
                           headers=guest.headers, json={"seat": 0}, timeout=TIMEOUT)
    assert joined.status_code == 200 and joined.json()["hand"]["to_act"] == [0]
    joined_at = time.monotonic()
    r = poll.result(TIMEOUT)
    assert r.status_code == 200
    assert [i["id"] for i in r.json()["items"]] == [match_id]
    assert poll.finished_at - joined_at < WAKE_LIMIT


def test_my_matches_long_poll_wakes_when_a_match_ends(server_a: Server) -> None:
    """A bot waiting for its turn is told at once when its match ends instead (here its
    opponent resigns), not held for the whole wait."""
    table = Table(server_a.url)
    seat = table.to_act()
    waiter = table.players[1 - seat]
    poll = long_poll(f"{server_a.url}/v1/me/matches", 30, waiter.headers,
                     {"your_turn": "true"})
    settle(poll)
    resigned = requests.post(f"{server_a.url}/v1/matches/{table.id}/resign",
                             headers=table.players[seat].headers, timeout=TIMEOUT)
    assert resigned.status_code == 200
    ended_at = time.monotonic()
    r = poll.result(TIMEOUT)
    assert r.status_code == 200 and r.json()["items"] == [] and r.json()["awaiting"] == 0
    assert poll.finished_at - ended_at < WAKE_LIMIT


def test_my_matches_long_poll_wakes_for_an_invitation(server_a: Server) -> None:
    host, bot = Player.register_at(server_a.url, "host"), Player.register_at(server_a.url, "robot")
    poll = long_poll(f"{server_a.url}/v1/me/matches", 30, bot.headers, {"your_turn": "true"})
    settle(poll)
    created = requests.post(f"{server_a.url}/v1/matches", headers=host.headers, json={
        "players": 2, "invite": [{"seat": 1, "player_id": bot.id}]}, timeout=TIMEOUT)
    assert created.status_code == 201
    invited_at = time.monotonic()
    (item,) = poll.result(TIMEOUT).json()["items"]
    assert item["id"] == created.json()["id"] and item["invitation"] is True
    assert poll.finished_at - invited_at < WAKE_LIMIT


def test_my_matches_long_poll_without_a_filter_or_a_tag_waits_for_news(
        server_a: Server) -> None:
    """With neither `your_turn=true` nor If-None-Match there is no list to compare, so only
    something that matters to the player answers (docs/correspondence.md), not the first look."""
    table = Table(server_a.url)
    seat = table.to_act()
    waiter = table.players[1 - seat]
    poll = long_poll(f"{server_a.url}/v1/me/matches", 30, waiter.headers)
    settle(poll)
    resigned = requests.post(f"{server_a.url}/v1/matches/{table.id}/resign",
                             headers=table.players[seat].headers, timeout=TIMEOUT)
    assert resigned.status_code == 200
    ended_at = time.monotonic()
    r = poll.result(TIMEOUT)
    assert r.status_code == 200
    assert [(i["id"], i["status"]) for i in r.json()["items"]] == [(table.id, "finished")]
    assert poll.finished_at - ended_at < WAKE_LIMIT


def test_my_matches_long_poll_wakes_when_an_invitation_goes_with_a_cancelled_match(
        server_a: Server, server_b: Server) -> None:
    """An invited bot waiting on its inbox is told at once (here across processes) when the
    match is cancelled under its invitation (the host, its only player, left): the
    invitation is gone from the page and from the count; the match says cancelled."""
    host, bot = Player.register_at(server_a.url, "host"), Player.register_at(server_a.url, "robot")
    created = requests.post(f"{server_a.url}/v1/matches", headers=host.headers, json={
        "players": 2, "invite": [{"seat": 1, "player_id": bot.id}]}, timeout=TIMEOUT)
    assert created.status_code == 201
    match_id = created.json()["id"]
    url = f"{server_a.url}/v1/me/matches"
    listed = requests.get(url, headers=bot.headers, timeout=TIMEOUT)
    assert listed.json()["invitations"] == 1
    poll = long_poll(url, 30, {**bot.headers, "If-None-Match": listed.headers["ETag"]})
    settle(poll)
    left = requests.post(f"{server_b.url}/v1/matches/{match_id}/leave", headers=host.headers,
                         timeout=TIMEOUT)
    assert left.status_code == 200 and left.json()["status"] == "cancelled"
    left_at = time.monotonic()
    r = poll.result(TIMEOUT)
    assert r.status_code == 200
    assert (r.json()["items"], r.json()["invitations"]) == ([], 0)
    assert poll.finished_at - left_at < WAKE_LIMIT
    seen = requests.get(f"{server_a.url}/v1/matches/{match_id}", headers=bot.headers,
                        timeout=TIMEOUT)
    assert seen.json()["status"] == "cancelled"
