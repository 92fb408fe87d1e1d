"""The director's evening as it goes: a player leaves after round 1, another arrives for round 2."""

from playwright.sync_api import expect

from .conftest import as_director, enter_hand
from .test_director import LAPTOP

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
    director.click("button:has-text('Seat round 1')")
    expect(director.locator(".director-tables tbody tr")).to_have_count(2)

    # Round 1 is played (a hand at table 1), and the director closes both tables.
    table_url = director.locator(".director-tables tbody tr >> nth=0 >> a").get_attribute("href")
    first_table = director.locator(".director-tables tbody tr >> nth=0 >> a").inner_text().split(", ")
    player = phone()
    enter_hand(player, f"{server}{table_url}", 1, ["", "K", "8", "A"])
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
    # Ivy has no complete round yet: no place, listed last, her table beside her.
    ivy = rows.nth(8)
    expect(ivy).to_contain_text("Ivy")
    expect(ivy.locator("td").first).to_have_text("—")
    expect(ivy.locator("td.playing")).to_contain_text("round 2")
    expect(ivy).to_contain_text("+1 missed")
    # Bob withdrew: marked so, below everyone still playing, with nothing under way.
    bob = rows.nth(7)
    expect(bob).to_contain_text(f"{leaving} (withdrawn from round 2)")
    expect(bob.locator("td.playing")).to_have_text("—")
    # Round 1 is complete: its points rank (the 8 held at table 1 counts 50 for its holder).
    holder = first_table[2]
    expect(rows.filter(has_text=holder).locator("td.num").first).to_have_text("50")
    shot(director, "standings-late-and-withdrawn")
