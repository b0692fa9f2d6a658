"""What a person sees: the table at a phone's width and a desktop's, written to docs/img/
(the README shows them), an accessibility check of each page with axe-core, and the table
played with the keyboard alone."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import DESKTOP, LAPTOP, PHONE, Browser

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"
AXE_TAGS = ["wcag2a", "wcag2aa"]
"""The axe-core rules the client must pass: WCAG 2 A and AA (labels, names, roles, ARIA,
contrast, language, titles...)."""


def _table_with_cards_down(browser: Browser) -> None:
    """A 4-player match against bots, waited on until the bots have played cards and it is
    my turn to play one (a new match when one ends first: accepting every raise, a match can
    be over in a few hands)."""
    browser.register("ana")

    def ready() -> bool:
        played = browser.all(".felt .played .card")
        plays = [a for a in browser.actions() if a["type"] == "play"]
        return len(played) >= 1 and bool(plays)

    for match in range(3):
        if match:
            browser.open()
            browser.wait(lambda: browser.all("[data-testid=new-match]"), why="the form")
        browser.choose("players", "4")
        browser.choose("level", "easy")
        browser.click("[data-testid=start]")
        for _ in range(40):
            if browser.wait(lambda: browser.actions() or browser.table()["status"] == "finished",
                            why="my turn") and ready():
                return
            if browser.table()["status"] == "finished":
                break
            browser.wait_current()
            action = next((a for a in browser.actions() if a["type"] in ("play", "accept")),
                          None)
            if action is None:
                continue
            version = browser.table()["version"]
            browser.click_action(action)
            browser.wait(lambda v=version: browser.table()["version"] != v, why="the answer")
    raise AssertionError("no turn of mine with cards on the table in 3 matches")


def _axe(browser: Browser) -> list[dict[str, Any]]:
    from axe_selenium_python import Axe

    browser.driver.set_script_timeout(60)
    axe = Axe(browser.driver)
    axe.inject()
    results = axe.run(options=json.dumps({"runOnly": {"type": "tag", "values": AXE_TAGS}}))
    assert len(results["passes"]) >= 10  # (the rules ran)
    return [{"id": v["id"], "nodes": [n["html"][:120] for n in v["nodes"]]}
            for v in results["violations"]]


def test_the_table_at_phone_and_desktop_widths(browsers: Callable[..., Browser]) -> None:
    browser = browsers(size=DESKTOP)
    _table_with_cards_down(browser)
    IMAGES.mkdir(parents=True, exist_ok=True)
    browser.driver.save_screenshot(str(IMAGES / "table-desktop.png"))
    browser.driver.set_window_size(*PHONE)
    width = browser.driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0]  # nothing wider than the phone
    browser.driver.save_screenshot(str(IMAGES / "table-phone.png"))
    for name in ("table-desktop.png", "table-phone.png"):
        assert (IMAGES / name).stat().st_size > 10_000


@pytest.mark.parametrize("players", ["4", "6"])
def test_the_hand_and_the_answers_fit_a_laptops_window(
        browsers: Callable[..., Browser], players: str) -> None:
    """With 4 and 6 players (the tall tables), my cards and the controls are in the window of
    a laptop, and of a phone, without scrolling, so a turn never asks for a scroll first."""
    browser = browsers(size=LAPTOP)
    height = browser.driver.execute_script("return window.innerHeight")
    assert 560 <= height <= 700  # (the window a laptop's screen leaves)
    browser.register("ana")
    browser.choose("players", players)
    browser.choose("level", "easy")
    browser.click("[data-testid=start]")
    browser.wait(lambda: browser.actions(), why="my turn")
    assert _lowest_of_the_hand_and_controls(browser) <= height
    browser.driver.set_window_size(*PHONE)
    height = browser.driver.execute_script("return window.innerHeight")
    assert 640 <= height <= 760  # (a phone's window)
    browser.wait(lambda: browser.driver.execute_script("return window.innerWidth") <= PHONE[0],
                 why="the phone's width")
    assert _lowest_of_the_hand_and_controls(browser) <= height


def _lowest_of_the_hand_and_controls(browser: Browser) -> float:
    """Where the lowest of my cards and the controls ends, from the top of the page."""
    cards, controls = browser.driver.execute_script(
        "const bottoms = s => [...document.querySelectorAll(s)]"
        "  .map(e => e.getBoundingClientRect().bottom + window.scrollY);"
        "return [bottoms('.hand .card'), bottoms('.controls [data-action]')]")
    assert len(cards) == 3  # (a partner's answer may take the controls away meanwhile)
    return float(max(cards + controls))


def test_every_page_passes_the_accessibility_check(browsers: Callable[..., Browser]) -> None:
    browser = browsers()
    browser.open()
    browser.wait(lambda: browser.all("[data-testid=name]"), why="the registration page")
    assert _axe(browser) == []
    _table_with_cards_down(browser)
    assert _axe(browser) == []
    browser.open()
    browser.wait(lambda: browser.all("[data-testid=inbox] [data-match-id]"), why="the inbox")
    assert _axe(browser) == []


def test_cards_have_names_and_plays_go_by_keyboard(browsers: Callable[..., Browser]) -> None:
    from selenium.webdriver.common.keys import Keys

    browser = browsers()
    _table_with_cards_down(browser)
    cards = browser.all(".hand .card")
    names = [c.get_attribute("aria-label") for c in cards]
    assert all(" of " in n for n in names), names  # "7 of clubs", never a bare code
    vira = browser.css(".vira .card").get_attribute("aria-label")
    assert vira.startswith("Vira: ")
    version = browser.table()["version"]
    playable = browser.all(".hand .card.playable")
    body = browser.css("body")
    for _ in range(60):  # Tab from the top of the page to the first playable card
        body = browser.driver.switch_to.active_element
        if body == playable[0]:
            break
        body.send_keys(Keys.TAB)
    assert browser.driver.switch_to.active_element == playable[0]
    browser.wait(lambda: not browser.all("[data-fresh]"), why="the cards take a press")
    playable[0].send_keys(Keys.ENTER)
    browser.wait(lambda: browser.table()["version"] != version, why="the keyboard's play")
    region = browser.wait(lambda: browser.css("#announcer").get_attribute("textContent"),
                          why="the live region")
    assert "played" in region


def test_the_landing_page_leads_to_the_client_in_either_language(
        browsers: Callable[..., Browser]) -> None:
    browser = browsers()
    browser.open("/")
    browser.driver.find_element("link text", "Play in your browser").click()
    browser.wait(lambda: browser.all("[data-testid=name]"), why="the client")
    assert browser.driver.current_url.endswith("/play/")
    assert "Sit down" in browser.css("[data-testid=register]").text
    browser.click("#lang")
    browser.wait(lambda: "Sentar" in browser.css("[data-testid=register]").text,
                 why="the Portuguese labels")
    assert browser.driver.execute_script("return document.documentElement.lang") == "pt-BR"
