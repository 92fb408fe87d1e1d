"""The director's seating choices in a real browser: threes or fives beside the tables of four
(chosen on the new-event form, changed on the event page, both choices' quality shown before the
event starts), and a round proposed by the standings."""

from playwright.sync_api import expect

from tests.browser.conftest import as_director, assert_fits, enter_hand

THIRTEEN = [f"Player {n:02}" for n in range(1, 14)]


def proposed_sizes(page) -> list[int]:
    return sorted(len(line.split(", ")) for line in page.locator("#tables").input_value().strip().splitlines())


def test_the_director_chooses_threes_sees_how_fives_would_do_switches_and_seats_by_the_standings(server, phone, shot):
    director = phone()
    as_director(director, server, "/director/")
    director.click("text=New event")
    director.fill("#name", "Odd night")
    director.fill("#held_on", "2026-11-28")
    director.fill("#rounds", "3")
    director.select_option("#odd_tables", "threes")
    director.fill("#players", "\n".join(THIRTEEN))
    director.click("button:has-text('Create the event')")
    expect(director.locator(".plan-quality")).to_contain_text("With tables of five instead", timeout=20_000)
    expect(director.locator(".plan-quality")).to_contain_text("Most times two players meet")
    assert proposed_sizes(director) == [3, 3, 3, 4]
    assert_fits(director, "event page with the odd-table choice")
    shot(director, "seating-threes")

    director.select_option("form#odd-tables select", "fives")
    director.click("form#odd-tables button:has-text('Change')")
    expect(director.locator(".flash", has_text="Beside the tables of four: tables of five")).to_be_visible()
    expect(director.locator(".plan-quality")).to_contain_text("With tables of three instead", timeout=20_000)
    assert proposed_sizes(director) == [4, 4, 5]

    director.click("button:has-text('Seat round 1')")
    expect(director.locator("h2", has_text="Seat round")).to_have_text("Seat round 2")
    expect(director.locator(".plan-quality")).not_to_contain_text("instead")
    links = [(a.get_attribute("href"), a.inner_text()) for a in director.locator(".director-tables td.players a").all()]
    assert len(links) == 3
    player = phone()
    for href, names in links:  # one hand a table, its first player going out; then the table is locked
        enter_hand(player, f"{server}{href}", 1, [""] + ["K"] * (len(names.split(", ")) - 1))
    for number in range(3):
        director.reload()
        director.click(f".director-tables tbody tr >> nth={number} >> button:has-text('Lock')")
        director.click("button:has-text('Lock it as it stands')")
        expect(director.locator(f".director-tables tbody tr >> nth={number}")).to_contain_text("Unlock")
    director.click("button:has-text('Propose by the standings')")
    expect(director.locator(".seated-by")).to_have_text("By the standings after round 1")
    shot(director, "seating-by-standings")
    director.click("button:has-text('Seat round 2')")
    expect(director.locator(".event-history")).to_contain_text("Round 2 seated by the standings after round 1")
