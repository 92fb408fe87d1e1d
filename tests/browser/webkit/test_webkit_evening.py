"""The round's clock and the director's lock on a table's phone in WebKit (Safari's engine), at 360 × 740:
the clock counts down on the phone; the lock reaches it live and its buttons go."""

from __future__ import annotations

import re
import time

from tests.browser.conftest import one_table_round
from tests.browser.test_director import LAPTOP


def test_a_webkit_phone_counts_the_round_down_and_hears_of_the_lock(server, phone, webkit):
    director = phone(**LAPTOP)
    table_url = one_table_round(director, server, "Clocked in Safari")

    table = webkit("table")
    table.driver.set_window_size(360, 740)
    table.goto(table_url)
    assert table.count("button.pressure") == 4

    director.fill("#minutes", "25")
    director.click('button:has-text("Start round 1\'s clock")')
    table.wait_text("[data-round-clock] [data-clock-text]", ":", timeout=10)
    first = table.text("[data-round-clock] [data-clock-text]")
    assert re.fullmatch(r"2[45]:\d\d", first), first
    time.sleep(2.2)
    assert table.text("[data-round-clock] [data-clock-text]") != first, "counted down on the phone"
    table.shot("evening-clock-360")

    director.goto(director.url.split("#")[0])
    director.locator(".director-tables tbody tr >> nth=0 >> button:has-text('Lock')").click()
    director.click("button:has-text('Lock it as it stands')")
    table.wait_text("[data-locked]", "Locked by the director", timeout=10)
    assert table.count("button.pressure") == 0 and table.count("a.endhand") == 0
    table.shot("evening-locked-360")
