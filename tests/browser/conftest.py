"""A real server (what `make run` runs) and Debian's Chromium at a phone's size, through Playwright.

Under CI (``CI=true``) a missing browser is a failure, never a skip.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench.servers import free_port

CHROMIUM = "/usr/lib/chromium/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
#: Screenshots are for looking at, never a test's verdict: kept only when ``SCOREKEEPER_SHOTS``
#: names a folder (`make shots` runs the browser tests so), since each costs the browser a frame's
#: encoding (0.18 s of CPU for a full page at a phone's size).
SHOTS_WANTED = bool(os.environ.get("SCOREKEEPER_SHOTS"))
SHOTS = Path(os.environ.get("SCOREKEEPER_SHOTS") or "/tmp/scorekeeper-shots")


#: The budget on new games (20 an hour from one network) lifted for the browser tests' servers.
UNLIMITED_STARTS = "START_LIMIT_PER_NETWORK = 10**6\nSTART_LIMIT_STARTED = 10**6\nSTART_LIMIT_IMPORTED = 10**6\n"


@contextmanager
def running_server(instance: Path, port: int | None = None) -> Iterator[str]:
    """`scorekeeper serve` (gunicorn, workers and threads) on a loopback port, with its own instance;
    ``port`` brings a stopped server back where its phones left it."""
    port = port or free_port()
    script = Path(sys.executable).parent / "scorekeeper"
    instance.mkdir(parents=True, exist_ok=True)
    settings = instance / "config.py"
    if not settings.exists():  # every test's games start from this machine: the budget is not what is tested here
        settings.write_text(UNLIMITED_STARTS)
    process = subprocess.Popen(
        [str(script), "serve", "--host", "127.0.0.1", "--port", str(port)],
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(instance)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=2).close()
            break
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                pytest.fail("the server did not start")
            time.sleep(0.1)
    try:
        yield base
    finally:
        process.terminate()
        process.wait(timeout=15)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("instance")) as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        message = f"Chromium is missing at {CHROMIUM}: `make test` installs it (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def phone(browser):
    """Open a new phone (its own cookies and storage); ``phone(color_scheme='dark')`` too."""
    contexts = []

    def open_phone(**overrides):
        context = browser.new_context(**{**PHONE, **overrides})
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


def keep_shot(page, name: str, full_page: bool = False) -> None:
    """A screenshot of a page (or of one element, a locator) in ``SHOTS``, when they are wanted."""
    if not SHOTS_WANTED:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), **({"full_page": True} if full_page else {}))


@pytest.fixture
def shot():
    """``shot(page, name)``: the whole page, when screenshots are wanted (``SHOTS_WANTED``)."""

    def take(page, name: str) -> None:
        keep_shot(page, name, full_page=True)

    return take


TAP_TARGETS = "main button, main .button, main .seat-tab, main summary, main input[type=checkbox], .gamenav a"
MIN_TAP = 44


def assert_fits(page, name: str) -> None:
    """No sideways scrolling at this width, and every visible tap target at least 44 px
    (a checkbox by its whole label, which is what a finger hits)."""
    overflow = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert overflow[0] <= overflow[1], f"{name} scrolls sideways: {overflow}"
    for target in page.locator(TAP_TARGETS).all():
        if not target.is_visible():
            continue
        box = target.bounding_box()
        label = re.sub(r"\s+", " ", target.inner_text() or target.get_attribute("name") or "")[:30]
        if target.evaluate("el => el.type === 'checkbox'"):
            box = target.evaluate("el => el.closest('label').getBoundingClientRect().toJSON()")
        assert box["height"] >= MIN_TAP and box["width"] >= MIN_TAP, f"{name}: '{label}' is {box}"


def submit(page, selector: str) -> None:
    """Tap a button that saves: the outbox sends it, then the page moves on."""
    with page.expect_navigation():
        page.click(selector)


def enter_hand(page, record_url: str, hand: int, leftovers: list[str]) -> None:
    """One phone enters everybody's leftovers, typing them (tapping is tested separately)."""
    for seat, cards in enumerate(leftovers):
        page.goto(f"{record_url}hand/{hand}/seat/{seat}")
        if cards:
            page.fill("#cards", cards)
        else:
            page.click(".pad button[data-out]")
        submit(page, "button[type=submit]:has-text('Save')")
        assert "Not saved" not in page.content()


def start_game(page, server: str, players: list[str], rules: str = "crates", partnerships: bool = False) -> str:
    """A game started on the start form as a player would; returns its record link (hand 1)."""
    page.goto(server + "/new")
    page.select_option("#rules", rules)
    if len(players) > 5:
        page.click("summary:has-text('More players')")
    for seat, name in enumerate(players):
        page.fill(f"#players-{seat}", name)
    if partnerships:
        page.check("#partnerships")
    page.click("button:has-text('Start the game')")
    with page.expect_navigation():  # the hand page loaded, style sheet and all, before anything is measured
        page.click("text=Go to hand 1")
    return page.url


DIRECTOR_PASSWORD = "correct horse battery"


def as_director(page, server: str, path: str) -> None:
    """Open ``path`` as the director: on a new server set the password, on one that has it, log in."""
    page.goto(server + path)
    if "/director/setup" in page.url:
        page.fill("#password", DIRECTOR_PASSWORD)
        page.fill("#confirm", DIRECTOR_PASSWORD)
        page.click("button:has-text('Set the password')")
    elif "/director/login" in page.url:
        page.fill("#password", DIRECTOR_PASSWORD)
        page.click("button:has-text('Log in')")
    page.wait_for_url(f"**{path}")


def one_table_round(director, server: str, name: str, players: tuple[str, ...] = ("Ann", "Bob", "Cy", "Di")) -> str:
    """As the director, on ``director``'s page: a new event of one round of one table, round 1
    seated; the record link of its table (the director's page stays on the event page)."""
    from playwright.sync_api import expect

    as_director(director, server, "/director/")
    director.click("text=New event")
    director.fill("#name", name)
    director.fill("#held_on", "2026-11-28")
    director.fill("#rounds", "1")
    director.fill("#players", "\n".join(players))
    director.click("button:has-text('Create the event')")
    expect(director.locator("button:has-text('Seat round 1')")).to_be_visible(timeout=30_000)
    director.click("button:has-text('Seat round 1')")
    expect(director.locator(".director-tables tbody tr")).to_have_count(1)
    return server + director.locator(".director-tables tbody tr >> nth=0 >> a").get_attribute("href")
