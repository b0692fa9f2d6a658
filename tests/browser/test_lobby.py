"""Open matches at the reference client: a match created for friends with "Anyone may join" is
public and listed in the lobby; another person finds it on their home screen, takes its seat
and the match starts; a match one already sits in, or a private one, is not listed there."""
from __future__ import annotations

from collections.abc import Callable

import requests

from tests.browser.test_invitations import _auth, _created, _match, _player
from tests.browser.test_review import _above_the_scoreboard
from tests.browser.test_screens import _axe
from tests.support.browser import PHONE, Browser
from tests.support.servers import Server


def _listed(browser: Browser) -> list[str]:
    """The match ids Open matches shows now."""
    return list(browser.driver.execute_script(
        "return [...document.querySelectorAll('[data-testid=lobby] [data-match-id]')]"
        ".map(li => li.dataset.matchId)"))


def _item(browser: Browser, match_id: str) -> str:
    return str(browser.css(f"[data-testid=lobby] [data-match-id='{match_id}']").text)


def _lobby_ids(server: Server) -> list[str]:
    page = requests.get(f"{server.url}/v1/matches?limit=100", timeout=10).json()
    return [item["id"] for item in page["items"]]


def test_a_match_for_anyone_is_found_in_open_matches_and_its_seat_taken(
        browsers: Callable[..., Browser], server: Server) -> None:
    bia = browsers()
    bia.register("bia")
    # for friends, with "Anyone may join": public, and in the lobby
    assert not bia.css("[data-testid=public]").is_selected()  # (private unless ticked)
    bia.choose("players", "2")
    bia.driver.execute_script(
        "document.querySelector('[data-testid=public]').scrollIntoView({block: 'center'})")
    bia.click("[data-testid=public]")
    bia.click("[data-testid=invite]")
    match_id = bia.wait(lambda: bia.table()["match-id"], why="bia's table")
    assert _match(server, match_id, _auth(bia))["visibility"] == "public"
    assert match_id in _lobby_ids(server)
    # not in bia's own Open matches: she sits in it
    bia.open()
    bia.wait(lambda: bia.css("[data-testid=lobby]").get_attribute("aria-busy") == "false",
             why="bia's open matches read")
    assert match_id not in _listed(bia)

    ana = browsers()
    ana.register("ana")
    # a private match is never listed, nor one ana sits in
    private = _created(server, _player(server, "dan")["auth"],
                       {"players": 2, "visibility": "private"})
    hers = _created(server, _auth(ana), {"players": 2})
    ana.open()
    ana.wait(lambda: match_id in _listed(ana), why="bia's match in ana's Open matches")
    assert "bia" in _item(ana, match_id)
    assert "2 players · Paulista" in _item(ana, match_id)
    assert "1 seat free" in _item(ana, match_id)
    assert private not in _listed(ana) and private not in _lobby_ids(server)
    assert hers in _lobby_ids(server) and hers not in _listed(ana)
    assert _axe(ana) == []
    ana.driver.set_window_size(*PHONE)
    ana.wait(lambda: ana.driver.execute_script("return window.innerWidth") <= PHONE[0],
             why="the phone's width")
    ana.driver.execute_script("document.querySelector('.lobby-panel').scrollIntoView()")
    assert ana.driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    # her seat taken: the match starts, at both tables and at the server
    ana.click(f"[data-testid=lobby] [data-match-id='{match_id}'] [data-testid=lobby-join]")
    ana.wait(lambda: ana.table()["match-id"] == match_id and ana.table()["status"] == "active",
             why="ana's table active")
    bia.open(f"/play/#/match/{match_id}")
    bia.wait(lambda: bia.table()["status"] == "active", why="bia's table active")
    view = _match(server, match_id, _auth(ana))
    assert view["status"] == "active" and view["you"] is not None
    assert _match(server, match_id, _auth(bia))["you"] is not None
    assert match_id not in _lobby_ids(server)
    ana.open()
    ana.wait(lambda: ana.css("[data-testid=lobby]").get_attribute("aria-busy") == "false",
             why="ana's open matches read again")
    assert match_id not in _listed(ana)


