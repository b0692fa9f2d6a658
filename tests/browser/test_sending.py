"""The table through a bad connection. An action (js/delivery.js) is said on the felt while
it is on its way, kept trying with the same Idempotency-Key while the server is out of reach
and applied once when it is back, never sent on a table that moved on meanwhile, and stopped
by the player when they choose; a table opened out of reach says so and comes when it can."""
from __future__ import annotations

import os
import time
from collections.abc import Callable

import requests

from tests.browser.test_client import _events, _human_match, _offline
from tests.browser.test_screens import _axe
from tests.support.browser import PHONE, Browser
from tests.support.servers import Server

ACCEPT = {"type": "accept"}


def _decisions(server: Server, match_id: str, auth: dict[str, str]) -> list[object]:
    """The mão de onze decisions made so far in the match, as its log has them."""
    return [e for e in _events(server, match_id, auth) if e["type"] == "eleven_decided"]


def _question(server: Server, ana: Browser) -> tuple[str, dict[str, str]]:
    """ana at a table where she alone decides a mão de onze; the match and her opponent's
    Authorization header."""
    ana.register("ana")
    match_id, (bia,) = _human_match(server, ana, start_score=[11, 3])
    ana.wait(lambda: ACCEPT in ana.actions(), why="the mão de onze question")
    return match_id, bia


def _note(ana: Browser) -> str:
    """What the felt says of the action on its way ('' when nothing)."""
    return "".join(el.text for el in ana.all("[data-testid=sending] [role=status]"))


