"""Headless Chromium for the browser tests (Debian's `chromium` and `chromium-driver`), and
the moves a person makes at the reference client: register, start, click what the table
offers."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from typing import Any

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PHONE = (390, 844)
DESKTOP = (1280, 900)
LAPTOP = (1366, 768)
"""A laptop's 1366 x 768 screen: headless, a window of that size leaves 625 pixels of page,
about what a browser's bars leave of such a screen."""
WAIT = 30
_CUTS = """(() => {
  const realFetch = window.fetch.bind(window);
  const live = new Set();
  let offline = false;
  window.dropStreams = () => { offline = true; live.forEach((c) => c.abort()); };
  window.streamsBack = () => { offline = false; };
  window.fetch = (url, init = {}) => {
    if (!String(url).includes('/stream')) return realFetch(url, init);
    if (offline) return Promise.reject(new TypeError('Failed to fetch'));
    const own = new AbortController();
    if (init.signal) init.signal.addEventListener('abort', () => own.abort());
    live.add(own);
    return realFetch(url, {...init, signal: own.signal});
  };
})();"""


def binaries() -> tuple[str, str]:
    """The browser and its driver; outside CI a missing one skips the test, saying which,
    under CI (CI=true) it fails."""
    import importlib.util

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    selenium = importlib.util.find_spec("selenium") is not None
    if browser and driver and selenium:
        return browser, driver
    missing = ("chromium" if not browser else "chromedriver" if not driver
               else "the selenium package (requirements-dev.txt)")
    message = (f"{missing} is not installed: the browser tests need Debian's chromium and "
               "chromium-driver (apt-get install -y chromium chromium-driver) and selenium")
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


