"""What a player types is never thrown away: not by another phone's change, not by a reload;
and long names stay readable on the buttons."""

from playwright.sync_api import expect

from .conftest import assert_fits, start_game

LONG_NAMES = ["Bartholomew Okonkwo-Smith", "Christopherson Featherstonehau", "Di", "Maximiliana Wolfeschlegelstein"]


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def test_a_note_being_typed_survives_another_phones_change(server, phone):
    ann = phone()
    record_url = start_game(ann, server, ["Ann", "Bob"])
    ann.click("summary:has-text('Ruling note')")
    ann.fill("#text", "Bob led out of turn; the table let it stand")
    ann.focus("#text")

    bob = phone()
    bob.goto(record_url)
    with bob.expect_navigation():
        bob.click("button.pressure:has-text('Ann')")

    notice = ann.locator("[data-stale]")
    expect(notice).to_be_visible(timeout=10_000)
    assert in_view(ann, notice), "the notice is shown where the player is"
    notice.get_by_role("button", name="Show").click()
    expect(ann.locator(".pending")).to_contain_text("Ann")
    expect(ann.locator("#text")).to_have_value("Bob led out of turn; the table let it stand")


def test_a_reload_keeps_a_half_typed_note_and_the_start_form(server, phone):
    ann = phone()
    start_game(ann, server, ["Ann", "Bob"])
    ann.click("summary:has-text('Ruling note')")
    ann.fill("#text", "Half a ruling")
    ann.reload()
    expect(ann.locator("#text")).to_have_value("Half a ruling")

    ann.goto(server + "/new")
    ann.fill("input[name='players-0']", "Annabelle")
    ann.fill("input[name='players-1']", "Bartholomew")
    ann.reload()
    expect(ann.locator("input[name='players-0']")).to_have_value("Annabelle")
    expect(ann.locator("input[name='players-1']")).to_have_value("Bartholomew")


def test_a_sent_note_is_not_typed_again_after_a_reload(server, phone):
    ann = phone()
    start_game(ann, server, ["Ann", "Bob"])
    ann.click("summary:has-text('Ruling note')")
    ann.fill("#text", "A ruling, saved")
    with ann.expect_navigation():
        ann.click("button:has-text('Save note')")
    ann.reload()
    ann.click("summary:has-text('Ruling note')")
    expect(ann.locator("#text")).to_have_value("")


def test_long_names_break_between_words_and_buttons_of_a_row_share_a_height(server, phone, shot):
    page = phone(viewport={"width": 360, "height": 740})
    start_game(page, server, LONG_NAMES)
    words = page.locator("button.pressure .who > span")
    assert words.count() >= 7
    for index in range(words.count()):  # every word whole on one line, or cut with an ellipsis
        lines = words.nth(index).evaluate("el => el.getClientRects().length")
        style = words.nth(index).evaluate("el => getComputedStyle(el).textOverflow")
        assert lines == 1 and style == "ellipsis"
    heights = page.locator("button.pressure").evaluate_all("els => els.map(el => Math.round(el.getBoundingClientRect().height))")
    assert len(set(heights)) == 1, heights
    labels = page.locator("button.pressure").evaluate_all("els => els.map(el => el.getAttribute('aria-label'))")
    assert "Pressure on Christopherson Featherstonehau, plus 5" in labels
    assert_fits(page, "hand-long-names")
    shot(page, "hand-long-names-360")


def test_the_way_to_the_hands_end_is_on_screen_at_once(server, phone):
    page = phone(viewport={"width": 360, "height": 740})
    start_game(page, server, LONG_NAMES)
    assert in_view(page, page.locator("a.endhand"))