def test_a_move_made_offline_goes_once_the_connection_is_back(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers(size=PHONE)
    match_id, bia = _question(server, ana)
    version = ana.table()["version"]
    _offline(ana, True)
    ana.click_action(ACCEPT)
    ana.wait(lambda: _note(ana), why="the note on the felt")
    time.sleep(1.5)  # (past the moment a slow answer is said: this one stays)
    assert _note(ana) == "No connection: your move goes as soon as it is back."
    assert ana.css("[data-testid=stop-sending]").rect["height"] >= 44  # (a finger's size)
    assert all(not b.is_enabled() for b in ana.all("[data-action]"))  # one action at a time
    assert _axe(ana) == []
    if os.environ.get("TRUCO_SCREENSHOTS"):  # (to look at while working on the page)
        ana.driver.save_screenshot(os.environ["TRUCO_SCREENSHOTS"] + "/sending-offline.png")
    time.sleep(5)  # (several tries fail meanwhile)
    assert _decisions(server, match_id, bia) == []
    _offline(ana, False)
    ana.wait(lambda: ana.table()["version"] != version, why="the move applied", timeout=30)
    ana.wait(lambda: _note(ana) == "", why="the note gone")
    time.sleep(2)  # (time for a second request, if one went)
    assert [(e["seat"], e["accept"]) for e in _decisions(server, match_id, bia)] == [(0, True)]
    ana.wait(lambda: ana.css("#error").text == "", why="the stream back, nothing to say")
    _offline(ana, False)  # (the console's failed requests of the seconds offline)


def test_a_move_is_not_sent_on_a_table_that_moved_on_meanwhile(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    match_id, bia = _question(server, ana)
    version = int(ana.table()["version"])
    _offline(ana, True)
    ana.click_action(ACCEPT)
    ana.wait(lambda: _note(ana), why="the note on the felt")
    # the table changes while ana's move cannot reach it (bia's new name: a new version)
    renamed = requests.patch(f"{server.url}/v1/players/me", json={"name": "bia2"}, headers=bia,
                             timeout=10)
    assert renamed.status_code == 200, renamed.text
    _offline(ana, False)
    ana.wait(lambda: int(ana.table()["version"]) > version, why="the table as it is now",
             timeout=30)
    ana.wait(lambda: _note(ana) == "" and ACCEPT in ana.actions(), why="the question again")
    assert "bia2" in ana.css(".felt").text
    time.sleep(2)  # (time for a request, if one went)
    assert _decisions(server, match_id, bia) == []
    ana.click_action(ACCEPT)  # chosen again on the table as it stands: it goes
    ana.wait(lambda: _decisions(server, match_id, bia), why="the decision")
    _offline(ana, False)


def test_the_player_stops_a_move_that_cannot_reach_the_server(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    match_id, bia = _question(server, ana)
    ana.driver.execute_script("localStorage.setItem('truco.lang', 'pt')")
    ana.driver.refresh()
    ana.wait(lambda: ACCEPT in ana.actions(), why="the question in Portuguese")
    _offline(ana, True)
    ana.click_action(ACCEPT)
    ana.wait(lambda: _note(ana), why="the note on the felt")
    time.sleep(2)  # (stopped while it waits to try again: at once all the same)
    assert _note(ana) == "Sem conexão: sua jogada vai assim que ela voltar."
    pressed = time.monotonic()
    ana.click("[data-testid=stop-sending]")
    ana.wait(lambda: _note(ana) == "" and ACCEPT in ana.actions(),  # (enabled ones)
             why="the controls back")
    assert time.monotonic() - pressed < 1.5  # (not after the wait before the next try)
    _offline(ana, False)
    time.sleep(5)  # (longer than a wait between two tries: nothing more goes)
    assert _decisions(server, match_id, bia) == []
    _offline(ana, False)


def test_a_slow_answer_is_said_while_it_comes(browsers: Callable[..., Browser],
                                              server: Server) -> None:
    ana = browsers()
    match_id, bia = _question(server, ana)
    ana.network(latency=2000)
    version = ana.table()["version"]
    ana.click_action(ACCEPT)
    said = ana.wait(lambda: _note(ana), why="the note on the felt")
    assert said == "Sending your move…"
    assert not ana.all("[data-testid=stop-sending]")  # (the server is not out of reach)
    ana.wait(lambda: ana.table()["version"] != version, why="the answer", timeout=30)
    ana.wait(lambda: _note(ana) == "", why="the note gone")
    assert [(e["seat"], e["accept"]) for e in _decisions(server, match_id, bia)] == [(0, True)]



def test_a_table_opened_out_of_reach_says_so_and_comes_when_it_can(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers(size=PHONE)
    match_id, _ = _question(server, ana)
    ana.open("/play/#/")
    ana.wait(lambda: ana.all("[data-testid=inbox]"), why="home")
    _offline(ana, True)
    ana.driver.execute_script(f"location.hash = '#/match/{match_id}'")
    said = ana.wait(lambda: ana.all("[data-testid=table] [data-testid=unreachable]")
                    and ana.css("[data-testid=unreachable]").text, why="the line in its place")
    assert said == "Cannot reach the server. Retrying…"
    assert ana.css("#error").text == ""  # (one line says it, not the error line too)
    assert ana.all("[data-testid=table] a[href='#/']")  # (a way home meanwhile)
    _offline(ana, False)
    ana.wait(lambda: ACCEPT in ana.actions(), why="the table, once reached", timeout=30)
    assert not ana.all("[data-testid=unreachable]")
    _offline(ana, False)


def _limit(browser: Browser, name: str, ms: int) -> None:
    """Shorten one of the client's waits (`limits` in js/api.js, the page's own module)."""
    browser.driver.execute_async_script(
        f"const done = arguments[0];"
        f"import('/play/js/api.js').then((api) => {{ api.limits.{name} = {ms}; done(); }});")


def _hang(browser: Browser, hung: bool) -> None:
    """Requests to the API left unanswered (a connection left half open, as after a phone
    changed networks: nothing fails, nothing comes), or let go."""
    if hung:
        browser.driver.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": "*/v1/*"}]})
    else:
        browser.driver.execute_cdp_cmd("Fetch.disable", {})


def test_a_move_not_answered_in_time_counts_as_out_of_reach_and_goes_once_answered(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    match_id, bia = _question(server, ana)
    version = ana.table()["version"]
    _limit(ana, "call", 2000)
    _hang(ana, True)
    ana.click_action(ACCEPT)
    ana.wait(lambda: _note(ana).startswith("No connection"), why="no answer taken for none",
             timeout=8)
    assert _decisions(server, match_id, bia) == []
    _hang(ana, False)
    ana.wait(lambda: ana.table()["version"] != version, why="the move applied", timeout=30)
    ana.wait(lambda: _note(ana) == "", why="the note gone")
    time.sleep(2)  # (time for a second request, if one went)
    assert [(e["seat"], e["accept"]) for e in _decisions(server, match_id, bia)] == [(0, True)]


_STREAMS_SPY = """
window.streamsOpened = 0;
const fetchOriginal = window.fetch;
window.fetch = (resource, init) => {
  if (/[/]matches[/].*[/]stream$/.test(String(resource))) window.streamsOpened += 1;
  return fetchOriginal(resource, init);
};"""


def test_a_silent_stream_is_taken_for_dead_and_asked_again(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers()
    ana.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _STREAMS_SPY})
    _, bia = _question(server, ana)
    assert ana.driver.execute_script("return window.streamsOpened") == 1
    _limit(ana, "silence", 1500)
    version = int(ana.table()["version"])
    renamed = requests.patch(f"{server.url}/v1/players/me", json={"name": "bia2"}, headers=bia,
                             timeout=10)  # (a message on the stream: its next wait is short)
    assert renamed.status_code == 200, renamed.text
    ana.wait(lambda: int(ana.table()["version"]) > version, why="the stream's message")
    # the server says nothing for 20 s (its heartbeat): the client does not wait that long
    ana.wait(lambda: ana.driver.execute_script("return window.streamsOpened") >= 2,
             why="the stream asked again", timeout=10)
    version = int(ana.table()["version"])
    _limit(ana, "silence", 40000)
    renamed = requests.patch(f"{server.url}/v1/players/me", json={"name": "bia3"}, headers=bia,
                             timeout=10)
    assert renamed.status_code == 200, renamed.text
    ana.wait(lambda: int(ana.table()["version"]) > version, why="the new stream followed")
    assert "bia3" in ana.css("[data-testid=table]").text
    assert ana.css("#error").text == ""
