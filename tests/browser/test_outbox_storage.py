"""What a phone keeps can be damaged (edited by hand, left by another version): the outbox
then drops what is not a change for this site, and the table plays on."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import start_game

DAMAGED = ['{"not": "an array"}', '[null, 5, {"id": 1}]', '[{"id": "x", "url": "http://elsewhere.test/t/x/pressure"}]']


@pytest.mark.parametrize("kept", DAMAGED)
def test_a_damaged_outbox_in_storage_does_not_stop_the_table(server, phone, kept):
    page = phone()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    record = start_game(page, server, ["Ann", "Bob", "Cy", "Di"])
    page.evaluate("kept => localStorage.setItem('scorekeeper:outbox', kept)", kept)
    page.goto(record)
    expect(page.locator("[data-live-status]")).to_contain_text("Live", timeout=15_000)
    page.click("button.pressure >> nth=0")
    expect(page.locator(".pressures li").first).to_be_visible(timeout=10_000)
    assert errors == []
