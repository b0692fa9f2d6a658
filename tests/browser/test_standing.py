"""Where a person stands, at the reference client: their ratings and record on the home screen
once a match is rated, and the leaderboard screen (`#/leaderboard`) as the API gives it, with
the Duel/Teams switch, the computer levels shown or not, their own row marked, the
accessibility check and a phone's width."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import requests

from tests.browser.test_screens import _axe
from tests.support.browser import PHONE, Browser, play_turn
from tests.support.servers import Server


def _auth(browser: Browser) -> dict[str, str]:
    token = browser.driver.execute_script("return localStorage.getItem('truco.token')")
    return {"Authorization": f"Bearer {token}"}


def _me(server: Server, auth: dict[str, str]) -> dict[str, Any]:
    return requests.get(f"{server.url}/v1/players/me", headers=auth, timeout=10).json()


def _shown(rating: float) -> str:
    """A rating as the client shows it: JavaScript's Math.round (halves up)."""
    return str(math.floor(rating + 0.5))


def _standing(browser: Browser, fmt: str) -> dict[str, str]:
    """The home screen's line of `fmt` (duel, teams or record): its number and its text
    (None until it is read)."""
    return browser.driver.execute_script(
        "const d = document.querySelector(`[data-testid=standing] [data-format=${arguments[0]}]`);"
        "if (!d || !d.checkVisibility()) return null;"
        "const v = d.querySelector('.rating .value');"
        "return {value: v ? v.textContent : null, text: d.innerText}", fmt)


def _board(browser: Browser) -> dict[str, Any] | None:
    """The leaderboard screen once drawn (no list on its way): its format, whether bots are
    shown, and its rows as (rank, player id)."""
    return browser.driver.execute_script(
        "const b = document.querySelector('[data-testid=leaderboard]');"
        "if (!b || b.hasAttribute('aria-busy')) return null;"
        "return {format: b.dataset.format, bots: b.dataset.bots,"
        " rows: [...b.querySelectorAll('tbody tr')].map(r => [Number(r.dataset.rank),"
        " r.dataset.playerId])}")


def _api_board(server: Server, fmt: str, bots: bool, pages: int = 1) -> list[list[Any]]:
    """The API's leaderboard, `pages` pages of 50, as (rank, player id)."""
    rows: list[list[Any]] = []
    offset: int | None = 0
    for _ in range(pages):
        if offset is None:
            break
        page = requests.get(f"{server.url}/v1/leaderboard", timeout=10, params={
            "format": fmt, "bots": str(bots).lower(), "offset": offset, "limit": 50}).json()
        rows += [[i["rank"], i["player"]["id"]] for i in page["items"]]
        offset = page["next_offset"]
    return rows


def _all_pages(browser: Browser) -> None:
    """Every page of the leaderboard shown (More clicked until there is no more)."""
    while browser.css("[data-testid=board-more]").is_displayed():
        rows = len(_board(browser)["rows"])
        browser.click("[data-testid=board-more]")
        browser.wait(lambda: (b := _board(browser)) and len(b["rows"]) > rows,
                     why="the next page")


def _resigned_teams_match(server: Server) -> str:
    """A 4-player match of a new player and three bots, resigned: rated for the teams board
    (the player and the medium level against the easy one). The player's id."""
    cris = requests.post(f"{server.url}/v1/players", json={"name": "cris"}, timeout=10).json()
    auth = {"Authorization": f"Bearer {cris['token']}"}
    created = requests.post(f"{server.url}/v1/matches", headers=auth, timeout=10, json={
        "players": 4, "seat": 0, "bots": [{"seat": 1, "level": "easy"},
                                          {"seat": 2, "level": "medium"},
                                          {"seat": 3, "level": "easy"}]})
    assert created.status_code == 201, created.text
    resigned = requests.post(f"{server.url}/v1/matches/{created.json()['id']}/resign",
                             headers=auth, timeout=10)
    assert resigned.status_code == 200, resigned.text
    return str(cris["id"])


