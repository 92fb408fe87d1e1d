"""Every screen at 360 px: no horizontal scrolling, every tap target at least 44 px, light and dark."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS, as_director, assert_fits, enter_hand, running_server, submit
from .conftest import start_game as start_any_game
from .pages import EVENT_PLAYERS, LONG_NAME, LONG_WORD, main_pages, sideways


def start_game(page, server) -> tuple[str, str]:
    page.goto(server + "/new")
    for seat, name in enumerate(["Annabelle", "Bartholomew", "Cy", "Di", "Ed"]):
        page.fill(f"#players-{seat}", name)
    page.click("button:has-text('Start the game')")
    view_url = page.locator(".link a").get_attribute("href")
    page.click("text=Go to hand 1")
    record_url = page.url
    submit(page, "button.pressure:has-text('Cy')")
    enter_hand(page, record_url, 1, ["A 3 3 6", "", "K", "8 8", "10"])
    return record_url, view_url


def screens(record_url: str, view_url: str, server: str) -> dict[str, str]:
    return {
        "home": server + "/",
        "new": server + "/new",
        "join": server + "/join",
        "share": record_url + "share",
        "hand": record_url,
        "leftovers": record_url + "hand/2/seat/1",
        "hand-detail": record_url + "hand/1",
        "scores": record_url + "scores",
        "history": record_url + "history",
        "view": view_url,
        "blank-sheet": server + "/blank-sheet",
        "rules": server + "/rules?rules=crates&jokers=y",
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_fits_a_small_phone_with_big_tap_targets(server, phone, shot, scheme):
    setup = phone()
    record_url, view_url = start_game(setup, server)
    page = phone(viewport={"width": 360, "height": 740}, color_scheme=scheme)
    for name, url in screens(record_url, view_url, server).items():
        page.goto(url)
        for summary in page.locator("details summary").all():
            summary.click()
        assert_fits(page, name)
        shot(page, f"{scheme}-{name}")


BROKEN_NUMBERS = """els => els.filter(el => { const r = document.createRange(); r.selectNodeContents(el);
    return r.getClientRects().length > 1; }).map(el => el.textContent.trim())"""


def test_no_main_page_scrolls_sideways_at_390_px(phone, tmp_path):
    """The same pages as WebKit's check (tests/browser/webkit/test_webkit_layout.py), the director's too."""
    page = phone()
    with running_server(tmp_path) as server:
        page.goto(server + "/new")
        for seat, name in enumerate(["Ann", LONG_NAME, "Cy", LONG_WORD]):
            page.fill(f"#players-{seat}", name)
        page.check("#partnerships")
        page.click("button:has-text('Start the game')")
        view_url = page.locator(".link a").get_attribute("href")
        page.click("text=Go to hand 1")
        record_url = page.url
        submit(page, "button.pressure:has-text('Cy')")
        enter_hand(page, record_url, 1, ["A 3 3 6", "", "K", "8 8"])
        suited_url = start_any_game(page, server, ["Ann", LONG_NAME, "Cy"], "two-fifty")
        as_director(page, server, "/director/")
        page.goto(server + "/director/events/new")
        page.fill("#name", "Autumn Crates at the Boston Bridge Club")
        page.fill("#held_on", "2026-11-22")
        page.select_option("#scoring", "placement")
        page.fill("#players", "\n".join(EVENT_PLAYERS))
        page.click("button:has-text('Create the event')")
        page.wait_for_url(re.compile(r"/director/events/\d+$"))
        event_url = page.url

        overflowing, broken = {}, {}
        for name, url in main_pages(server, record_url, view_url, suited_url, event_url).items():
            page.goto(url)
            overflowing[name] = sideways(page)
            broken[name] = page.locator(".totals .num").evaluate_all(BROKEN_NUMBERS)
            page.screenshot(path=str(SHOTS / f"chromium-390-{name.replace(' ', '-')}.png"))
        submit(page, "button:has-text('Log out')")
        page.goto(server + "/director/login")
        overflowing["director login"] = sideways(page)
        page.screenshot(path=str(SHOTS / "chromium-390-director-login.png"))
    assert {name: problem for name, problem in overflowing.items() if problem} == {}
    assert {name: numbers for name, numbers in broken.items() if numbers} == {}  # a total never breaks beside a long name


def test_every_sides_points_show_on_the_scores_page_at_360_without_swiping(server, phone, shot):
    """Seen in a first evening: with long names the hand-by-hand table showed the first side's column
    only, the other behind a sideways swipe nothing hinted at. Every side is on the screen now, for
    two partnerships of 30-character names and for five players alone."""
    names = [
        "Maximiliana Vanderbilt-Okonkwo",
        "Bartholomew Okonkwo-Smithfield",
        "Christopherson Featherstonehau",
        "Wolfeschlegelsteinhausenberger",
        "Annabelle Lee Fitzgerald-Brown",
    ]
    for players, partnerships in ((names[:4], True), (names, False)):
        page = phone(viewport={"width": 360, "height": 740})
        page.goto(server + "/new")
        for seat, name in enumerate(players):
            page.fill(f"#players-{seat}", name)
        if partnerships:
            page.check("#partnerships")
        page.click("button:has-text('Start the game')")
        with page.expect_navigation():
            page.click("text=Go to hand 1")
        record_url = page.url
        enter_hand(page, record_url, 1, ["K 3 8", "A 2", "Q Q 9", "5"][: len(players)] + [""] * (len(players) - 4))
        page.goto(record_url + "scores")
        table = page.locator(".scroll table.grid").first
        widths = table.evaluate("t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
        heads = table.evaluate("t => [...t.querySelectorAll(\"thead th, tbody th, tbody td\")].map(c => Math.round(c.getBoundingClientRect().width))")
        assert widths[0] <= widths[1], f"the table scrolls sideways ({len(players)} players): {widths} {heads}"
        for cell in table.locator("tfoot td").all():
            box = cell.bounding_box()
            assert box and box["x"] + box["width"] <= 360, f"a side's total is off the screen: {box}"
        shot(page, f"scores-360-{len(players)}-{'pairs' if partnerships else 'alone'}")


def test_a_games_links_take_one_row_at_360(server, phone):
    """Every game page's links (Hand, Scores, History, Share, Print) on one row on a small phone:
    a second row pushed the second side's PRESSURE buttons toward the END HAND bar."""
    page = phone(viewport={"width": 360, "height": 740})
    start_any_game(page, server, ["Ann", "Bob", "Cy", "Di"])
    tops = {round(box["y"]) for box in (link.bounding_box() for link in page.locator(".gamenav a").all())}
    assert len(tops) == 1, tops


