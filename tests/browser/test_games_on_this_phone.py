"""The home page's "Games on this phone": a game can be forgotten there, its copy and the pages the
service worker kept of it taken off the phone."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import expect

from .conftest import start_game

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