def test_a_seat_taken_meanwhile_is_said_in_words_and_the_list_read_again(
        browsers: Callable[..., Browser], server: Server) -> None:
    caio = _player(server, "caio")
    match_id = _created(server, caio["auth"], {"players": 2})
    ana = browsers()
    ana.register("ana")
    ana.wait(lambda: match_id in _listed(ana), why="caio's match listed")
    # someone else sits first
    taken = requests.post(f"{server.url}/v1/matches/{match_id}/join", json={}, timeout=10,
                          headers=_player(server, "eva")["auth"])
    assert taken.status_code == 200, taken.text
    ana.click(f"[data-testid=lobby] [data-match-id='{match_id}'] [data-testid=lobby-join]")
    ana.wait(lambda: "no free seat" in ana.css("#error").text, why="the refusal in words")
    ana.wait(lambda: match_id not in _listed(ana), why="the list read again")
    # (the 409 Chromium logs for the refusal is the test's own)
    ana.refused_on_purpose(409)


def test_a_newcomer_sees_open_matches_and_sits_down_in_one(browsers: Callable[..., Browser],
                                                           server: Server) -> None:
    """Before registering, the open matches are under the registration form; Take a seat asks
    for a name, then seats the newcomer, and the match starts."""
    cai = _player(server, "cai")
    match_id = _created(server, cai["auth"], {"players": 2})  # (public by default)
    newcomer = browsers()
    newcomer.open()
    newcomer.wait(lambda: match_id in _listed(newcomer), why="the open match, before a name")
    assert "cai" in _item(newcomer, match_id)
    assert newcomer.all("[data-testid=name]")  # (the registration is on the same screen)
    newcomer.css(f"[data-testid=lobby] [data-match-id='{match_id}'] "
                 "[data-testid=lobby-join]").click()
    # (the join screen's own form, under who invites to what: not the home screen's)
    note = newcomer.wait(lambda: newcomer.all("[data-testid=join-note]")
                         and newcomer.css("[data-testid=join-note]").text,
                         why="a name asked first")
    assert note.startswith("cai is waiting for players in a 2")
    newcomer.css("[data-testid=name]").send_keys("dora")
    newcomer.click("[data-testid=register]")
    newcomer.wait(lambda: newcomer.table()["status"] == "active", why="seated, the match on")
    view = _match(server, match_id, _auth(newcomer))
    assert view["status"] == "active" and view["you"] == {"seat": 1, "team": 1}


def test_more_shows_the_next_page_and_a_refresh_keeps_it(browsers: Callable[..., Browser],
                                                        server: Server) -> None:
    """A page shows 20 open matches; More shows the next ones and the list read again keeps
    them; another filter starts from one page."""
    makers = [_player(server, "gil")["auth"], _player(server, "hal")["auth"]]  # (20 each at most)
    made = [_created(server, makers[i % 2], {"players": 6}) for i in range(21)]
    ana = browsers()
    ana.register("ana")
    ana.wait(lambda: made[-1] in _listed(ana), why="the newest match listed")
    assert len(_listed(ana)) == 20 and made[0] not in _listed(ana)
    more = "[data-testid=lobby-more]"
    assert ana.css(more).is_displayed()
    ana.click(more)
    ana.wait(lambda: set(made) <= set(_listed(ana)), why="the next page shown")
    assert len(_listed(ana)) > 20
    ana.click("[data-testid=lobby-refresh]")
    ana.wait(lambda: ana.css("[data-testid=lobby]").get_attribute("aria-busy") == "false",
             why="the list read again")
    assert set(made) <= set(_listed(ana))
    # another filter: one page again (the 21 are 6-player matches)
    ana.click("[name=lobby-players][value='6']")
    ana.wait(lambda: len(_listed(ana)) == 20, why="one page of 6-player matches")
    assert ana.css(more).is_displayed()
    # a list that fits one page has no More
    ana.click("[name=lobby-players][value='4']")
    ana.wait(lambda: ana.css("[data-testid=lobby]").get_attribute("aria-busy") == "false"
             and len(_listed(ana)) < 20, why="the 4-player matches")
    assert not ana.css(more).is_displayed()