FIVE_LONG = ["Maximiliana Vanderbilt-Okonk", "Bartholomew Featherstonehaug", "Cy", "Di", "Wolfeschlegelsteinhausenber"]


def _covered_by_end_hand(page) -> list[str]:
    """The tap targets the sticky END HAND bar hides, wholly or in part, as the page first shows."""
    return page.evaluate(
        """() => {
        const bar = document.querySelector('a.endhand').getBoundingClientRect();
        return Array.from(document.querySelectorAll('button.pressure, .pending button'))
          .filter((b) => { const r = b.getBoundingClientRect(); return r.bottom > bar.top && r.top < bar.bottom; })
          .map((b) => b.textContent.replace(/\\s+/g, ' ').trim());
    }"""
    )


def test_the_end_hand_bar_never_hides_a_pressure_button_at_360(server, phone, shot):
    """Seen on a first evening at 360 x 740: PRESSURE buttons half behind the sticky END HAND bar
    (five players with long names), and, with five pressures in the hand, the last one's Undo."""
    page = phone(viewport={"width": 360, "height": 740})
    record_url = start_any_game(page, server, FIVE_LONG)
    shot(page, "hand-360-five-long-names")
    page.screenshot(path="/tmp/scorekeeper-shots/hand-360-viewport.png")
    assert _covered_by_end_hand(page) == []
    for player in FIVE_LONG:
        submit(page, f"button.pressure:has-text('{player.split()[0]}')")
    page.goto(record_url)
    hidden = _covered_by_end_hand(page)
    shot(page, "hand-360-five-pressures")
    assert hidden == [], hidden


def test_a_partnership_hand_shows_every_pressure_and_the_end_of_the_hand_without_scrolling(server, phone, shot):
    page = phone(viewport={"width": 360, "height": 740})
    start_any_game(page, server, ["Annabelle", "Bartholomew", "Cyrus", "Dimitra"], partnerships=True)
    page.screenshot(path=str(SHOTS / "hand-360-partnership-first-view.png"))
    outside = page.evaluate(
        """() => Array.from(document.querySelectorAll('button.pressure, a.endhand'))
          .filter((b) => { const r = b.getBoundingClientRect(); return r.top < 0 || r.bottom > innerHeight; })
          .map((b) => b.textContent.replace(/\\s+/g, ' ').trim())"""
    )
    assert outside == [], outside


def test_the_250_pads_suits_sit_by_the_rank_that_waits_for_one(server, phone):
    """Seen on a first evening: the suits were below the whole rank pad, far from the rank waiting."""
    page = phone(viewport={"width": 360, "height": 740})
    record_url = start_any_game(page, server, ["Ann", "Bob", "Cy", "Di"], rules="two-fifty")
    page.goto(record_url + "hand/1/seat/0")
    page.click(".pad button[data-card='Q']")
    chip, suits, ranks = (page.locator(css).bounding_box() for css in (".chip.waiting", "[data-suits]", "[data-pad]"))
    assert chip["y"] < suits["y"] < ranks["y"], (chip, suits, ranks)
    assert suits["y"] + suits["height"] <= 740  # the suit is in view when its rank waits


def test_a_30_letter_word_breaks_in_the_saved_line_and_the_hands_pressures_at_360(server, phone, shot):
    """Seen in a fresh-clone check: "✓ Pressure to Wolfeschlegelsteinhausenberger" beside its Undo,
    and the same name in the hand's list of pressures, pushed the hand page sideways at 360 px, on
    the server's page and on the one the phone draws offline."""
    page = phone(viewport={"width": 360, "height": 740})
    start_any_game(page, server, [LONG_WORD, "Bob", "Cy"])
    page.wait_for_function("() => Object.keys(localStorage).some((key) => key.startsWith('scorekeeper:copy:'))")
    submit(page, f"button.pressure:has-text('{LONG_WORD[:12]}')")
    expect(page.locator(".saved")).to_contain_text(LONG_WORD)
    expect(page.locator(".pending li")).to_have_count(1)
    shot(page, "hand-360-long-word-saved")
    assert sideways(page) is None, "the server's hand page scrolls sideways"

    page.context.set_offline(True)
    expect(page.locator(".offline-banner")).to_be_visible()
    page.click("button.pressure:has-text('Bob')")
    expect(page.locator(".pending li")).to_have_count(2)
    expect(page.locator(".pending li").last).to_contain_text("waiting")
    shot(page, "hand-360-long-word-offline")
    assert sideways(page) is None, "the hand page drawn offline scrolls sideways"
