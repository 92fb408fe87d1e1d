"""The home page's "Games on this phone": a game can be forgotten there, its copy and the pages the
service worker kept of it taken off the phone; and the page says so when the server cannot be
reached (the games on the phone still open, a new game needs the server)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARGS, CHROMIUM, PHONE, free_port, running_server, start_game
from tests.browser.test_accessibility import axe_violations

NOTICE = "Offline: games on this phone still open; new games need the server."
HOST = "table.test"
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
HOLDS_COPY = "(base) => localStorage.getItem('scorekeeper:copy:' + base) !== null"
KEPT_PAGES = """async (base) => {
  const found = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) {
      if (new URL(request.url).pathname.startsWith(base)) { found.push(request.url); }
    }
  }
  return found;
}"""


@pytest.fixture
def plain_http_phone(browser):
    """A phone reaching the server by a host name over plain http, as on the room's Wi-Fi: no
    service worker (test_table_without_server.py's phone, for the home page)."""
    launched = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"]
    )
    context = launched.new_context(**PHONE)
    context.set_default_timeout(10_000)
    yield context.new_page()
    launched.close()


def open_through_the_worker(page, record_url: str) -> str:
    """The game's pages opened once the service worker controls the phone, which keeps them."""
    page.wait_for_function(CONTROLLED)
    base = urlsplit(record_url).path
    for path in ("scores", ""):
        page.goto(record_url + path)
    page.wait_for_function(HOLDS_COPY, arg=base)
    assert page.evaluate(KEPT_PAGES, base), "the worker kept none of the game's pages"
    return base


def test_forget_this_game_asks_then_takes_its_copy_and_kept_pages_off_the_phone(server, phone, shot):
    page = phone(viewport={"width": 360, "height": 740})
    record_url = start_game(page, server, ["Ann", "Bob", "Cy"])
    base = open_through_the_worker(page, record_url)

    page.goto(server + "/")
    game = page.locator("[data-my-games] li", has_text="Ann, Bob, Cy")
    game.get_by_role("button", name="Forget this game").click()
    expect(game.locator(".ask")).to_contain_text("Forget this game on this phone?")
    expect(game.locator(".ask")).to_contain_text("its record link still opens it")
    shot(page, "home-forget-this-game-360")
    game.get_by_role("button", name="Keep it").click()  # asked, and kept
    expect(game.locator(".ask")).to_have_count(0)
    assert page.evaluate(HOLDS_COPY, base) and page.evaluate(KEPT_PAGES, base)

    game.get_by_role("button", name="Forget this game").click()
    game.get_by_role("button", name="Yes, forget it").click()
    expect(page.locator("[data-my-games]")).to_be_hidden()
    assert not page.evaluate(HOLDS_COPY, base)
    assert page.evaluate(KEPT_PAGES, base) == []
    page.reload()
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("[data-my-games]")).to_be_hidden()

    page.goto(record_url)  # the game itself stays on the server
    expect(page.locator(".handhead h1")).to_contain_text("Hand 1")


def test_the_home_page_says_when_the_connection_is_lost_and_when_it_is_back(server, phone):
    page = phone()
    page.goto(server + "/")
    page.wait_for_function(CONTROLLED)  # the service worker keeps the pages of the games on the phone
    notice = page.locator("[data-offline-notice]")
    expect(notice).to_be_hidden()
    page.context.set_offline(True)
    expect(notice).to_have_text(NOTICE)
    page.context.set_offline(False)
    expect(notice).to_be_hidden()


def test_the_home_page_from_the_workers_copy_says_the_server_is_gone_and_its_games_open(phone, tmp_path, shot):
    """The server stopped, the phone's network fine: the home page comes from the service worker,
    says it is offline, and a game on the phone forgotten there takes its unsent change with it."""
    page = phone(viewport={"width": 360, "height": 740})
    with running_server(tmp_path) as server:
        record_url = start_game(page, server, ["Ann", "Bob", "Cy"])
        base = open_through_the_worker(page, record_url)
    page.click("button.pressure:has-text('Bob')")  # kept on the phone: the server is gone
    expect(page.locator(".offline-banner")).to_contain_text("1 change waiting")

    page.goto(server + "/")
    expect(page.locator("[data-offline-notice]")).to_have_text(NOTICE)
    game = page.locator("[data-my-games] li", has_text="Ann, Bob, Cy")
    expect(game.get_by_role("link")).to_have_attribute("href", base)
    shot(page, "home-offline-360")
    assert axe_violations(page) == []
    game.get_by_role("button", name="Forget this game").click()
    expect(game.locator(".ask")).to_contain_text("its 1 change not yet sent with them")
    game.get_by_role("button", name="Yes, forget it").click()
    expect(page.locator("[data-my-games]")).to_be_hidden()
    assert page.evaluate("() => JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]')") == []
    assert page.evaluate(KEPT_PAGES, base) == []


def test_start_and_join_say_they_need_the_server_instead_of_the_browsers_error_page(phone, tmp_path, shot):
    """At a secure origin, the home page from the worker's copy led Start a game and Join with a code
    to the browser's error page, and an app opened from the home screen has no Back button."""
    page = phone()
    port = free_port()
    with running_server(tmp_path, port) as server:
        record_url = start_game(page, server, ["Ann", "Bob", "Cy"])
        open_through_the_worker(page, record_url)
        page.goto(server + "/")
        page.evaluate("() => { window.sameDocument = true; }")
    for link in ("Start a game", "Join with a code"):
        page.get_by_role("link", name=link).click()
        expect(page.locator("[data-needs-server]")).to_have_text(
            f"“{link}” needs the server, which cannot be reached: try again once it is back."
        )
        expect(page.locator("[data-offline-notice]")).to_have_text(NOTICE)
        assert page.url == server + "/"
        assert page.evaluate("() => window.sameDocument === true"), "the page was left"
    shot(page, "home-needs-server")
    assert axe_violations(page) == []
    with running_server(tmp_path, port):  # back: the link is a link again
        with page.expect_navigation():
            page.get_by_role("link", name="Start a game").click()
        assert page.url == server + "/new"


def test_at_a_plain_http_address_the_home_page_does_not_promise_what_it_cannot_open(plain_http_phone, server):
    """Without a service worker (plain http on the room's Wi-Fi) a game's page opens only from the
    server: the notice says what still works."""
    page = plain_http_phone
    page.goto(server.replace("127.0.0.1", HOST) + "/")
    assert page.evaluate("isSecureContext") is False
    page.context.set_offline(True)
    expect(page.locator("[data-offline-notice]")).to_have_text(
        "Offline: a game's page left open plays on; opening a game, or a new one, needs the server at this address."
    )
