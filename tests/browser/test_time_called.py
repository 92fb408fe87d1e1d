"""At time, a table's phone (360 × 740) hears that time was called, how its table counts, and
sees no next hand to play: what the round's clock locked is said as such, not as the director's."""

import sqlite3
import time

from playwright.sync_api import expect

from scorekeeper.storage.database import DATABASE_FILE
from tests.browser.conftest import enter_hand, one_table_round, running_server
from tests.browser.test_director import LAPTOP

SMALL_PHONE = {"viewport": {"width": 360, "height": 740}}


def test_a_phone_at_a_table_locked_at_time_says_time_was_called_and_shows_no_next_hand(tmp_path, phone, shot):
    instance = tmp_path / "instance"
    with running_server(instance) as server:
        director = phone(**LAPTOP)
        table_url = one_table_round(director, server, "Timed Crates")
        table = phone(**SMALL_PHONE)
        enter_hand(table, table_url, 1, ["", "K", "K 5", "Q"])
        table.goto(table_url)
        expect(table.locator("h1")).to_contain_text("Hand 2")
        director.fill("#minutes", "30")
        director.click('button:has-text("Start round 1\'s clock")')
        expect(director.locator(".event-history")).to_contain_text("Round 1 clock started")
        with sqlite3.connect(instance / DATABASE_FILE, timeout=10) as db:  # its 30 minutes gone by
            db.execute("UPDATE round_clocks SET deadline = ?", [time.time() - 1])

        notice = table.locator("[data-locked]")
        expect(notice).to_contain_text(
            "Time was called: this table is locked as it stood after hand 1 of 15 (counted prorated).", timeout=15_000
        )
        expect(notice).not_to_contain_text("Locked by the director")
        expect(table.locator("main")).to_contain_text("In the event's standings.")
        expect(table.locator("main")).to_contain_text("each player's points × 71 ÷ 8 cards")
        expect(table.locator("h1")).to_have_text("Locked after hand 1 of 15")
        expect(table.locator("main")).not_to_contain_text("plays first")
        expect(table.locator("button.pressure")).to_have_count(0)
        overflow = table.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert overflow[0] <= overflow[1], overflow
        shot(table, "time-called-360")
