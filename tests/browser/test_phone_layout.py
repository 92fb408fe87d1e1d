"""Every screen at 360 px: no horizontal scrolling, every tap target at least 44 px, light and dark."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.tournament.seating import NAME_MAX_LENGTH
from tests.browser.conftest import MIN_TAP, as_director, assert_fits, enter_hand, keep_shot, running_server, submit
from tests.browser.conftest import start_game as start_any_game
from tests.browser.pages import EVENT_PLAYERS, LONG_NAME, LONG_WORD, main_pages, sideways


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
            keep_shot(page, f"chromium-390-{name.replace(' ', '-')}")
        submit(page, "button:has-text('Log out')")
        page.goto(server + "/director/login")
        overflowing["director login"] = sideways(page)
        keep_shot(page, "chromium-390-director-login")
    assert {name: problem for name, problem in overflowing.items() if problem} == {}
    assert {
        name: numbers for name, numbers in broken.items() if numbers
    } == {}  # a total never breaks beside a long name


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
        heads = table.evaluate(
            't => [...t.querySelectorAll("thead th, tbody th, tbody td")].map(c => Math.round(c.getBoundingClientRect().width))'
        )
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
    keep_shot(page, "hand-360-viewport")
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
    keep_shot(page, "hand-360-partnership-first-view")
    outside = page.evaluate(
        """() => Array.from(document.querySelectorAll('button.pressure, a.endhand'))
          .filter((b) => { const r = b.getBoundingClientRect(); return r.top < 0 || r.bottom > innerHeight; })
          .map((b) => b.textContent.replace(/\\s+/g, ' ').trim())"""
    )
    assert outside == [], outside


SIZES = [
    pytest.param({"width": 360, "height": 740}, id="360x740"),
    pytest.param({"width": 390, "height": 844}, id="390x844"),
]


@pytest.mark.parametrize("viewport", SIZES)
@pytest.mark.parametrize("rank", ["A", "Q"])
def test_the_250_pads_suits_sit_under_the_rank_that_waits_for_one(server, phone, shot, viewport, rank):
    """Seen on two evenings: the suits sat ~190 px above the rank waiting for one (below the whole
    pad before that). Now they are the pad's row under that rank's, in view, and gone once it has its suit."""
    page = phone(viewport=viewport)
    record_url = start_any_game(page, server, ["Ann", "Bob", "Cy", "Di"], rules="two-fifty")
    page.goto(record_url + "hand/1/seat/0")
    suits = page.locator("[data-suits]")
    expect(suits).to_be_hidden()  # nothing waits for a suit yet
    page.click(f".pad button[data-card='{rank}']")
    expect(suits).to_be_visible()
    key, row = page.locator(f".pad button[data-card='{rank}']").bounding_box(), suits.bounding_box()
    gap = row["y"] - (key["y"] + key["height"])
    assert 0 <= gap <= 12, f"the suits are {gap} px from the {rank} that waits for one: {key} {row}"
    assert row["y"] + row["height"] <= viewport["height"]  # the suit is in view when its rank waits
    shot(page, f"pad-250-{viewport['width']}-{rank}-waits")
    page.click("[data-suits] button[aria-label='diamonds']")
    expect(page.locator("[data-chips]")).to_have_text(f"{rank}\u2666")
    expect(suits).to_be_hidden()


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


#: Four names of 30 characters, the most a name may hold (one a single word), in partnerships.
THIRTY = [
    "Wolfeschlegelsteinhausenberger",
    "Maximiliana Vanderbilt-Okonkwo",
    "Konstantinopolskaya Alexandrov",
    "Christopherson Featherstonehau",
]
FIRST_SCREEN_GAMES = {
    "five players": (["Annabelle", "Bartholomew", "Cyrus", "Dimitra", "Edwina"], False),
    "five long names": (FIVE_LONG, False),
    "four 30-letter names in partnerships": (THIRTY, True),
}


@pytest.mark.parametrize("viewport", SIZES)
@pytest.mark.parametrize("game", list(FIRST_SCREEN_GAMES))
def test_every_pressure_button_is_on_the_first_screen(server, phone, viewport, game):
    """Issue 29: at 360 x 740 a five-player hand showed 2 of its 5 PRESSURE buttons before scrolling,
    four 30-letter names in partnerships none. Every one is on the first screen now, a big target."""
    players, partnerships = FIRST_SCREEN_GAMES[game]
    assert all(len(name) <= NAME_MAX_LENGTH for name in players)
    page = phone(viewport=viewport)
    start_any_game(page, server, players, partnerships=partnerships)
    keep_shot(page, f"hand-first-screen-{viewport['width']}-{game.replace(' ', '-')}")
    assert page.evaluate("scrollY") == 0
    boxes = [button.bounding_box() for button in page.locator("button.pressure").all()]
    assert len(boxes) == len(players)
    outside = [
        box
        for box in boxes
        if box["y"] < 0
        or box["y"] + box["height"] > viewport["height"]
        or box["x"] < 0
        or box["x"] + box["width"] > viewport["width"]
    ]
    assert outside == [], f"{len(outside)} of {len(boxes)} PRESSURE buttons off the first screen: {outside}"
    assert min(min(box["width"], box["height"]) for box in boxes) >= MIN_TAP


#: Every word of these elements' text on one line (a word's characters in one line box; a break after a
#: hyphen, "Vanderbilt-|Okonkwo", is between words), and any box whose content is cut shows an ellipsis.
BROKEN_WORDS = """els => els.flatMap(el => {
    const found = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/[^\\s-]+-*/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
        if (lines.size > 1) { found.push(`${el.tagName}.${el.className}: "${match[0]}" over ${lines.size} lines`); }
      }
    }
    for (const box of [el, ...el.querySelectorAll("*")]) {
      const style = getComputedStyle(box);
      if (box.closest(".visually-hidden") || style.display.startsWith("inline") && style.display !== "inline-block") { continue; }
      if (box.scrollWidth > box.clientWidth + 1 && style.textOverflow !== "ellipsis") {
        found.push(`${box.tagName}.${box.className}: "${box.textContent.trim()}" cut without an ellipsis`);
      }
    }
    return found;
})"""
#: Where a name shows, page by page (the record link's path).
NAMED = {
    "": [".deal", "table.totals th", "section[aria-label='One card owed'] button"],
    "scores": ["table.totals th", "[aria-label='Every hand'] thead th"],
    "hand/2/seat/0": [".seat-tab", "[data-player-name]", "[data-save]"],
    "history": [".history .what"],
}


@pytest.mark.parametrize("viewport", SIZES)
def test_a_long_name_breaks_between_words_and_a_long_word_ends_in_an_ellipsis(server, phone, shot, viewport):
    """Issue 29: "Konstantinop|olskaya" in the Scores headers, the dealer line, the one-card buttons,
    the pad's tabs and the History. A name breaks between its words; a word too long is shortened
    with "…", as on the PRESSURE buttons."""
    page = phone(viewport=viewport)
    record_url = start_any_game(page, server, THIRTY, partnerships=True)
    enter_hand(page, record_url, 1, ["K 3 8", "A 2", "Q Q 9", ""])
    broken = {}
    for path, selectors in NAMED.items():
        page.goto(record_url + path)
        if "seat" in path:
            page.click(".pad button[data-out]")  # a tab marked "(out)" beside its name, the Save naming two
        found = [problem for css in selectors for problem in page.locator(f"main {css}").evaluate_all(BROKEN_WORDS)]
        assert page.locator(f"main {selectors[0]}").count(), f"nothing matches {selectors[0]} on {path!r}"
        if found:
            broken[path] = found
        assert sideways(page) is None, path
        shot(page, f"names-{viewport['width']}-{path.replace('/', '-') or 'hand'}")
    assert broken == {}


def test_after_out_the_save_button_names_the_player_the_pad_shows(server, phone):
    """Issue 29: after OUT the pad showed Bob, its button still "Save Ann's leftovers". It names Bob
    now, and says what a tap saves: Ann's OUT without Bob's, until Bob's cards are tapped too."""
    page = phone(viewport={"width": 360, "height": 740})
    record_url = start_any_game(page, server, ["Ann", "Bob", "Cy", "Di"])
    page.goto(record_url + "hand/1/seat/0")
    save = page.locator("[data-save]")
    expect(save).to_have_text("Save Ann's leftovers")
    page.click(".pad button[data-out]")
    expect(page.locator("[data-player-name]")).to_have_text("Bob")
    expect(save).to_have_text("Save Ann's leftovers, without Bob's")
    page.click(".pad button[data-card='K']")
    expect(save).to_have_text("Save 2 players' leftovers")
    page.locator("[data-chips] button").first.click()  # Bob's K taken back
    expect(save).to_have_text("Save Ann's leftovers, without Bob's")
    submit(page, "[data-save]")
    page.goto(record_url + "hand/1/seat/2")
    entries = {
        tab.get_attribute("data-player"): tab.get_attribute("data-entry") for tab in page.locator(".seat-tab").all()
    }
    assert entries["Ann"] and not entries["Bob"], entries  # the tap saved what its button said