def test_a_rated_match_shows_on_the_home_screen_and_the_leaderboard(
        browsers: Callable[..., Browser], server: Server) -> None:
    cris = _resigned_teams_match(server)
    ana = browsers()
    ana.register("ana")
    auth = _auth(ana)
    me = _me(server, auth)
    before = ana.wait(lambda: _standing(ana, "duel"), why="the ratings on the home screen")
    assert before["value"] == "1500" and "provisional" in before["text"]
    assert "no rated match yet" in before["text"]
    assert "0 played · 0 won · 0 lost" in _standing(ana, "record")["text"]

    ana.choose("players", "2")
    ana.choose("level", "random")
    ana.click("[data-testid=start]")
    ana.wait(lambda: ana.table()["status"] == "active", why="the match against a bot")
    turns = 0
    while play_turn(ana):
        turns += 1
        assert turns < 200
    # back home at once: the match is counted (rated) by the worker a moment after it ends,
    # and the home screen shows it without a reload
    ana.click(".table-screen nav.top a")  # "← All matches"

    def rated() -> dict[str, Any] | None:
        now = _me(server, auth)
        return now if now["ratings"]["duel"]["rated_matches"] == 1 else None

    settled = ana.wait(rated, why="the match rated")
    duel = settled["ratings"]["duel"]
    assert settled["matches_played"] == 1
    shown = ana.wait(lambda: (_standing(ana, "duel") or {}).get("value") == _shown(duel["rating"])
                     and _standing(ana, "duel"), why="the duel rating after the match")
    assert "1 rated match" in shown["text"]
    assert ("provisional" in shown["text"]) == duel["provisional"]
    assert (f"1 played · {settled['won']} won · {settled['lost']} lost"
            in _standing(ana, "record")["text"])
    assert _standing(ana, "teams")["value"] == "1500"  # (a duel moves the duel rating only)

    # the leaderboard lists ana with the API's rank and rating, her row marked
    ana.click("[data-testid=to-leaderboard]")
    board = ana.wait(lambda: _board(ana), why="the leaderboard")
    assert board["format"] == "duel" and board["bots"] == "true"
    pages = 1
    while not ana.all("tr.me"):  # (further down the board: the More button)
        ana.click("[data-testid=board-more]")
        pages += 1
        board = ana.wait(lambda n=len(board["rows"]): (b := _board(ana)) and len(b["rows"]) > n
                         and b, why="the next page")
    api = _api_board(server, "duel", True, pages=pages)
    assert board["rows"] == api
    mine = next(r for r in api if r[1] == me["id"])
    row = ana.css("tr.me")
    assert len(ana.all("tr.me")) == 1 and row.get_attribute("data-player-id") == me["id"]
    assert row.get_attribute("aria-current") == "true"
    assert row.find_element("css selector", "td.rank").text == str(mine[0])
    assert row.find_element("css selector", ".rating .value").text == _shown(duel["rating"])
    assert "(you)" in row.text
    other = next(r for r in ana.all("tbody tr") if r.get_attribute("class") != "me")
    colour = "return getComputedStyle(arguments[0].querySelector('td')).backgroundColor"
    assert (ana.driver.execute_script(colour, row)
            != ana.driver.execute_script(colour, other))  # marked, not only named
    levels = {b["player_id"] for b in requests.get(f"{server.url}/v1/rulesets",
                                                   timeout=10).json()["bots"]}
    assert "p_level_random" in {r[1] for r in board["rows"]}  # the bot ana played is rated
    bot = ana.css("[data-testid=leaderboard] tr[data-player-id=p_level_random] td.player")
    assert bot.text == "Bot (random)"  # a level in the client's words

    # Teams: another list, the API's, without ana (no rated team match)
    ana.click("button[value=teams]")
    teams = ana.wait(lambda: (b := _board(ana)) and b["format"] == "teams" and b,
                     why="the teams list")
    assert teams["rows"] == _api_board(server, "teams", True)
    assert cris in {r[1] for r in teams["rows"]} and teams["rows"] != board["rows"]
    assert not ana.all("tr.me")
    assert ana.css("button[value=teams]").get_attribute("aria-pressed") == "true"
    assert ana.css("button[value=duel]").get_attribute("aria-pressed") == "false"

    # the computer levels hidden: people only
    toggle = ana.css("[data-testid=board-bots]")
    assert toggle.get_attribute("aria-pressed") == "true"
    assert levels & {r[1] for r in teams["rows"]}  # (shown first)
    toggle.click()
    people = ana.wait(lambda: (b := _board(ana)) and b["bots"] == "false" and b,
                      why="the list without bots")
    assert people["rows"] == _api_board(server, "teams", False)
    assert not levels & {r[1] for r in people["rows"]} and cris in {r[1] for r in people["rows"]}
    assert ana.css("[data-testid=board-bots]").get_attribute("aria-pressed") == "false"
    ana.click("button[value=duel]")
    duels = ana.wait(lambda: (b := _board(ana)) and b["format"] == "duel" and b,
                     why="the duel list without bots")
    assert duels["rows"] == _api_board(server, "duel", False)
    assert "p_level_random" not in {r[1] for r in duels["rows"]}


