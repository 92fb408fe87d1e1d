"""A phone comes back online: the server's pages come back in place of those drawn from its copy,
by swapping the page's content, never by a navigation of its own, which would take the player
away from a link just tapped."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import start_game, submit

# The page's own requests for a leftovers page (follow.js's) answered 1.5 s late, as on a slow Wi-Fi.
SLOW_PAD = """() => {
  const fetched = window.fetch;
  window.padAsked = false;
  window.fetch = (url, options) => {
    if (!String(url).includes('/seat/')) { return fetched(url, options); }
    window.padAsked = true;
    return new Promise((resolve) => setTimeout(resolve, 1500)).then(() => fetched(url, options));
  };
}"""


def enter(page, record_url: str, seat: int, cards: str) -> None:
    page.goto(f"{record_url}hand/1/seat/{seat}")
    page.fill("#cards", cards)
    submit(page, "button[type=submit]:has-text('Save')")


def test_a_link_tapped_just_after_reconnecting_lands_where_tapped(server, phone):
    """Seen in a browser test: a page that came back online while left on a hand another phone had
    completed went on to the hand page by itself, and the page the player had just asked for was
    dropped on the way. Here the player taps Scores while the page is still catching up."""
    ann = phone(service_workers="block")  # the tapped page's request is held below, where a worker would hide it
    record_url = start_game(ann, server, ["Ann", "Bob", "Cy"])
    other = phone()
    enter(other, record_url, 0, "K")
    enter(other, record_url, 1, "9")
    ann.goto(f"{record_url}hand/1/seat/2")
    ann.wait_for_function("() => Object.keys(localStorage).some((key) => key.startsWith('scorekeeper:copy:'))")
    ann.context.set_offline(True)
    expect(ann.locator(".offline-banner")).to_be_visible()
    enter(other, record_url, 2, "5")  # the hand is complete, and Ann's phone does not know yet

    ann.evaluate(SLOW_PAD)
    ann.context.set_offline(False)
    expect(ann.locator("[data-live-status]")).to_have_text("● Live")
    ann.wait_for_function("() => window.padAsked")  # catching up: the leftovers page asked for again
    held = []
    ann.route("**/scores", lambda route: held.append(route))  # the tapped page is on its way while the page catches up
    ann.click(".gamenav a:has-text('Scores')", no_wait_after=True)
    ann.wait_for_timeout(2500)
    for route in held:
        route.continue_()
    expect(ann).to_have_url(record_url + "scores")
    expect(ann.locator("h1")).to_have_text("Scores")
    ann.wait_for_timeout(1000)
    expect(ann).to_have_url(record_url + "scores")


def test_back_after_reconnecting_shows_the_page_of_the_address_without_a_reload(server, phone):
    ann = phone()
    record_url = start_game(ann, server, ["Ann", "Bob", "Cy"])
    ann.wait_for_function("() => Object.keys(localStorage).some((key) => key.startsWith('scorekeeper:copy:'))")
    ann.evaluate("() => { window.sameDocument = true; }")
    ann.context.set_offline(True)
    expect(ann.locator(".offline-banner")).to_be_visible()
    ann.click(".gamenav a:has-text('Scores')")  # drawn from the copy, at its own address
    expect(ann.locator("h1")).to_have_text("Scores")
    ann.context.set_offline(False)
    expect(ann.locator("main:not([data-offline]) h1")).to_have_text("Scores")  # the server's page, in place

    ann.go_back()
    expect(ann).to_have_url(record_url)
    expect(ann.locator("main:not([data-offline]) .handhead h1")).to_contain_text("Hand 1")
    assert ann.evaluate("() => window.sameDocument === true"), "the page reloaded"
