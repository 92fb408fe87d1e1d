"""The main pages in WebKit at 390 px: none scrolls sideways, and the form fields look like the app's."""

from __future__ import annotations

from tests.browser.conftest import DIRECTOR_PASSWORD, running_server
from tests.browser.pages import EVENT_PLAYERS, LONG_NAME, LONG_WORD, main_pages, sideways
from tests.browser.test_phone_layout import BROKEN_WORDS, FIRST_SCREEN_GAMES
from tests.browser.webkit.test_webkit_game import save_leftovers, start_game


def director(phone, server: str) -> None:
    """Open the director's pages: set the password on a new server, else log in."""
    phone.goto(server + "/director/")
    if "/director/setup" in phone.url:
        phone.fill("#password", DIRECTOR_PASSWORD)
        phone.fill("#confirm", DIRECTOR_PASSWORD)
        phone.submit("button", "Set the password")
    elif "/director/login" in phone.url:
        phone.fill("#password", DIRECTOR_PASSWORD)
        phone.submit("button", "Log in")


def new_event(phone, server: str) -> str:
    phone.goto(server + "/director/events/new")
    phone.fill("#name", "Autumn Crates at the Boston Bridge Club")
    phone.fill("#held_on", "2026-11-22")
    phone.select("#scoring", "placement")
    phone.fill("#players", "\n".join(EVENT_PLAYERS))
    phone.submit("button", "Create the event")
    return phone.url


def test_no_main_page_scrolls_sideways_at_390_px(webkit, tmp_path):
    phone = webkit()
    with running_server(tmp_path) as server:
        _, view_url, record_url = start_game(phone, server, ["Ann", LONG_NAME, "Cy", LONG_WORD], partnerships=True)
        phone.submit("button.pressure", "Cy")
        for seat, keys in enumerate([("A", "3", "3", "6"), (), ("K",), ("8", "8")]):
            save_leftovers(phone, record_url, 1, seat, *keys)
        _, _, suited_url = start_game(phone, server, ["Ann", LONG_NAME, "Cy"], rules="two-fifty")
        director(phone, server)
        event_url = new_event(phone, server)

        overflowing = {}
        for name, url in main_pages(server, record_url, view_url, suited_url, event_url).items():
            phone.goto(url)
            overflowing[name] = sideways(phone)
            phone.shot(f"390-{name.replace(' ', '-')}")
        phone.submit("button", "Log out")
        phone.goto(server + "/director/login")
        overflowing["director login"] = sideways(phone)
        phone.shot("390-director-login")
    assert {name: problem for name, problem in overflowing.items() if problem} == {}


def test_selects_and_number_fields_are_drawn_by_the_app_not_by_webkit(server, webkit):
    """WebKit's own look is a grey select and a number field with spinners, unlike every other field."""
    phone = webkit()
    phone.goto(server + "/new")
    looks = phone.evaluate(
        """["#rules", "input[type=number]", "#title"].map(css => {
            const style = getComputedStyle(document.querySelector(css));
            return [style.webkitAppearance || style.appearance, style.backgroundColor, style.borderTopWidth];
        })"""
    )
    select, number, text = looks
    assert select[0] == "none" and number[0] == "textfield"
    assert select[1:] == number[1:] == text[1:]  # the app's background and border, as a text field has
    phone.shot("new-game-fields")


def _words_broken(phone, css: str) -> list[str]:
    return phone.evaluate(f"({BROKEN_WORDS})([...document.querySelectorAll({css!r})])")


def test_pressure_buttons_on_the_first_screen_names_whole_and_suits_under_their_rank(server, webkit):
    """Issue 29 in WebKit at 390 x 844: every PRESSURE button before any scrolling (five players, and four
    30-letter names in partnerships), no name broken inside a word, the 250 pad's suits under the rank
    that waits for one."""
    phone = webkit()
    for players, partnerships in (
        FIRST_SCREEN_GAMES["five players"],
        FIRST_SCREEN_GAMES["four 30-letter names in partnerships"],
    ):
        _, _, record_url = start_game(phone, server, players, partnerships=partnerships)
        outside = phone.evaluate(
            """[innerHeight, Array.from(document.querySelectorAll('button.pressure')).filter(b => {
                const r = b.getBoundingClientRect(); return r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth;
            }).map(b => b.innerText.replace(/\\s+/g, ' '))]"""
        )
        phone.shot(f"hand-first-screen-{len(players)}{'-pairs' if partnerships else ''}")
        assert outside[1] == [], f"off the first screen of {outside[0]} px: {outside[1]}"
        assert (
            _words_broken(phone, "main .deal, main table.totals th, main section[aria-label='One card owed'] button")
            == []
        )
        phone.goto(record_url + "hand/1/seat/0")
        phone.click("[data-out]")
        assert _words_broken(phone, "main .seat-tab, main [data-player-name], main [data-save]") == []
        assert sideways(phone) is None

    _, _, suited_url = start_game(phone, server, ["Ann", "Bob", "Cy", "Di"], rules="two-fifty")
    phone.goto(suited_url + "hand/1/seat/0")
    phone.click("[data-pad] button[data-card='Q']")
    phone.wait_until(lambda: phone.evaluate("!document.querySelector('[data-suits]').hidden"), "the suits to show")
    gap = phone.evaluate(
        """(() => { const key = document.querySelector("[data-pad] button[data-card='Q']").getBoundingClientRect();
            return document.querySelector('[data-suits]').getBoundingClientRect().top - key.bottom; })()"""
    )
    phone.shot("pad-250-q-waits")
    assert 0 <= gap <= 12, gap