class Browser:
    """One Chromium session with a profile directory of its own (kept when `profile` is
    given, so that a closed browser reopens with its storage)."""

    def __init__(self, base: str, size: tuple[int, int] = DESKTOP,
                 profile: str | None = None) -> None:
        from selenium import webdriver

        browser, driver = binaries()
        self.base = base
        self.profile = profile or tempfile.mkdtemp(prefix="truco-chromium-")
        self._own_profile = profile is None
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for arg in [*CHROMIUM_ARGS, f"--user-data-dir={self.profile}",
                    f"--window-size={size[0]},{size[1]}"]:
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(options=options,
                                       service=webdriver.ChromeService(driver))
        self.console: list[dict[str, Any]] = []
        self.closed = False

    def open(self, path: str = "/play/") -> None:
        self.driver.get(self.base + path)

    def cut_streams_on_demand(self) -> None:
        """From the next page on, `window.dropStreams()` cuts the page's stream connections
        (and refuses new ones) and `window.streamsBack()` lets them connect again; every other
        request goes through."""
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _CUTS})

    def css(self, selector: str) -> Any:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def wait(self, what: Callable[[], Any], timeout: float = WAIT, why: str = "") -> Any:
        """`what()` once it is truthy (errors of a page being redrawn count as not yet)."""
        from selenium.common.exceptions import WebDriverException

        deadline = time.monotonic() + timeout
        while True:
            try:
                found = what()
            except WebDriverException:
                found = None
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"not in {timeout}s: {why}\n{self.driver.current_url}\n"
                                     f"{self.text()[:2000]}")
            time.sleep(0.1)

    def text(self) -> str:
        return self.driver.execute_script("return document.body.innerText") or ""

    def register(self, name: str) -> None:
        self.open()
        self.wait(lambda: self.all("[data-testid=name]"), why="the name field")
        self.css("[data-testid=name]").send_keys(name)
        self.click("[data-testid=register]")
        self.wait(lambda: self.all("[data-testid=new-match]"), why="the new-match form")

    def choose(self, name: str, value: str) -> None:
        from selenium.webdriver.support.ui import Select

        Select(self.css(f"[data-testid=new-match] select[name={name}]")).select_by_value(value)

    def click(self, selector: str) -> None:
        """Click the element `selector` finds (found again when the page redrew it meanwhile)."""
        self.wait(lambda: self._clicked(selector), why=f"a click on {selector}")

    def _clicked(self, selector: str) -> bool:
        self.css(selector).click()
        return True

    def table(self) -> dict[str, str]:
        """The table's data attributes (match id, status, version), read in one script so
        that a redraw between two reads cannot mix them."""
        from selenium.common.exceptions import NoSuchElementException

        found = self.driver.execute_script(
            "const t = document.querySelector('[data-testid=table]');"
            "return t && {'match-id': t.getAttribute('data-match-id'),"
            " 'status': t.getAttribute('data-status'), 'version': t.getAttribute('data-version')}")
        if not found:
            raise NoSuchElementException("no [data-testid=table] on the page")
        return found

    def wait_current(self) -> None:
        """Wait until the table shows the match's current version (a click on a view that
        a partner's answer has superseded would be refused)."""
        import requests

        token = self.driver.execute_script("return localStorage.getItem('truco.token')")
        match_id = self.table()["match-id"]
        version = requests.get(f"{self.base}/v1/matches/{match_id}", timeout=10, headers={
            "Authorization": f"Bearer {token}"}).json()["version"]
        self.wait(lambda: int(self.table()["version"]) >= version, why="the table current")

    def actions(self) -> list[dict[str, Any]]:
        """The actions the page offers now (each enabled control's data-action)."""
        found = self.driver.execute_script(
            "return [...document.querySelectorAll('[data-action]')]"
            ".filter(b => !b.disabled).map(b => b.dataset.action)")
        return [json.loads(raw) for raw in found]

    def click_action(self, action: dict[str, Any]) -> None:
        """Click the control of `action` (found again when the page redrew it meanwhile), once
        it takes a press: a control that just appeared (data-fresh) takes none for 400 ms."""
        from selenium.common.exceptions import StaleElementReferenceException

        for _ in range(30):
            try:
                for button in self.all("[data-action]"):
                    if json.loads(button.get_attribute("data-action")) == action:
                        if button.get_attribute("data-fresh") is not None:
                            break
                        button.click()
                        return
            except StaleElementReferenceException:
                continue
            time.sleep(0.1)
        raise AssertionError(f"no control for {action}")

    def network(self, *, offline: bool = False, latency: int = 0) -> None:
        """Chromium's network as a test wants it: cut (`offline`), or each request `latency`
        ms slower; `network()` gives the plain one back."""
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": offline, "latency": latency, "downloadThroughput": -1,
            "uploadThroughput": -1})

    def errors(self) -> list[dict[str, Any]]:
        """Console messages of level SEVERE since the session began."""
        if not self.closed:
            self.console += self.driver.get_log("browser")
        return [m for m in self.console if m["level"] == "SEVERE"]

    def refused_on_purpose(self, *statuses: int) -> None:
        """Take out of the console the errors Chromium logs for answers of `statuses` that
        the test caused on purpose (each must be there); anything else stays for the
        fixture's check that no page logged an error."""
        self.errors()  # (the console read so far)
        for status in statuses:
            found = [m for m in self.console if m["level"] == "SEVERE"
                     and f"status of {status}" in m["message"]]
            assert found, (status, self.console)
            self.console.remove(found[0])

    def quit(self) -> None:
        """Close the browser as a person does (its console read first); the profile stays."""
        self.errors()
        self.driver.quit()
        self.closed = True

    def close(self) -> None:
        if not self.closed:
            self.quit()
        if self._own_profile:
            shutil.rmtree(self.profile, ignore_errors=True)


def preferred(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """What the tests' player chooses: raise when it may, accept what is asked, else the
    first card (stakes go up, so that a match ends in a few hands)."""
    for kind in ("raise", "accept"):
        for action in actions:
            if action["type"] == kind:
                return action
    return next(a for a in actions if not a.get("face_down"))


def play_turn(browser: Browser) -> bool:
    """Wait until the table offers something or the match is over; click one. False once
    the match is over."""
    def ready() -> str | None:
        table = browser.table()
        if table["status"] == "finished":
            return "over"
        return "act" if browser.actions() else None

    if browser.wait(ready, why="my turn or the end") == "over":
        return False
    browser.wait_current()
    if not browser.actions():
        return play_turn(browser)
    version = browser.table()["version"]
    browser.click_action(preferred(browser.actions()))
    browser.wait(lambda: browser.table()["version"] != version, why="the action's answer")
    return True
