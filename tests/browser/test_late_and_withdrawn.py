"""The director's evening as it goes: a player leaves after round 1, another arrives for round 2; and the
director's pages and the wall screen as they read then on a phone (360 and 390 px) and on a TV."""

from playwright.sync_api import expect

from tests.browser.conftest import as_director, assert_fits, enter_hand
from tests.browser.test_accessibility import axe_violations
from tests.browser.test_director import LAPTOP

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def test_a_withdrawal_and_a_late_arrival_after_round_one_seat_round_two_and_the_standings_show_both(
    server, phone, shot
):
    director = phone(**LAPTOP)
    as_director(director, server, "/director/")
    director.click("text=New event")
    director.fill("#name", "Late Crates")
    director.fill("#held_on", "2026-11-25")
    director.fill("#rounds", "3")
    director.fill("#players", "\n".join(PLAYERS))
    director.click("button:has-text('Create the event')")
    expect(director.locator("text=Repeated meetings")).to_be_visible(timeout=30_000)
    event_url = director.url
    director.click("button:has-text('Seat round 1')")
    expect(director.locator(".director-tables tbody tr")).to_have_count(2)

    # Round 1 is played (a hand at each table), and the director closes both tables.
    table_url = director.locator(".director-tables tbody tr >> nth=0 >> a").get_attribute("href")
    first_table = director.locator(".director-tables tbody tr >> nth=0 >> a").inner_text().split(", ")
    player = phone()
    enter_hand(player, f"{server}{table_url}", 1, ["", "K", "8", "A"])
    second_url = director.locator(".director-tables tbody tr >> nth=1 >> a").get_attribute("href")
    enter_hand(phone(), f"{server}{second_url}", 1, ["", "Q", "9", "2"])
    for row in (0, 1):
        director.goto(director.url)
        director.locator(f".director-tables tbody tr >> nth={row} >> button:has-text('Lock')").click()
        director.click("button:has-text('Lock it as it stands')")  # not finished: asked first
    leaving = "Bob"

    director.select_option("#withdraw-name", leaving)
    director.fill("#withdraw-from_round", "2")
    director.fill("#withdraw-reason", "train home")
    director.click("button:has-text('Withdraw')")
    director.fill("#late-name", "Ivy")
    director.fill("#late-from_round", "2")
    director.click("button:has-text('Add the player')")
    expect(director.locator(".event-history")).to_contain_text(f"{leaving} withdrawn from round 2 on · train home")
    expect(director.locator(".event-history")).to_contain_text("Ivy added, playing from round 2")
    expect(director.locator("text=Repeated meetings")).to_be_visible(timeout=30_000)
    proposal = director.locator("#tables").input_value()
    assert "Ivy" in proposal and leaving not in proposal
    director.click("button:has-text('Seat round 2')")
    expect(director.locator(".director-tables tbody tr")).to_have_count(4)
    shot(director, "director-late-and-withdrawn")

    director.locator("a.button", has_text="Standings").first.click()
    rows = director.locator(".standings-grid tbody tr")
    expect(rows).to_have_count(9)
    # Ivy has no complete round yet: no place, no total (a 0 would read as the best), listed last, her table under her name.
    ivy = rows.nth(8)
    expect(ivy).to_contain_text("Ivy")
    expect(ivy.locator("td").first).to_have_text("—")
    expect(ivy.locator("td.num").first).to_have_text("—")
    expect(ivy.locator(".under-way")).to_contain_text("round 2")
    expect(ivy).to_contain_text("+1\u00a0missed")
    # Bob withdrew: marked so, ranked with the rest (the event's default), with nothing under way.
    bob = rows.filter(has_text=leaving)
    expect(bob).to_contain_text(f"{leaving} (withdrew after round 1)")
    expect(bob.locator("td").first).not_to_have_text("—")
    expect(bob.locator(".under-way")).to_have_count(0)
    # Round 1 is complete, its tables locked after hand 1 and prorated by default: the 8 held at
    # table 1 counts 50 for its holder over 8 of the game's 71 cards, 50 × 71 ÷ 8 = 443.75 → 444.
    holder = first_table[2]
    expect(rows.filter(has_text=holder).locator("td.num").first).to_have_text("444")
    expect(rows.filter(has_text=holder).locator(".how")).to_have_text(
        "round 1: locked after hand 1 of 15, prorated: 50 × 71 ÷ 8 cards = 444"
    )
    shot(director, "standings-late-and-withdrawn")

    # Round 1's tables are locked: the event page says so, and after which hand each result stands.
    director.goto(event_url)
    progress = director.locator(".director-tables tbody tr td.progress")
    expect(progress).to_have_text(["locked after hand 1 of 15, prorated"] * 2 + ["hand 1 of 15"] * 2)
    wall_url = director.locator("a:has-text('Wall screen')").get_attribute("href")
    for width, height in ((360, 740), (390, 844)):
        phone_pages_read_without_swiping(phone, shot, server, event_url, wall_url, width, height)
    wall_on_a_tv(phone, shot, wall_url)


