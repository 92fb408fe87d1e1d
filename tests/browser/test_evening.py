"""The evening as a table's phones see it, at 360 × 740: the round's clock counting down, and the
director's lock — heard at once by a phone online, and by one offline at its next contact, whose
waiting change is shown refused with the lock's sentence."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import one_table_round
from tests.browser.test_director import LAPTOP

SMALL_PHONE = {"viewport": {"width": 360, "height": 740}}


def test_a_tables_phones_show_the_round_clock_and_hear_of_the_lock(server, phone, shot):
    director = phone(**LAPTOP)
    table_url = one_table_round(director, server, "Clocked Crates")

    online, offline = phone(**SMALL_PHONE), phone(**SMALL_PHONE)
    for page in (online, offline):
        page.goto(table_url)
        expect(page.locator("button.pressure").first).to_be_visible()

    director.fill("#minutes", "25")
    director.click('button:has-text("Start round 1\'s clock")')
    expect(director.locator(".event-history")).to_contain_text("Round 1 clock started: 25 minutes")
    clock = online.locator("[data-round-clock] [data-clock-text]")
    expect(clock).to_be_visible(timeout=10_000)  # the live stream brought the page with the clock
    first = clock.inner_text()
    assert re.fullmatch(r"2[45]:\d\d", first), first
    online.wait_for_timeout(2200)
    assert clock.inner_text() != first, "counted down on the phone"
    shot(online, "evening-clock-360")

    # One phone goes offline and taps a pressure: it waits in the outbox.
    offline.context.set_offline(True)
    offline.locator("button.pressure").first.click()
    expect(offline.locator("[data-outbox-list]")).to_be_visible()
    # The page drawn offline keeps the round's clock, counting on from where it was.
    expect(offline.locator("main[data-offline]")).to_be_visible()
    counted = offline.locator("main[data-offline] [data-round-clock] [data-clock-text]")
    before = counted.inner_text()
    offline.wait_for_timeout(1500)
    assert re.fullmatch(r"2[45]:\d\d", counted.inner_text()) and counted.inner_text() != before

    director.goto(director.url.split("#")[0])
    director.locator(".director-tables tbody tr >> nth=0 >> button:has-text('Lock')").click()
    director.click("button:has-text('Lock it as it stands')")

    # The phone online hears of it at once: the notice, and no button left to tap.
    expect(online.locator("[data-locked]")).to_contain_text("Locked by the director", timeout=10_000)
    expect(online.locator("button.pressure")).to_have_count(0)
    expect(online.locator("a.endhand")).to_have_count(0)
    shot(online, "evening-locked-360")

    # The phone offline learns it at its next contact: its waiting pressure refused with the sentence.
    offline.context.set_offline(False)
    expect(offline.locator("[data-refused]")).to_contain_text("locked by the director", timeout=15_000)
    expect(offline.locator("[data-locked]")).to_contain_text("Locked by the director", timeout=15_000)
    expect(offline.locator("[data-refused]")).to_contain_text("locked by the director")
    expect(offline.locator("button.pressure")).to_have_count(0)
    shot(offline, "evening-refused-360")
