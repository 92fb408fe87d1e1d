"""The table plays on without the server, at the address a phone really has: plain http on a
host name (not 127.0.0.1 or localhost, which browsers count as secure). Chromium is told that
``table.test`` is this machine, so the page runs where a phone's does: no service worker, no
Cache Storage; only the open page and its storage."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.scoring import configure, parse_cards

from .conftest import ARGS, CHROMIUM, PHONE, _free_port, running_server, start_game
from .test_accessibility import axe_violations

HOST = "table.test"


@pytest.fixture
def insecure_phone(browser):
    """A phone whose browser reaches the server by a host name, as over the room's Wi-Fi."""
    launched = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"]
    )
    context = launched.new_context(**PHONE)
    context.set_default_timeout(10_000)
    yield context.new_page()
    launched.close()


def _export(url: str) -> dict:
    with urllib.request.urlopen(url + "export.json") as response:
        return json.loads(response.read())


def test_a_phone_on_plain_http_plays_on_while_the_server_is_down(insecure_phone, tmp_path, shot):
    page = insecure_phone
    port = _free_port()
    instance = tmp_path / "instance"
    with running_server(instance, port):
        record_url = start_game(page, f"http://{HOST}:{port}", ["Ann", "Bob", "Cy", "Di"], partnerships=True)
        assert page.evaluate("isSecureContext") is False
        page.click(".gamenav a:has-text('Scores')")
        page.goto(record_url + "hand/1/seat/0")
        page.goto(record_url)
        expect(page.locator("button.pressure:has-text('Bob') .cost")).to_have_text("+5")
        page.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:{record_url[len(f'http://{HOST}:{port}'):]}') !== null")
    # The laptop's server is gone.
    page.click("button.pressure:has-text('Bob')")
    expect(page.locator(".offline-banner")).to_contain_text("Offline · 1 change waiting")
    expect(page.locator("button.pressure:has-text('Bob') .cost")).to_have_text("+10")  # the next, doubled
    expect(page.locator("button.pressure:has-text('Di') .cost")).to_have_text("+10")  # Bob's partner's too
    expect(page.locator(".pending")).to_contain_text("Pressure: Bob (Bob & Di) +5")
    shot(page, "offline-hand")
    assert axe_violations(page) == []  # drawn on the phone, held to WCAG 2.2 AA as the server's pages are

    page.click(".gamenav a:has-text('Scores')")
    expect(page.locator("h1")).to_have_text("Scores")
    expect(page.locator(".in-play")).to_contain_text("+5")
    expect(page.locator(".offline-banner")).to_contain_text("1 change waiting")
    shot(page, "offline-scores")
    assert axe_violations(page) == []

    page.click(".gamenav a:has-text('Hand')")
    page.click("a.endhand")
    expect(page.locator("[data-player-name]")).to_have_text("Ann")
    page.click(".pad button[data-card='K']")
    page.click(".pad button[data-card='5']")
    points = configure("crates").score_leftovers(parse_cards(["K", "5"])).total
    expect(page.locator("[data-live]")).to_contain_text(f"= {points}")
    shot(page, "offline-pad")
    assert axe_violations(page) == []

    # The laptop died for good: the phone saves the game, its unsent pressure in it, and another
    # server continues it.
    page.click(".gamenav a:has-text('Scores')")
    with page.expect_download() as download:
        page.click("[data-save-game]")
    saved = json.loads(Path(download.value.path()).read_text())
    assert saved["in_play"] == {"hand": 1, "pressures": ["Bob"], "notes": []}
    with running_server(tmp_path / "another") as another:
        importing = page.context.new_page()
        importing.goto(another + "/import")
        importing.set_input_files("#file", download.value.path())
        importing.click("button:has-text('Import')")
        importing.wait_for_url("**/t/*/**")
        continued = _export(another + "/t/" + importing.url.split("/t/")[1].split("/")[0] + "/")
        assert continued["in_play"]["pressures"] == ["Bob"]
        assert continued["players"] == saved["players"] and continued["partnerships"] == saved["partnerships"]

    with running_server(instance, port):  # back, on the same data and port
        page.wait_for_function("() => JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length === 0", timeout=20_000)
        record = _export(record_url.replace(HOST, "127.0.0.1"))
        assert record["in_play"]["pressures"] == ["Bob"]  # recorded once
