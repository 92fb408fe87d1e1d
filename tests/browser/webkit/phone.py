"""A phone running WebKit (Safari's engine), driven through Selenium: a few verbs the tests read by.

WebKit's driver keeps no console log, so every page gets an error hook (uncaught errors and rejected
promises), read back before and after each step; a test ends by asserting nothing was caught.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.client_config import ClientConfig
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.select import Select

WAIT = 10.0
COMMAND_TIMEOUT = 60.0
SHOT_TIMEOUT = 15.0

# Installed once per document; returns (and forgets) what was caught since the last call.
ERROR_HOOK = """
if (!window.__caught) {
  window.__caught = [];
  addEventListener("error", e => window.__caught.push(`${e.message} (${e.filename}:${e.lineno})`));
  addEventListener("unhandledrejection", e => window.__caught.push(`unhandled rejection: ${e.reason}`));
}
return [location.href, window.__caught.splice(0)];
"""
NEXT_FRAME = "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(done));"


class Phone:
    """One WebKit window at a phone's size, with its own cookies and storage."""

    def __init__(self, driver: WebDriver, config: ClientConfig, name: str, shots: Path | None) -> None:
        """``shots``: the folder screenshots go to, None when they are not wanted."""
        self.driver = driver
        self.config = config
        self.name = name
        self.shots = shots
        self.errors: list[str] = []

    # What the page is
    @property
    def url(self) -> str:
        return self.driver.current_url

    def evaluate(self, script: str) -> Any:
        """The value of a JavaScript expression on the page (as Playwright's ``page.evaluate``)."""
        return self._hooked(lambda: self.driver.execute_script(f"return ({script});"))

    def find(self, css: str, text: str = "") -> WebElement:
        """The first element matching ``css`` whose text contains ``text``, waiting for it to appear."""
        found: list[WebElement] = []

        def present() -> bool:
            # innerText, not WebDriver's visible text: WebKit's driver leaves out a word in an
            # inline-block that clips its overflow (a long name on a PRESSURE button), though it shows.
            found[:] = [
                el for el in self.driver.find_elements(By.CSS_SELECTOR, css) if text in el.get_property("innerText")
            ]
            return bool(found)

        self.wait_until(present, f"{css} with text {text!r}")
        return found[0]

    # innerText throughout: a name's words are inline-blocks that clip their overflow (shortened with
    # "…"), and WebKit's driver leaves them out of an element's visible text though they show.
    def text(self, css: str) -> str:
        return str(self.find(css).get_property("innerText"))

    def texts(self, css: str) -> list[str]:
        return [str(el.get_property("innerText")) for el in self.driver.find_elements(By.CSS_SELECTOR, css)]

    def value(self, css: str) -> str:
        return self.find(css).get_attribute("value") or ""

    def attribute(self, css: str, name: str) -> str:
        return self.find(css).get_attribute(name) or ""

    def count(self, css: str) -> int:
        return len(self.driver.find_elements(By.CSS_SELECTOR, css))

    # What a person does
    def goto(self, url: str) -> None:
        self._hooked(lambda: self.driver.get(url))

    def click(self, css: str, text: str = "") -> None:
        self._hooked(lambda: self._click(css, text))

    def fill(self, css: str, value: str) -> None:
        def fill() -> None:
            field = self.find(css)
            field.clear()
            field.send_keys(value.replace("\n", Keys.ENTER))  # WebKit's driver types no "\n"

        self._hooked(fill)

    def select(self, css: str, value: str) -> None:
        self._hooked(lambda: Select(self.find(css)).select_by_value(value))

    def submit(self, css: str, text: str = "") -> None:
        """Tap a button that saves or moves on, and wait for the next page (the outbox sends it first)."""
        self._hooked(lambda: self.driver.execute_script("window.__before = true;"))
        self._hooked(lambda: self._click(css, text))
        self.wait_until(
            lambda: self.driver.execute_script("return !window.__before && document.readyState === 'complete';"),
            f"a new page after tapping {css} {text!r}",
        )
        self._hooked(lambda: None)

    # Waiting
    def wait_until(self, condition: Callable[[], Any], what: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if condition():
                    return
            except (StaleElementReferenceException, WebDriverException):
                pass  # the page changed under the check: look again
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: waited {timeout:.0f} s for {what} on {self.driver.current_url}")
            time.sleep(0.1)

    def wait_text(self, css: str, text: str, timeout: float = WAIT) -> None:
        self.wait_until(
            lambda: any(text in el.get_property("innerText") for el in self.driver.find_elements(By.CSS_SELECTOR, css)),
            f"{css} to contain {text!r}",
            timeout,
        )

    def wait_hidden(self, css: str, timeout: float = WAIT) -> None:
        self.wait_until(
            lambda: not any(el.is_displayed() for el in self.driver.find_elements(By.CSS_SELECTOR, css)),
            f"{css} to be hidden",
            timeout,
        )

    # Evidence
    def shot(self, name: str) -> None:
        """A screenshot of what the window shows, when they are wanted; one that
        hangs (WebKit sometimes does) is given up on."""
        self.driver.execute_async_script(NEXT_FRAME)
        if self.shots is None:
            return
        self.shots.mkdir(parents=True, exist_ok=True)
        self.config.timeout = SHOT_TIMEOUT
        try:
            self.driver.save_screenshot(str(self.shots / f"webkit-{name}.png"))
        except Exception as error:  # noqa: BLE001 - a screenshot is evidence, never the test's verdict
            (self.shots / f"webkit-{name}.failed.txt").write_text(f"{type(error).__name__}: {error}\n")
        finally:
            self.config.timeout = COMMAND_TIMEOUT

    def collect_errors(self) -> list[str]:
        self._hooked(lambda: None)
        return self.errors

    def _click(self, css: str, text: str) -> None:
        element = self.find(css, text)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()

    def _hooked(self, step: Callable[[], Any]) -> Any:
        self._catch()
        result = step()
        self._catch()
        return result

    def _catch(self) -> None:
        try:
            where, caught = self.driver.execute_script(ERROR_HOOK)
        except WebDriverException:
            return  # between two documents: the next step installs the hook
        self.errors.extend(f"{where}: {message}" for message in caught)
