"""A phone loses the Wi-Fi mid-hand: what it records waits in its outbox and arrives exactly once."""

import json
import urllib.request

from playwright.sync_api import expect

from .conftest import submit


def start_three(page, server) -> str:
    page.goto(server + "/new")
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        page.fill(f"#players-{seat}", name)
    page.click("button:has-text('Start the game')")
    page.click("text=Go to hand 1")
    return page.url


def test_offline_pressure_and_leftovers_arrive_once_and_both_phones_agree(server, phone):
    ann = phone()
    record_url = start_three(ann, server)
    bob = phone()
    bob.goto(record_url + "scores")
    expect(bob.locator("[data-live-status]")).to_have_text("● Live")

    leftovers = ann.context.new_page()
    leftovers.goto(f"{record_url}hand/1/seat/0")
    ann.context.set_offline(True)

    ann.click("button.pressure:has-text('Ann')")
    ann.click("button.pressure:has-text('Ann')")  # a second, real pressure, also taken offline
    expect(ann.locator("[data-outbox-list]")).to_contain_text("2 changes waiting to be sent")
    expect(ann.locator("[data-live-status]")).to_contain_text("Offline")
    for card in ("K", "3", "A"):
        leftovers.click(f".pad button[data-card='{card}']")
    leftovers.click("button[type=submit]:has-text('Save')")
    leftovers.click("button[type=submit]:has-text('Save')")  # a doubled tap
    expect(leftovers.locator("[data-outbox-list]")).to_contain_text("3 changes waiting to be sent")

    ann.context.set_offline(False)  # two pages share the outbox and may both send it: keys keep it once
    expect(ann.locator("[data-outbox-list]")).to_be_hidden(timeout=15_000)
    expect(leftovers.locator("[data-outbox-list]")).to_be_hidden(timeout=15_000)

    with urllib.request.urlopen(record_url + "export.json") as response:
        record = json.loads(response.read())
    assert record["in_play"]["pressures"] == ["Ann", "Ann"]

    # Bob finishes the hand on another page; his scores page follows without a reload.
    entry = phone()
    entry.goto(f"{record_url}hand/1/seat/1")
    entry.fill("#cards", "9")
    submit(entry, "button[type=submit]:has-text('Save')")
    entry.check("#went_out")
    submit(entry, "button[type=submit]:has-text('Save')")
    expect(bob.locator(".grid tbody")).to_contain_text("19", timeout=10_000)  # Ann: 3 covers K, + A; pressures 5 + 10

    with urllib.request.urlopen(record_url + "export.json") as response:
        record = json.loads(response.read())
    assert record["hands"] == [
        {"leftovers": {"Ann": ["K", "3", "A"], "Bob": ["9"], "Cy": []}, "pressures": ["Ann", "Ann"]}
    ]
    with urllib.request.urlopen(record_url + "version") as response:
        assert json.loads(response.read())["version"] == 5  # two pressures, three leftovers: nothing doubled
    ann.goto(record_url + "scores")
    assert ann.inner_text(".grid") == bob.inner_text(".grid")


def test_the_scoreboard_follows_another_phone_without_reloading(server, phone):
    ann = phone()
    record_url = start_three(ann, server)
    bob = phone()
    bob.goto(record_url)
    bob.evaluate("() => { window.sameDocument = true; }")
    submit(ann, "button.pressure:has-text('Cy')")
    expect(bob.locator(".pending")).to_contain_text("Pressure: Cy", timeout=10_000)
    assert bob.evaluate("() => window.sameDocument === true"), "the page reloaded instead of updating in place"
    bob.click(".count-add[data-add='2']")  # the page's scripts still work on the swapped content
    expect(bob.locator(".count-total")).to_have_text("2")