def test_the_leaderboard_is_accessible_and_fits_a_phone(browsers: Callable[..., Browser],
                                                        server: Server) -> None:
    _resigned_teams_match(server)
    ana = browsers()
    ana.driver.set_window_size(*PHONE)  # (a window opened that narrow is made wider)
    name = "Ana" + "x" * 29  # (32 characters with no space: the longest name)
    ana.register(name)
    auth = _auth(ana)
    handled = requests.patch(f"{server.url}/v1/players/me", headers=auth, timeout=10,
                             json={"handle": "h" * 20})
    assert handled.status_code == 200, handled.text
    # a rated duel (ana resigns against a bot), then the home screen drawn again
    created = requests.post(f"{server.url}/v1/matches", headers=auth, timeout=10, json={
        "players": 2, "seat": 0, "bots": [{"seat": 1, "level": "easy"}]})
    assert created.status_code == 201, created.text
    resigned = requests.post(f"{server.url}/v1/matches/{created.json()['id']}/resign",
                             headers=auth, timeout=10)
    assert resigned.status_code == 200, resigned.text
    ana.wait(lambda: _me(server, auth)["ratings"]["duel"]["rated_matches"] == 1,
             why="the match rated")
    ana.open()
    ana.wait(lambda: "1 rated match" in ((_standing(ana, "duel") or {}).get("text") or ""),
             why="the rating on the home screen")
    width = ana.driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0]  # the home screen, ratings shown, fits the phone
    assert _axe(ana) == []
    ana.click("[data-testid=to-leaderboard]")
    ana.wait(lambda: _board(ana), why="the leaderboard")
    _all_pages(ana)
    assert ana.css("tr.me").is_displayed()
    width = ana.driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0]  # nothing wider than the phone: names and handles wrap
    assert _axe(ana) == []
    ana.click("button[value=teams]")
    ana.wait(lambda: (b := _board(ana)) and b["format"] == "teams", why="the teams list")
    _all_pages(ana)
    assert ana.css(".board-screen .note-line").is_displayed()  # "You are not on this list yet"
    assert _axe(ana) == []


