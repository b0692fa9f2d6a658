"""The site's header at the reference client: the link to the server's rules in either
language."""
from __future__ import annotations

from collections.abc import Callable

import requests

from tests.support.browser import PHONE, Browser
from tests.support.servers import Server


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
    page = requests.get(href, timeout=10)
    assert page.status_code == 200 and "The rules as the server plays them" in page.text
    # on a phone, one row no taller than before: the title, Rules and the language's switch,
    # the link as tall as the switch
    title, rules, switch = (_box(browser, s) for s in ("header.site h1", "#rules", "#lang"))
    assert title["right"] <= rules["left"] < rules["right"] <= switch["left"]
    assert switch["right"] <= PHONE[0]
    assert _box(browser, "header.site")["bottom"] < 56
    assert rules["bottom"] - rules["top"] >= switch["bottom"] - switch["top"] >= 32
    browser.click("#lang")
    browser.wait(lambda: browser.css("#rules").text == "Regras", why="the link in Portuguese")
    assert browser.css("#rules").get_attribute("href") == href
    browser.click("#rules")
    browser.wait(lambda: browser.driver.current_url == href, why="the rules page")
    assert "The rules as the server plays them" in browser.text()