# Which of a row's first cells (place, player, total) reach past the screen's right edge.
PAST_THE_EDGE = """(rows, width) => rows.flatMap(row => [...row.cells].slice(0, 3)
    .filter(cell => cell.getBoundingClientRect().right > width + 0.5).map(cell => cell.textContent.trim()))"""
# Headings whose words take more than one line (a heading broken mid-word, "Pla/ce/me/nt", does).
BROKEN_HEADINGS = """ths => ths.filter(th => th.getClientRects().length).filter(th => {
    const range = document.createRange(); range.selectNodeContents(th);
    return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size > 1; }).map(th => th.textContent)"""
SWIPES = "region => region.scrollWidth > region.clientWidth"


def phone_pages_read_without_swiping(phone, shot, server, event_url, wall_url, width, height):
    """Seen by a tester at 360 and 390 px: standings headings broken mid-word, the totals and the round under way
    behind a sideways swipe (on the wall too, each row some 270 px tall), and the event page's tables cut at their
    progress with Lock off the screen. Each now reads on the screen, and axe finds nothing."""
    page = phone(viewport={"width": width, "height": height}, bypass_csp=True)
    as_director(page, server, event_url.removeprefix(server))
    assert not page.locator("[aria-label=Tables]").evaluate(SWIPES), "the tables scroll sideways"
    assert_fits(page, f"event page at {width}")
    for row in page.locator(".director-tables tbody tr").all():
        box = row.locator("button").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["height"] >= 44, box
        progress = row.locator("td.progress").bounding_box()
        assert progress["x"] + progress["width"] <= width, progress
    assert axe_violations(page) == []
    shot(page, f"event-late-and-withdrawn-{width}")
    for name, url in (("standings", event_url + "/standings"), ("wall", wall_url)):
        page.goto(url)
        rows = page.locator(".standings-grid tbody tr")
        expect(rows).to_have_count(9)
        assert not page.locator("[aria-label=Standings]").evaluate(SWIPES), f"the {name} scroll sideways at {width}"
        assert rows.evaluate_all(PAST_THE_EDGE, width) == [], f"{name} at {width}"
        assert page.locator(".standings-grid thead th").evaluate_all(BROKEN_HEADINGS) == [], f"{name} at {width}"
        ivy = rows.filter(has_text="Ivy")
        expect(ivy.locator(".under-way")).to_be_visible()
        expect(ivy.locator(".tie-breaks")).to_have_text(
            "placement\u00a0— · wins\u00a0— · tables\u00a00 (+1\u00a0missed)"
        )
        assert (
            ivy.locator(".under-way").bounding_box()["x"] + ivy.locator(".under-way").bounding_box()["width"] <= width
        )
        # A short table's explanation under a name ("round 1: locked after hand 1 of 15, prorated: …") is
        # extra lines the director asked for; the row without it stays as short as before.
        explained = (
            "row => Math.max(0, ...[...row.querySelectorAll('.how')].map(how => how.getBoundingClientRect().height))"
        )
        tallest = max(row.bounding_box()["height"] - row.evaluate(explained) for row in rows.all())
        assert tallest < 140, f"{name} rows too tall at {width}: {tallest}"
        assert axe_violations(page) == [], f"{name} at {width}"
        shot(page, f"{name}-late-and-withdrawn-{width}")