def test_the_record_says_how_many_were_lost_by_time(browsers: Callable[..., Browser],
                                                   server: Server) -> None:
    """A match forfeited by the deadline rule is in the record as a loss "by time", and My
    matches says how it ended."""
    ana = browsers()
    ana.register("ana")
    auth = _auth(ana)
    made = requests.post(f"{server.url}/v1/matches", headers=auth, timeout=10, json={
        "players": 2, "seat": 0, "bots": [{"seat": 1, "level": "random"}],
        "turn_timeout": 10, "on_timeout": "forfeit"})
    assert made.status_code == 201, made.text

    def counted() -> dict[str, Any] | None:  # (the worker forfeits ana's seat after 10 s)
        now = _me(server, auth)
        return now if now["matches_played"] == 1 else None

    me = ana.wait(counted, timeout=40, why="the match forfeited and counted")
    assert (me["won"], me["lost"], me["forfeited"]) == (0, 1, 1)
    ana.open()
    ana.wait(lambda: "1 played · 0 won · 1 lost (1 by time)"
             in (_standing(ana, "record") or {}).get("text", ""),
             why="the record with the loss by time")
    # and in My matches, how it ended
    item = ana.wait(lambda: ana.css(f"[data-testid=inbox] [data-match-id='{made.json()['id']}']")
                    .text, why="the match in My matches")
    assert "Lost" in item and "ran out of time" in item, item


def _resigned_matches(server: Server, auth: dict[str, str], count: int) -> list[str]:
    """`count` matches of the player of `auth` against a bot, each resigned at once."""
    made = []
    for _ in range(count):
        created = requests.post(f"{server.url}/v1/matches", headers=auth, timeout=10, json={
            "players": 2, "seat": 0, "bots": [{"seat": 1, "level": "random"}]})
        assert created.status_code == 201, created.text
        made.append(created.json()["id"])
        resigned = requests.post(f"{server.url}/v1/matches/{made[-1]}/resign", headers=auth,
                                 timeout=10)
        assert resigned.status_code == 200, resigned.text
    return made


def test_my_matches_show_fifty_and_more_shows_the_rest(browsers: Callable[..., Browser],
                                                       server: Server) -> None:
    """My matches lists 50; More lists the next ones, and the list read again (a stream's
    `inbox` event) keeps them."""
    ana = browsers()
    ana.register("ana")
    auth = _auth(ana)
    made = _resigned_matches(server, auth, 51)  # (finished: waiting ones are bounded)
    shown = ("return [...document.querySelectorAll('[data-testid=inbox] [data-match-id]')]"
             ".map(li => li.dataset.matchId)")
    ana.open()
    ana.wait(lambda: len(ana.driver.execute_script(shown)) == 50, why="a page of my matches")
    more = "[data-testid=inbox-more]"
    assert ana.css(more).is_displayed()
    ana.click(more)
    ana.wait(lambda: set(ana.driver.execute_script(shown)) == set(made), why="all 51")
    assert not ana.css(more).is_displayed()
    # a change in my matches reads the list again: all of it still
    again = requests.post(f"{server.url}/v1/matches", headers=auth, timeout=10, json={
        "players": 2, "seat": 0, "bots": [{"seat": 1, "level": "random"}]})
    assert again.status_code == 201, again.text
    ana.wait(lambda: len(ana.driver.execute_script(shown)) == 52, why="the new one, and all")


def test_my_matches_past_two_hundred_are_read_a_page_at_a_time(
        browsers: Callable[..., Browser], server: Server) -> None:
    """Past the 200 one reading of GET /v1/me/matches gives, More reads on by `next_offset`:
    the 201st match is listed, once."""
    ana = browsers()
    ana.register("ana")
    auth = _auth(ana)
    made = _resigned_matches(server, auth, 201)
    shown = ("return [...document.querySelectorAll('[data-testid=inbox] [data-match-id]')]"
             ".map(li => li.dataset.matchId)")
    ana.open()
    more = "[data-testid=inbox-more]"
    for count in (50, 100, 150, 200):
        ana.wait(lambda c=count: len(ana.driver.execute_script(shown)) == c,
                 why=f"{count} of my matches")
        assert ana.css(more).is_displayed()
        ana.click(more)
    listed = ana.wait(lambda: len(ana.driver.execute_script(shown)) == 201
                      and ana.driver.execute_script(shown), why="all 201")
    assert sorted(listed) == sorted(made) and not ana.css(more).is_displayed()