def test_live_now_lists_public_matches_being_played_and_opens_them_to_watch(
        browsers: Callable[..., Browser], server: Server) -> None:
    """Live now lists the public matches being played (not a private one); Watch opens the
    table as a spectator sees it: no hand, no controls."""
    gus = _player(server, "gus")
    public = _created(server, gus["auth"], {"players": 2, "visibility": "public",
                                            "bots": [{"seat": 1, "level": "random"}]})
    private = _created(server, gus["auth"], {"players": 2, "visibility": "private",
                                             "bots": [{"seat": 1, "level": "random"}]})
    viewer = browsers()
    viewer.open()  # (a newcomer: Live now is under Open matches)
    live = "return [...document.querySelectorAll('[data-testid=live] [data-match-id]')]" \
           ".map(li => li.dataset.matchId)"
    viewer.wait(lambda: public in viewer.driver.execute_script(live), why="the match, live")
    assert private not in viewer.driver.execute_script(live)
    item = viewer.css(f"[data-testid=live] [data-match-id='{public}']").text
    assert "2 players · Paulista" in item and "gus" in item and "Bot (random)" in item
    viewer.click(f"[data-testid=live] [data-match-id='{public}'] [data-testid=watch]")
    viewer.wait(lambda: viewer.table()["match-id"] == public
                and viewer.table()["status"] in ("active", "finished"), why="the table, watched")
    assert "watching" in viewer.text()
    # the note above the scoreboard: the scoreboard and the felt stay together
    _above_the_scoreboard(viewer, ".table-screen > p.note")
    assert not viewer.all("[data-action]")  # (a spectator has nothing to do)


def test_live_now_shows_ten_and_more_shows_the_next(browsers: Callable[..., Browser],
                                                    server: Server) -> None:
    """Live now shows ten matches, the one that moved last first; More shows ten more."""
    makers = [_player(server, "ivo")["auth"], _player(server, "jan")["auth"]]  # (10 bots each)
    made = [_created(server, makers[i % 2], {"players": 2, "visibility": "public",
                                             "bots": [{"seat": 1, "level": "random"}]})
            for i in range(11)]
    viewer = browsers()
    viewer.open()
    live = "return [...document.querySelectorAll('[data-testid=live] [data-match-id]')]" \
           ".map(li => li.dataset.matchId)"
    shown = viewer.wait(lambda: viewer.driver.execute_script(live), why="Live now")
    assert len(shown) == 10
    more = "[data-testid=live-more]"
    assert viewer.css(more).is_displayed()
    viewer.click(more)
    viewer.wait(lambda: set(made) <= set(viewer.driver.execute_script(live)),
                why="the next page of Live now")
    assert len(viewer.driver.execute_script(live)) > 10


def test_live_now_leaves_out_my_own_matches(browsers: Callable[..., Browser],
                                            server: Server) -> None:
    """My own match is under My matches, not among those to watch."""
    gus = _player(server, "gus")
    theirs = _created(server, gus["auth"], {"players": 2, "visibility": "public",
                                            "bots": [{"seat": 1, "level": "random"}]})
    ana = browsers()
    ana.register("ana")
    token = ana.driver.execute_script("return localStorage.getItem('truco.token')")
    mine = _created(server, {"Authorization": f"Bearer {token}"}, {
        "players": 2, "visibility": "public", "bots": [{"seat": 1, "level": "random"}]})
    ana.open()
    live = "return [...document.querySelectorAll('[data-testid=live] [data-match-id]')]" \
           ".map(li => li.dataset.matchId)"
    ana.wait(lambda: theirs in ana.driver.execute_script(live), why="their match, live")
    ana.wait(lambda: ana.all(f"[data-testid=inbox] [data-match-id='{mine}']"),
             why="mine under My matches")
    assert mine not in ana.driver.execute_script(live)
