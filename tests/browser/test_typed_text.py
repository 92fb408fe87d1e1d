"""What a player types is never thrown away: not by another phone's change, not by a reload;
and long names stay readable on the buttons."""

from playwright.sync_api import expect

from tests.browser.conftest import assert_fits, start_game

LONG_NAMES = [
    "Bartholomew Okonkwo-Smith",
    "Christopherson Featherstonehau",
    "Di",
    "Wolfeschlegelsteinhausenberger",
    "Ed",
]


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
    boxes = page.locator("button.pressure").evaluate_all(
        "els => els.map(el => { const r = el.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; })"
    )
    for index, (left, right, top, bottom) in enumerate(boxes):  # no button lies over another
        for other in boxes[index + 1 :]:
            assert right <= other[0] or other[1] <= left or bottom <= other[2] or other[3] <= top, (boxes[index], other)
    rows: dict[float, set[float]] = {}
    for _, _, top, bottom in boxes:  # buttons side by side share one height
        rows.setdefault(round(bottom), set()).add(round(bottom - top))
    assert all(len(heights) == 1 for heights in rows.values()), rows
    labels = page.locator("button.pressure").evaluate_all("els => els.map(el => el.getAttribute('aria-label'))")
    assert "Pressure on Christopherson Featherstonehau, plus 5" in labels
    assert "Pressure on Wolfeschlegelsteinhausenberger, plus 5" in labels
    assert_fits(page, "hand-long-names")
    shot(page, "hand-long-names-360")


def test_the_way_to_the_hands_end_is_on_screen_at_once(server, phone):
    page = phone(viewport={"width": 360, "height": 740})
    start_game(page, server, LONG_NAMES)
    assert in_view(page, page.locator("a.endhand"))


def test_a_refused_form_keeps_what_was_typed_after_leaving_and_coming_back(server, phone):
    page = phone()
    page.goto(server + "/new")
    page.fill("#players-0", "Annabelle")
    page.fill("#players-1", "Annabelle")  # the same name twice: refused beside the field
    page.click("button:has-text('Start the game')")
    expect(page.locator(".has-error")).not_to_have_count(0)
    # Its scripts ran (the page is shown before they arrive): left sooner, the refused page never
    # reads the mark of the form sent, and the next visit takes the form for saved and forgets it.
    page.wait_for_load_state()
    page.fill("#players-2", "Cy")
    page.goto(server + "/")
    page.goto(server + "/new")
    expect(page.locator("#players-0")).to_have_value("Annabelle")
    expect(page.locator("#players-1")).to_have_value("Annabelle")
    expect(page.locator("#players-2")).to_have_value("Cy")


def test_a_note_sent_while_offline_is_not_typed_back_once_delivered(server, phone):
    ann = phone()
    start_game(ann, server, ["Ann", "Bob"])
    ann.click("summary:has-text('Ruling note')")
    ann.fill("#text", "Sent from the outbox")
    ann.context.set_offline(True)
    ann.click("button:has-text('Save note')")
    expect(ann.locator("[data-outbox-list]")).to_contain_text("1 change waiting to be sent")
    ann.context.set_offline(False)
    expect(ann.locator(".note")).to_contain_text("Sent from the outbox", timeout=15_000)
    if not ann.locator("#text").is_visible():
        ann.click("summary:has-text('Ruling note')")
    expect(ann.locator("#text")).to_have_value("")


def test_a_note_the_text_rule_refuses_is_refused_beside_it_and_kept(server, phone):
    """A right-to-left override in a ruling note (it would print "no" as "on") goes through the
    outbox and comes back refused beside the note, the note kept to be corrected."""
    ann = phone()
    start_game(ann, server, ["Ann", "Bob"])
    ann.click("summary:has-text('Ruling note')")
    typed = "Bob led \u202eout of turn"
    ann.fill("#text", typed)
    ann.click("button:has-text('Save note')")
    refusal = ann.locator(".field:has(#text) .error")
    expect(refusal).to_have_text("A note cannot hold an invisible character (U+202E).", timeout=10_000)
    expect(ann.locator("#text")).to_have_value(typed)
    ann.fill("#text", "Bob led out of turn")
    ann.click("button:has-text('Save note')")
    expect(ann.locator(".notes, main")).to_contain_text("Bob led out of turn", timeout=10_000)
