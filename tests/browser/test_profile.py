"""A player's page at the reference client (#/player/<id>), reached from the leaderboard: who
they are and where they stand as the API says; a person challenged to a duel (their seat kept,
the invitation in their matches), a built-in level played at once, my own page and a
newcomer's without a duel to offer."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import requests

from tests.browser.test_invitations import _auth, _player
from tests.browser.test_screens import _axe
from tests.browser.test_standing import _all_pages, _board, _shown
from tests.support.browser import PHONE, Browser
from tests.support.servers import Server


def _profile(browser: Browser) -> dict[str, Any] | None:
    """The player's page once drawn: whose it is, its heading, and its ratings and record as
    shown."""
    return browser.driver.execute_script(
        "const p = document.querySelector('[data-testid=profile]');"
        "if (!p) return null;"
        "const line = (f) => p.querySelector(`[data-format=${f}]`).innerText;"
        "return {id: p.dataset.playerId, title: p.querySelector('h2').innerText,"
        " head: p.querySelector('.who-head').innerText,"
        " duel: line('duel'), teams: line('teams'), record: line('record'),"
        " text: p.innerText}")


def _api_history(server: Server, player_id: str) -> dict[str, Any]:
    answer = requests.get(f"{server.url}/v1/players/{player_id}/rating-history", timeout=10)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _choose(browser: Browser, name: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(browser.css(f"[data-testid=challenge] select[name={name}]")).select_by_value(value)


def _api_profile(server: Server, player_id: str) -> dict[str, Any]:
    answer = requests.get(f"{server.url}/v1/players/{player_id}", timeout=10)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_person_is_challenged_from_their_page(browsers: Callable[..., Browser],
                                                server: Server) -> None:
    bia = _player(server, "bia", handle="bia_duel")
    # bia has a record: a rated duel she resigned against the easy level
    made = requests.post(f"{server.url}/v1/matches", headers=bia["auth"], timeout=10, json={
        "players": 2, "seat": 0, "bots": [{"seat": 1, "level": "easy"}]})
    assert made.status_code == 201, made.text
    resigned = requests.post(f"{server.url}/v1/matches/{made.json()['id']}/resign",
                             headers=bia["auth"], timeout=10)
    assert resigned.status_code == 200, resigned.text

    def rated() -> dict[str, Any] | None:
        now = _api_profile(server, bia["id"])
        return now if now["ratings"]["duel"]["rated_matches"] == 1 else None

    ana = browsers()
    ana.register("ana")
    profile = ana.wait(rated, why="bia's duel rated")
    # from the leaderboard (people only), bia's name leads to her page
    ana.open("/play/#/leaderboard")
    ana.wait(lambda: _board(ana), why="the leaderboard")
    ana.click("[data-testid=board-bots]")
    ana.wait(lambda: (b := _board(ana)) and b["bots"] == "false", why="people only")
    _all_pages(ana)
    ana.click(f"tr[data-player-id='{bia['id']}'] a.name")
    shown = ana.wait(lambda: _profile(ana), why="bia's page")
    assert shown["id"] == bia["id"] and shown["title"] == "bia"
    assert "@bia_duel" in shown["head"] and "Playing since" in shown["text"]
    duel = profile["ratings"]["duel"]
    assert _shown(duel["rating"]) in shown["duel"] and "1 rated match" in shown["duel"]
    assert ("provisional" in shown["duel"]) == duel["provisional"]
    assert "1500" in shown["teams"] and "no rated match yet" in shown["teams"]
    assert "1 played · 0 won · 1 lost" in shown["record"]
    assert "by time" not in shown["record"]
    # her latest rated matches: the line of her duel rating and the match, linked
    history = ana.wait(lambda: ana.css("[data-testid=rating-history]").text,
                       why="bia's rating history")
    rated = _api_history(server, bia["id"])
    (item,) = rated["items"]
    before, after = _shown(item["before"]["rating"]), _shown(item["after"]["rating"])
    assert f"Lost · {before} → {after} (−{int(before) - int(after)})" in history
    label = ana.css("[data-testid=rating-history] [data-format=duel] svg").get_attribute(
        "aria-label")
    assert label == f"Duel rating over the last rated match: from {before} to {after}"
    assert not ana.all("[data-testid=rating-history] [data-format=teams]")
    assert _axe(ana) == []

    # the duel: Mineiro, a day per turn; bia finds the invitation, her seat kept
    _choose(ana, "ruleset", "mineiro")
    _choose(ana, "turn_timeout", "86400")
    ana.click("[data-testid=challenge-button]")
    match_id = ana.wait(lambda: ana.table()["match-id"], why="the duel's table")
    view = requests.get(f"{server.url}/v1/matches/{match_id}", headers=_auth(ana),
                        timeout=10).json()
    assert view["status"] == "waiting" and view["ruleset"] == "mineiro"
    assert view["players"] == 2 and view["turn_timeout"] == 86400
    assert view["visibility"] == "private" and view["you"]["seat"] == 0
    inbox = requests.get(f"{server.url}/v1/me/matches", headers=bia["auth"], timeout=10).json()
    (item,) = [i for i in inbox["items"] if i["id"] == match_id]
    assert item["invitation"] is True
    assert view["seats"][1]["invited"] and view["seats"][1]["player"]["id"] == bia["id"]


def test_a_level_is_played_from_its_page_and_my_own_page_offers_nothing(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.register("ana")
    me = ana.driver.execute_script("return JSON.parse(localStorage.getItem('truco.player'))")
    # a built-in level's page: its ratings, and a match against it at once
    ana.open("/play/#/player/p_level_medium")
    shown = ana.wait(lambda: _profile(ana), why="the medium level's page")
    level = _api_profile(server, "p_level_medium")
    assert shown["title"] == "Bot (medium)" and "computer level" in shown["text"]
    assert _shown(level["ratings"]["duel"]["rating"]) in shown["duel"]
    ana.click("[data-testid=challenge-button]")
    ana.wait(lambda: ana.table()["status"] == "active", why="the match against medium")
    view = requests.get(f"{server.url}/v1/matches/{ana.table()['match-id']}",
                        headers=_auth(ana), timeout=10).json()
    assert view["seats"][1]["bot_level"] == "medium" and view["ruleset"] == "paulista"
    assert view["turn_timeout"] is None

    # my own page: no duel with myself
    ana.open()
    ana.click("[data-testid=to-my-page]")
    mine = ana.wait(lambda: (p := _profile(ana)) and p["id"] == me["id"] and p, why="my page")
    assert mine["title"] == "ana" and "This is you." in mine["text"]
    assert not ana.all("[data-testid=challenge]")
    assert not ana.css("[data-testid=rating-history]").is_displayed()  # (no rated match yet)
    ana.driver.set_window_size(*PHONE)
    ana.wait(lambda: ana.driver.execute_script("return window.innerWidth") <= PHONE[0],
             why="the phone's width")
    assert ana.driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]

    # a newcomer sees the page and is asked to sit down first
    newcomer = browsers()
    newcomer.open(f"/play/#/player/{me['id']}")
    theirs = newcomer.wait(lambda: _profile(newcomer), why="ana's page, without a key")
    assert "sit down first" in theirs["text"] and not newcomer.all("[data-testid=challenge]")
    # an unknown player: said in words, on no page
    newcomer.open("/play/#/player/p_nobody")
    newcomer.wait(lambda: newcomer.css("#error").text, why="the unknown player said")
    assert not _profile(newcomer) and newcomer.css("#error").text  # (home, the error kept)
    newcomer.refused_on_purpose(404)


def test_the_table_says_what_the_match_did_to_the_ratings(browsers: Callable[..., Browser],
                                                         server: Server) -> None:
    """Under a finished match's result, each rated player's rating before and after it, as
    GET /v1/matches/{id}/ratings says, mine first."""
    ana = browsers()
    ana.register("ana")
    ana.choose("players", "2")
    ana.choose("level", "easy")
    ana.click("[data-testid=start]")
    ana.wait(lambda: ana.table()["status"] == "active", why="the match against easy")
    match_id = ana.table()["match-id"]
    resigned = requests.post(f"{server.url}/v1/matches/{match_id}/resign", headers=_auth(ana),
                             timeout=10)
    assert resigned.status_code == 200, resigned.text
    ana.wait(lambda: ana.table()["status"] == "finished", why="the match over at the table")
    line = ana.wait(lambda: ana.css("[data-testid=rating-changes]").text,
                    why="the ratings line (once the worker counted the match)")
    rated = requests.get(f"{server.url}/v1/matches/{match_id}/ratings", timeout=10).json()
    assert rated["state"] == "rated"
    mine, level = sorted(rated["changes"], key=lambda c: c["player"]["id"] != _me_id(ana))
    assert level["player"]["id"] == "p_level_easy"
    before, after = _shown(mine["before"]["rating"]), _shown(mine["after"]["rating"])
    moved = int(after) - int(before)
    assert line.startswith("Duel ratings: you ")
    assert f"you {before} → {after} (−{-moved})" in line and moved < 0
    assert f"Bot (easy) {_shown(level['before']['rating'])} → " in line
    assert line.index("you ") < line.index("Bot (easy)")


def test_a_duel_lost_is_said_to_one_player_in_portuguese(browsers: Callable[..., Browser],
                                                        server: Server) -> None:
    """In Portuguese a duel's result speaks to one player (not "Vocês perderam"), and ratings
    are "Pontuação", under the result and on the leaderboard."""
    ana = browsers()
    ana.open()
    ana.driver.execute_script("localStorage.setItem('truco.lang', 'pt')")
    ana.register("ana")
    ana.choose("players", "2")
    ana.choose("level", "easy")
    ana.click("[data-testid=start]")
    ana.wait(lambda: ana.table()["status"] == "active", why="the match against easy")
    resigned = requests.post(f"{server.url}/v1/matches/{ana.table()['match-id']}/resign",
                             headers=_auth(ana), timeout=10)
    assert resigned.status_code == 200, resigned.text
    ana.wait(lambda: ana.table()["status"] == "finished", why="the match over at the table")
    assert ana.css("[data-testid=result] h2").text == "Partida perdida."
    line = ana.wait(lambda: ana.css("[data-testid=rating-changes]").text,
                    why="the ratings line (once the worker counted the match)")
    assert line.startswith("Pontuação em duelo: você ")
    ana.open("/play/#/leaderboard")
    ana.wait(lambda: _board(ana), why="the leaderboard")
    assert ana.css(".board-table caption").text.startswith("Pontuação em duelo: ")
    assert "Pontuação" in ana.css(".board-table thead").text
    assert "Rating" not in ana.text()


def test_a_levels_record_counts_its_matches_on_both_teams(browsers: Callable[..., Browser],
                                                         server: Server) -> None:
    """A built-in level seated on both teams of a match neither won nor lost it: its page
    says so, so that its record adds up ("3 played · 1 won · 0 lost" was a puzzle)."""
    def both() -> int:
        level = _api_profile(server, "p_level_medium")
        return int(level["matches_played"] - level["won"] - level["lost"])

    before = both()
    cid = _player(server, "cid")
    made = requests.post(f"{server.url}/v1/matches", headers=cid["auth"], timeout=10, json={
        "players": 4, "seat": 0, "bots": [{"seat": s, "level": "medium"} for s in (1, 2, 3)]})
    assert made.status_code == 201, made.text
    resigned = requests.post(f"{server.url}/v1/matches/{made.json()['id']}/resign",
                             headers=cid["auth"], timeout=10)
    assert resigned.status_code == 200, resigned.text
    ana = browsers()
    ana.wait(lambda: both() == before + 1, why="the match counted for the level")

    ana.open("/play/#/player/p_level_medium")

    def shown() -> dict[str, Any] | None:
        ana.driver.refresh()  # (read again: another match of the level may be counted too)
        page = ana.wait(lambda: _profile(ana), why="the level's page")
        level = _api_profile(server, "p_level_medium")
        said = (f"{level['matches_played']} played · {level['won']} won · {level['lost']} lost"
                f" · {both()} on both teams (neither won nor lost)")
        return page if said in page["record"] else None

    ana.wait(shown, timeout=60, why="the record as the API counts it")


def _me_id(browser: Browser) -> str:
    return str(browser.driver.execute_script(
        "return JSON.parse(localStorage.getItem('truco.player')).id"))


def test_a_person_is_blocked_and_unblocked_from_their_page(browsers: Callable[..., Browser],
                                                          server: Server) -> None:
    """Blocked from their page, a person's pending invitation is declined and the next one
    refused (403 blocked); unblocked, they may invite again."""
    ana = browsers()
    ana.register("ana")
    me = ana.driver.execute_script("return JSON.parse(localStorage.getItem('truco.player'))")
    dan = _player(server, "dan")

    def invite() -> requests.Response:
        return requests.post(f"{server.url}/v1/matches", headers=dan["auth"], timeout=10,
                             json={"players": 2, "invite": [{"seat": 1, "player_id": me["id"]}]})

    pending = invite()
    assert pending.status_code == 201, pending.text
    ana.open(f"/play/#/player/{dan['id']}")
    toggle = "[data-testid=block]"
    ana.wait(lambda: ana.css(toggle).is_enabled(), why="the block toggle, read")
    assert ana.css(toggle).get_attribute("aria-pressed") == "false"
    ana.click(toggle)
    ana.wait(lambda: ana.css(toggle).get_attribute("aria-pressed") == "true", why="blocked")
    assert "1 invitation from dan declined" in ana.css("[data-testid=block-said]").text
    blocks = requests.get(f"{server.url}/v1/me/blocks", headers=_auth(ana), timeout=10).json()
    assert [b["player_id"] for b in blocks["items"]] == [dan["id"]]
    refused = invite()
    assert refused.status_code == 403 and refused.json()["code"] == "blocked"
    # the page read again says so; unblocked, dan invites again
    ana.driver.refresh()
    ana.wait(lambda: ana.css(toggle).is_enabled()
             and ana.css(toggle).get_attribute("aria-pressed") == "true", why="still blocked")
    ana.click(toggle)
    ana.wait(lambda: ana.css(toggle).get_attribute("aria-pressed") == "false", why="unblocked")
    assert invite().status_code == 201
