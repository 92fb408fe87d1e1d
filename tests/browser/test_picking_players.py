"""Players picked from the club's list in Chromium: part of a name typed, a member chosen from
the list the browser offers, and Add puts the line in the Players list at once (no round trip);
on the event page, choosing a late player fills in their club and number.

Headless Chromium draws no datalist popup that a test could drive (ArrowDown and Enter reach the
form instead), so the choice is made as the popup makes it: the option's value put in the field
with the same input event ("insertReplacementText"), after checking that the part typed offers it.
"""

from playwright.sync_api import expect

from tests.browser.conftest import as_director, assert_fits
from tests.browser.test_accessibility import axe_violations
from tests.browser.test_director import LAPTOP


def offered(page, field: str) -> list[str]:
    """The options the browser offers for what is typed in ``field``: those whose value or label holds it."""
    return page.locator(field).evaluate(
        """input => [...input.list.options].filter(option =>
            (option.value + " " + option.label).toLowerCase().includes(input.value.toLowerCase())).map(o => o.value)"""
    )


def choose(page, field: str, value: str) -> None:
    """An option chosen from the browser's list, as Chromium does it."""
    page.locator(field).evaluate(
        """(input, value) => { input.value = value;
            input.dispatchEvent(new InputEvent("input", {bubbles: true, inputType: "insertReplacementText", data: value})); }""",
        value,
    )


MEMBERS = ["Annabel Quist, Northgate, 4101", "Bob Stone, Northgate", "Cy Moss, , 77", "Di Vale", "Ed Park", "Flo Hart"]


def _event_with_members(page, server: str, name: str) -> str:
    page.goto(server + "/director/events/new")
    page.fill("#name", name)
    page.fill("#held_on", "2026-11-26")
    page.fill("#players", "\n".join(MEMBERS))
    page.click("button:has-text('Create the event')")
    expect(page.locator("h1")).to_have_text(name)
    return page.url


def test_part_of_a_name_typed_a_member_chosen_and_added_at_once(server, phone, shot):
    director = phone(**LAPTOP)
    as_director(director, server, "/director/")
    _event_with_members(director, server, "Members night")
    director.goto(server + "/director/events/new")
    director.fill("#name", "Picked night")
    director.fill("#players", "Di Vale")
    posts = []
    director.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)

    director.click("#pick")
    director.keyboard.type("nnab")  # part of the name: the browser offers the member, with the number
    assert offered(director, "#pick") == ["Annabel Quist, Northgate, 4101"]
    choose(director, "#pick", "Annabel Quist, Northgate, 4101")
    expect(director.locator("#pick")).to_have_value("Annabel Quist, Northgate, 4101")
    director.click("button[data-pick-add]")
    expect(director.locator("#players")).to_have_value("Di Vale\nAnnabel Quist, Northgate, 4101")
    expect(director.locator("#pick")).to_have_value("")
    expect(director.locator("#pick")).to_be_focused()
    director.keyboard.type("Zed Newman")  # a name the list does not know: added as typed, with Enter
    director.keyboard.press("Enter")
    expect(director.locator("#players")).to_have_value("Di Vale\nAnnabel Quist, Northgate, 4101\nZed Newman")
    assert posts == [] and director.url.endswith("/director/events/new")  # no round trip
    expect(director.locator("#name")).to_have_value("Picked night")
    shot(director, "new-event-picked")

    director.click("button:has-text('Create the event')")
    expect(director.locator("h1")).to_have_text("Picked night")


def test_a_late_player_chosen_from_the_list_brings_their_club_and_number(server, phone, shot):
    director = phone()
    as_director(director, server, "/director/")
    director.goto(server + "/director/events/new")
    director.fill("#name", "Late night")
    director.fill("#held_on", "2026-11-27")
    director.fill("#players", "Di Vale\nEd Park\nFlo Hart\nGus Long")
    director.click("button:has-text('Create the event')")
    expect(director.locator("h1")).to_have_text("Late night")

    director.click("#late-name")
    director.keyboard.type("Annab")
    expect(director.locator("#late-number")).to_have_value("")  # nothing chosen yet
    assert offered(director, "#late-name") == ["Annabel Quist"]
    choose(director, "#late-name", "Annabel Quist")
    expect(director.locator("#late-name")).to_have_value("Annabel Quist")
    expect(director.locator("#late-club")).to_have_value("Northgate")
    expect(director.locator("#late-number")).to_have_value("4101")
    director.fill("#late-name", "Someone Else")  # another name: what was filled in for Annabel goes
    expect(director.locator("#late-number")).to_have_value("")
    expect(director.locator("#late-club")).to_have_value("")
    assert_fits(director, "event page with the late-player list")


BAD_ROSTER = (
    "Name,Club,Number,Email\n"
    "Jürgen Müller-Lüdenscheidt,Verein für Kartenspiele Nordrhein-Westfalen,DE-2026-000417,j@example.org\n"
    "Bob Stone,Northgate,DE-2026-000417,\n"
    "=1+1,Northgate,9,\n"
    ",Northgate,10,\n"
    "Zoë Brun,Süd,11,\n"
)


def test_a_roster_with_bad_lines_is_previewed_and_imported_on_a_phone(server, phone, shot):
    director = phone(viewport={"width": 360, "height": 740})
    as_director(director, server, "/director/")
    director.goto(server + "/director/players/")
    director.click("text=Import a roster (CSV)")
    assert axe_violations(director) == []
    director.set_input_files(
        "#roster", files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": BAD_ROSTER.encode("cp1252")}]
    )
    director.click("button:has-text('Preview the import')")
    expect(director.locator("#preview-heading")).to_have_text("Preview of players.csv")
    expect(director.locator("#preview")).to_contain_text("read as Windows Latin-1 (not UTF-8)")
    expect(director.locator("#preview")).to_contain_text("Jürgen Müller-Lüdenscheidt")
    expect(director.locator("#refused-lines + .scroll tbody tr")).to_have_count(3)
    assert_fits(director, "the roster's preview at 360 px")
    assert axe_violations(director) == []
    shot(director, "roster-preview-360")
    director.click("button:has-text('Import 2 players')")
    expect(director.locator(".flash.ok")).to_have_text(
        "Roster imported from players.csv: 2 added, 0 updated, 3 lines refused."
    )
    expect(director.locator("table.members")).to_contain_text("Zoë Brun")


def test_the_new_event_form_with_its_picker_fits_a_phone(server, phone):
    director = phone(viewport={"width": 360, "height": 740})
    as_director(director, server, "/director/")
    director.goto(server + "/director/events/new")
    expect(director.locator("#pick")).to_be_visible()
    assert_fits(director, "the new-event form at 360 px")


def test_a_roster_file_too_large_is_refused_beside_the_file_field_by_the_real_server(server, phone):
    director = phone(**LAPTOP)
    as_director(director, server, "/director/")
    director.goto(server + "/director/players/import")
    rows = "".join(f"Player {i:04d},Club {i % 17},{10000 + i},{'x' * 341}\n" for i in range(3000))
    data = ("Name,Club,Number,Notes\n" + rows).encode()
    assert len(data) > 1_100_000
    director.set_input_files("#roster", files=[{"name": "big.csv", "mimeType": "text/csv", "buffer": data}])
    director.click("button:has-text('Preview the import')")
    expect(director.locator(".field.has-error .error")).to_contain_text("The file is too large")
    expect(director.locator(".field.has-error .error")).to_contain_text("at most 1,000,000 bytes")