def wall_on_a_tv(phone, shot, wall_url):
    """Seen by a tester at 1920 x 1080: 19 players took 1503 px, the headings tiny beside the rows. The rows fit
    the screen now (in pages, when there are more than fit: tests/browser/test_wall_pages.py), the headings in
    proportion, the round under way in a column of its own."""
    tv = phone(viewport={"width": 1920, "height": 1080}, is_mobile=False, has_touch=False, device_scale_factor=1)
    tv.goto(wall_url)
    rows = tv.locator(".standings-grid tbody tr")
    expect(rows).to_have_count(9)
    expect(rows.filter(has_text="Ivy").locator("td.playing")).to_be_visible()
    expect(rows.filter(has_text="Ivy").locator(".under-way")).to_be_hidden()
    lowest = max(row.bounding_box()["y"] + row.bounding_box()["height"] for row in rows.all())
    assert lowest <= 1080, lowest
    expect(tv.locator("[data-wall-page]")).to_be_hidden()  # every row on the one screen: no pages to say
    size = "el => parseFloat(getComputedStyle(el).fontSize)"
    heading, cell = (
        tv.locator(".standings-grid thead th").first.evaluate(size),
        rows.first.locator("td").first.evaluate(size),
    )
    assert cell >= 24 and heading >= 0.6 * cell, (heading, cell)
    assert not tv.locator("[aria-label=Standings]").evaluate(SWIPES)
    shot(tv, "wall-late-and-withdrawn-1920")


def test_on_a_phone_a_question_or_a_refusal_opens_where_it_is_not_at_the_top(server, phone, shot):
    """Seen on a phone: the lock question sat 900 px down the page, a seating refusal 2,700 px
    and a reason's 5,800, each below the fold of a page that reloaded at its top."""
    director = phone()  # 360 x 740
    as_director(director, server, "/director/")
    director.goto(server + "/director/events/new")
    director.fill("#name", "Phone Crates")
    director.fill("#rounds", "3")
    director.fill("#players", "\n".join(PLAYERS))
    director.click("button:has-text('Create the event')")
    expect(director.locator("text=Repeated meetings")).to_be_visible(timeout=30_000)
    director.click("button:has-text('Seat round 1')")
    expect(director.locator(".flash.ok")).to_be_in_viewport()  # done: the page opens at its top

    director.locator(".director-tables tbody tr >> nth=0 >> button:has-text('Lock')").click()
    question = director.locator("[role=alert]", has_text="has not finished")
    expect(question).to_be_in_viewport()
    shot(director, "phone-lock-question")
    director.click("button:has-text('Lock it as it stands')")
    expect(director.locator(".flash.ok")).to_be_in_viewport()

    director.fill("#tables", "Ann, Bob, Nobody, Di")
    director.click("button:has-text('Seat round 2')")
    expect(director.locator("#seat-round ~ form .error", has_text="anyway?")).to_be_in_viewport()  # table 2 plays
    director.check("#anyway")
    director.click("button:has-text('Seat round 2')")
    expect(director.locator("#seat-round ~ form .error", has_text="Nobody is not a player")).to_be_in_viewport()

    history = director.locator(".event-history li", has_text="locked")
    history.locator("summary").click()
    history.locator("input[name=reason]").fill("   ")
    history.locator("button:has-text('Keep the reason')").click()
    expect(director.locator(".event-history li", has_text="locked").locator(".error")).to_be_in_viewport()
