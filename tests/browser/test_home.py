"""The home screen and the site's header at the reference client: the link to the server's
rules in either language, the new-match form's button in sight on a phone and a laptop right
after registering (my matches before it only when one waits for me), and a match the server
will not create for the player's own load, said in their words with a way to My matches; on
a slow connection, a screen that takes its time says Loading… in place of the one before, and
a new match pressed twice is made once."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests

from tests.browser.test_invitations import _auth, _created, _inbox_ids, _me, _player
from tests.support.browser import LAPTOP, PHONE, Browser
from tests.support.servers import Server, server_in_testing_mode


def _sized(browser: Browser, size: tuple[int, int]) -> int:
    """The window set to `size` (a phone's width only once the browser takes it); its
    height inside."""
    browser.driver.set_window_size(*size)
    browser.wait(lambda: browser.driver.execute_script("return window.innerWidth") <= size[0],
                 why="the window's width")
    return int(browser.driver.execute_script("return window.innerHeight"))


def _box(browser: Browser, selector: str) -> dict[str, float]:
    """Where `selector` is, from the top of the page (not of the window)."""
    return dict(browser.driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY,"
        " left: r.left, right: r.right}", selector))


def test_the_header_links_to_the_rules_in_either_language(
        browsers: Callable[..., Browser], server: Server) -> None:
    browser = browsers(size=PHONE)
    _sized(browser, PHONE)
    browser.open()
    browser.wait(lambda: browser.all("[data-testid=name]"), why="the home screen")
    link = browser.css("header.site [data-testid=rules]")
    assert link.text == "Rules"
    href = link.get_attribute("href")
    assert href == f"{server.url}/docs/rules"  # (the server's own page of docs/rules.md)
    assert link.get_attribute("hreflang") == "en"
    page = requests.get(href, timeout=10)
    assert page.status_code == 200 and "The rules as the server plays them" in page.text
    assert '<html lang="en">' in page.text
    # on a phone, one row no taller than before: the title, Rules and the language's switch,
    # the link as tall as the switch
    title, rules, switch = (_box(browser, s) for s in ("header.site h1", "#rules", "#lang"))
    assert title["right"] <= rules["left"] < rules["right"] <= switch["left"]
    assert switch["right"] <= PHONE[0]
    assert _box(browser, "header.site")["bottom"] < 56
    assert rules["bottom"] - rules["top"] >= switch["bottom"] - switch["top"] >= 32
    # in Portuguese, the Portuguese page (docs/regras.md), and its title no longer says the
    # page is in English; back in English, the English page again
    browser.click("#lang")
    browser.wait(lambda: browser.css("#rules").text == "Regras", why="the link in Portuguese")
    regras = f"{server.url}/docs/regras"
    assert browser.css("#rules").get_attribute("href") == regras
    assert browser.css("#rules").get_attribute("hreflang") == "pt-BR"
    assert browser.css("#rules").get_attribute("title") == "As regras como este servidor joga"
    page = requests.get(regras, timeout=10)
    assert page.status_code == 200 and '<html lang="pt-BR">' in page.text
    assert "As regras como o servidor joga" in page.text
    browser.click("#lang")
    browser.wait(lambda: browser.css("#rules").text == "Rules", why="the link in English")
    assert browser.css("#rules").get_attribute("href") == href
    assert browser.css("#rules").get_attribute("hreflang") == "en"
    browser.click("#lang")
    browser.wait(lambda: browser.css("#rules").text == "Regras", why="the link in Portuguese")
    browser.click("#rules")
    browser.wait(lambda: browser.driver.current_url == regras, why="the rules page")
    assert "As regras como o servidor joga" in browser.text()
    assert browser.driver.execute_script("return document.documentElement.lang") == "pt-BR"


def _start_in_sight(browser: Browser, height: int) -> bool:
    """Whether "Play against the computer" is inside the window at the top of the page."""
    browser.driver.execute_script("window.scrollTo(0, 0)")
    return _box(browser, "[data-testid=start]")["bottom"] <= height


def test_the_new_match_button_is_in_sight_after_registering_on_a_phone_and_a_laptop(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers(size=PHONE)
    height = _sized(ana, PHONE)
    assert 640 <= height <= 760  # (a phone's window)
    ana.register("ana")
    ana.wait(lambda: ana.css("[data-testid=standing]").is_displayed(), why="my ratings")
    ana.wait(lambda: ana.all("[data-testid=inbox] .empty"), why="my matches read")
    for language in ("en", "pt"):
        if language == "pt":
            ana.click("#lang")
            ana.wait(lambda: ana.css("[data-testid=start]").text == "Jogar contra o computador",
                     why="home in Portuguese")
            ana.wait(lambda: ana.css("[data-testid=standing]").is_displayed(), why="ratings")
        assert _start_in_sight(ana, height), (language, _box(ana, "[data-testid=start]"))
        # who I am and where I stand above it, as before
        assert _box(ana, ".who-head")["bottom"] < _box(ana, "[data-testid=standing]")["bottom"] \
            < _box(ana, "[data-testid=new-match]")["top"]
        # my key, my handle and the notifications after it, in a panel of their own
        settings = _box(ana, "[data-testid=settings]")
        assert settings["top"] > _box(ana, "[data-testid=new-match]")["bottom"]
        assert ana.all("[data-testid=settings] details.key [data-testid=token]")
        assert ana.all("[data-testid=settings] [data-testid=handle-form]")
        assert ana.driver.execute_script(
            "return document.documentElement.scrollWidth") <= PHONE[0]
    ana.click("#lang")
    ana.wait(lambda: ana.css("[data-testid=start]").text == "Play against the computer",
             why="home in English")
    # a match that waits for others: my matches stay after the form
    me = _me(server, _auth(ana))
    waiting = _created(server, _auth(ana), {"players": 2})
    ana.driver.refresh()  # (the stream tells of what waits for me, not of this one)
    ana.wait(lambda: ana.all(f"[data-testid=inbox] [data-match-id='{waiting}']"),
             why="the waiting match in my matches")
    assert _start_in_sight(ana, height)
    assert _box(ana, ".inbox-panel")["top"] > _box(ana, "[data-testid=new-match]")["bottom"]
    # one that waits for me (an invitation): my matches first
    bia = _player(server, "bia")
    invited = _created(server, bia["auth"], {"invite": [{"seat": 1, "player_id": me["id"]}]})
    ana.wait(lambda: ana.all(f"[data-testid=inbox] [data-match-id='{invited}']"),
             why="the invitation in my matches")
    assert _box(ana, ".inbox-panel")["bottom"] < _box(ana, "[data-testid=new-match]")["top"]
    # a laptop: the button in its window too (my matches beside the form)
    height = _sized(ana, LAPTOP)
    assert 560 <= height <= 700
    assert _start_in_sight(ana, height), _box(ana, "[data-testid=start]")
    assert _box(ana, ".inbox-panel")["top"] < _box(ana, "[data-testid=start]")["bottom"]


@pytest.fixture(scope="module")
def capped(database_url: str) -> Iterator[Server]:
    """A server that allows one unfinished match with bots and one waiting match per player
    (the package's server allows any number)."""
    started = server_in_testing_mode("capped", database_url, worker=False,
                                     TRUCO_MAX_BOT_MATCHES="1", TRUCO_MAX_WAITING_MATCHES="1")
    try:
        started.wait_healthy()
        yield started
    finally:
        started.stop()


def test_a_match_refused_for_my_unfinished_ones_is_said_in_my_words(capped: Server) -> None:
    ana = Browser(capped.url, size=PHONE)
    try:
        _refused_for_my_load(ana, capped)
        assert ana.errors() == [], ana.errors()
    finally:
        ana.close()


def _error_line(browser: Browser) -> str:
    return str(browser.wait(lambda: browser.css("#error-line").is_displayed()
                            and browser.css("#error").text, why="the error line"))


def _refused_for_my_load(ana: Browser, capped: Server) -> None:
    height = _sized(ana, PHONE)
    ana.register("ana")
    auth = _auth(ana)
    playing = _created(capped, auth, {"players": 2, "bots": [{"seat": 1, "level": "easy"}]})
    ana.wait(lambda: ana.all(f"[data-testid=inbox] [data-match-id='{playing}']"),
             why="the match against the computer in my matches")
    # a second match against the computer: the server's 409 too_many_bot_matches, in words
    ana.click("[data-testid=start]")
    said = _error_line(ana)
    assert said == ("You already have 1 unfinished match against the computer, the most this "
                    "server allows: finish or resign one (in My matches) first. Show My matches")
    ana.refused_on_purpose(409)
    assert not ana.all("[data-testid=table]")  # still at home: nothing was created
    # its button brings My matches into the window
    ana.click("[data-testid=error-action]")
    title = ana.wait(lambda: (box := ana.driver.execute_script(
        "const r = document.getElementById('inbox-title').getBoundingClientRect();"
        "return r.top >= -1 && r.bottom <= window.innerHeight && [r.top, r.bottom]")) and box,
        why="My matches in sight")
    assert title[1] <= height
    assert ana.driver.execute_script("return document.activeElement.id") == "inbox-title"
    # a second match waiting for players: 409 too_many_waiting_matches, in Portuguese too
    _created(capped, auth, {"players": 2})
    ana.driver.execute_script("localStorage.setItem('truco.lang', 'pt')")
    ana.driver.refresh()
    ana.wait(lambda: ana.all("[data-testid=new-match]"), why="home in Portuguese")
    ana.choose("friends", "1")
    ana.driver.execute_script(
        "document.querySelector('[data-testid=invite]').scrollIntoView({block: 'center'})")
    ana.click("[data-testid=invite]")
    said = _error_line(ana)
    assert said == ("Você já tem o máximo de partidas aguardando jogadores que este servidor "
                    "permite: saia de uma delas (em Minhas partidas) primeiro, ou espere até "
                    "uma se completar. Mostrar Minhas partidas")
    ana.refused_on_purpose(409)
    made: Any = requests.get(f"{capped.url}/v1/me/matches", headers=auth, timeout=10).json()
    assert len(made["items"]) == 2


def test_a_rematch_refused_for_my_unfinished_ones_is_said_in_my_words(capped: Server) -> None:
    ana = Browser(capped.url)
    try:
        ana.register("bea")
        auth = _auth(ana)
        over = _created(capped, auth, {"players": 2, "bots": [{"seat": 1, "level": "easy"}]})
        resigned = requests.post(f"{capped.url}/v1/matches/{over}/resign", headers=auth,
                                 timeout=10)
        assert resigned.status_code == 200, resigned.text
        _created(capped, auth, {"players": 2, "bots": [{"seat": 1, "level": "easy"}]})
        ana.open(f"/play/#/match/{over}")
        ana.wait(lambda: ana.table()["status"] == "finished", why="the finished match")
        ana.click("[data-testid=rematch]")
        said = _error_line(ana)
        assert said.startswith("You already have 1 unfinished match against the computer")
        ana.refused_on_purpose(409)
        assert ana.table()["match-id"] == over  # (no other table: nothing was created)
        assert ana.errors() == [], ana.errors()
    finally:
        ana.close()


def test_the_name_field_says_how_long_a_name_may_be(
        browsers: Callable[..., Browser]) -> None:
    ana = browsers(size=PHONE)
    ana.open()
    field = ana.wait(lambda: ana.all("[data-testid=name]"), why="the name field")[0]
    hint = ana.driver.find_element("id", field.get_attribute("aria-describedby"))
    assert hint.text == "Up to 32 characters: what the others see at the table."
    assert field.get_attribute("maxlength") == "32"


def test_a_screen_slow_to_come_says_so_in_place_of_the_one_before(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers(size=PHONE)
    ana.register("ana")
    ana.wait(lambda: ana.all("[data-testid=new-match]"), why="the home screen")
    ana.network(latency=1500)
    ana.driver.execute_script("location.hash = '#/leaderboard'")
    note = ana.wait(lambda: ana.all("#main [data-testid=loading]"), why="the note")[0]
    assert note.text == "Loading…" and note.get_attribute("role") == "status"
    if os.environ.get("TRUCO_SCREENSHOTS"):  # (to look at while working on the page)
        ana.driver.save_screenshot(os.environ["TRUCO_SCREENSHOTS"] + "/loading.png")
    assert not ana.all("#main [data-testid=new-match]")  # (the home screen gone meanwhile)
    ana.wait(lambda: ana.all("#main h1, #main h2") and not ana.all("#main [data-testid=loading]"),
             why="the leaderboard", timeout=20)
    ana.network()
    # a screen that comes at once is not interrupted by the note
    ana.driver.execute_script("location.hash = '#/'")
    ana.wait(lambda: ana.all("#main [data-testid=new-match]"), why="home again")
    match_id = _created(server, _auth(ana), {"players": 2,
                                             "bots": [{"seat": 1, "level": "random"}]})
    ana.driver.execute_script(
        "window.noteSeen = false; new MutationObserver(() => { if (document.querySelector("
        "'#main [data-testid=loading]')) window.noteSeen = true; }).observe("
        "document.getElementById('main'), {childList: true, subtree: true});"
        f"location.hash = '#/match/{match_id}'")
    ana.wait(lambda: ana.all("[data-testid=table]"), why="the table")
    ana.wait(lambda: ana.actions(), why="the table drawn")
    assert ana.driver.execute_script("return window.noteSeen") is False


def test_a_new_match_pressed_twice_on_a_slow_connection_is_made_once(
        browsers: Callable[..., Browser], server: Server) -> None:
    ana = browsers(size=PHONE)
    ana.register("ana")
    ana.wait(lambda: ana.all("[data-testid=inbox] .empty"), why="my matches read")
    ana.network(latency=1500)
    # a double tap, and an impatient Enter in the form
    ana.driver.execute_script(
        "const start = document.querySelector('[data-testid=start]');"
        "start.click(); start.click(); start.form.requestSubmit();")
    start = ana.css("[data-testid=start]")
    assert not start.is_enabled()
    ana.wait(lambda: start.text == "Sending…", why="the button says so", timeout=5)
    assert start.get_attribute("aria-busy") == "true"
    if os.environ.get("TRUCO_SCREENSHOTS"):
        ana.driver.save_screenshot(os.environ["TRUCO_SCREENSHOTS"] + "/sending-start.png")
    ana.wait(lambda: ana.all("[data-testid=table]"), why="the new match", timeout=20)
    ana.network()
    assert len(_inbox_ids(server, _auth(ana))) == 1


def test_a_player_deletes_their_account_from_the_settings(
        browsers: Callable[..., Browser], server: Server) -> None:
    from tests.browser.test_screens import _axe

    ana = browsers(size=PHONE)
    ana.register("ana")
    auth = _auth(ana)
    me = _me(server, auth)
    playing = _created(server, auth, {"players": 2, "bots": [{"seat": 1, "level": "random"}]})
    ana.wait(lambda: ana.all("[data-testid=settings] details.delete-account"), why="settings")
    ana.click("[data-testid=settings] details.delete-account summary")
    said = ana.css("details.delete-account p").text
    assert "cannot be undone" in said and "Deleted player" in said
    button = ana.css("[data-testid=delete-account]")
    assert button.rect["height"] >= 44 and button.text == "Delete my account for good"
    assert _axe(ana) == []
    if os.environ.get("TRUCO_SCREENSHOTS"):
        ana.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        ana.driver.save_screenshot(os.environ["TRUCO_SCREENSHOTS"] + "/delete-account.png")
    button.click()
    notice = ana.wait(lambda: ana.all("[data-testid=notice]"), why="the notice")[0]
    assert notice.text == "Your account is deleted. Thank you for playing."
    assert ana.all("[data-testid=name]")  # (the form to register again: no key here)
    assert ana.driver.execute_script("return localStorage.getItem('truco.token')") is None
    if os.environ.get("TRUCO_SCREENSHOTS"):
        ana.driver.save_screenshot(os.environ["TRUCO_SCREENSHOTS"] + "/account-deleted.png")
    # the server did it: the key is dead, the match given up, the profile gone
    assert requests.get(f"{server.url}/v1/players/me", headers=auth, timeout=10).status_code \
        == 401
    view = requests.get(f"{server.url}/v1/matches/{playing}", timeout=10).json()
    assert (view["status"], view["end_reason"]) == ("finished", "resigned")
    assert requests.get(f"{server.url}/v1/players/{me['id']}", timeout=10).status_code == 404
