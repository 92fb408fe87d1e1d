"""Where the origin is secure (127.0.0.1 here; https at a club), the service worker keeps the
pages a phone opened: two phones play on for three hands with the server killed, reloading
every page on the way, and when it is back both show the scores the server replays from its
record, every change counted once."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from playwright.sync_api import expect

from scorekeeper.scoring import configure, parse_cards
from tests.browser.conftest import free_port, running_server, start_game

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
#: Three hands played offline: each player's leftovers ("" went out), and the pressures taken.
HANDS = [
    (["K 5", "", "3 9", "Q"], ["Bob"]),
    (["", "4 4", "J", "A 2"], ["Ann", "Ann"]),
    (["7", "8", "", "10 3"], []),
]


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url) as response:
        return response.read()


def _replayed(record_url: str) -> dict:
    script = Path(sys.executable).parent / "scorekeeper"
    done = subprocess.run(
        [str(script), "replay", "--json", "-"], input=_get(record_url + "export.json"), capture_output=True, check=True
    )
    return json.loads(done.stdout)


def _totals(page) -> dict[str, str]:
    rows = page.locator("table.totals tr").all()
    return {row.locator("th").inner_text().strip(): row.locator("td.big").inner_text().strip() for row in rows}


def _offline_page(page, path: str) -> None:
    """Open one of the game's pages by reloading it at its address, with the server gone."""
    page.goto(path)
    expect(page.locator(".offline-banner")).to_be_visible(timeout=15_000)


def test_two_phones_play_three_hands_with_the_server_killed_and_agree_after(phone, tmp_path):
    port = free_port()
    instance = tmp_path / "instance"
    ann, bob = phone(), phone()
    rules = configure("crates")
    with running_server(instance, port) as server:
        record_url = start_game(ann, server, PLAYERS)
        base = record_url[len(server) :]
        bob.goto(record_url)
        for page in (ann, bob):  # each phone's worker is running and has kept the page it opened
            page.wait_for_function(
                "() => navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready.then(() => true)"
            )
            page.reload()
            page.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:{base}') !== null")
        # Hand 1, online, from Ann's phone.
        for seat, cards in enumerate(["A 3", "6", "", "K"]):
            ann.goto(f"{record_url}hand/1/seat/{seat}")
            if cards:
                ann.fill("#cards", cards)
            else:
                ann.click(".pad button[data-out]")
            with ann.expect_navigation():
                ann.click("button[type=submit]:has-text('Save')")
        for page in (ann, bob):
            page.goto(record_url)
            expect(page.locator("h1")).to_contain_text("Hand 2")
            page.goto(record_url + "scores")
            page.goto(record_url + "history")
            page.goto(record_url)

    # The server is killed. Ann enters three hands, reloading each page she uses.
    for number, (leftovers, pressures) in enumerate(HANDS, start=2):
        _offline_page(ann, record_url)
        expect(ann.locator("h1")).to_contain_text(f"Hand {number}")
        for player in pressures:
            ann.click(f"button.pressure:has-text('{player}')")
            if ann.locator(".ask").count():
                ann.locator(".ask").get_by_role("button", name="Yes, a second one").click()
        expect(ann.locator(".pending li")).to_have_count(len(pressures))
        _offline_page(ann, f"{record_url}hand/{number}/seat/0")
        for seat, cards in enumerate(leftovers):
            expect(ann.locator("[data-player-name]")).to_have_text(PLAYERS[seat])
            for card in cards.split():
                ann.click(f".pad button[data-card='{card}']")
            if cards:
                points = rules.score_leftovers(parse_cards(cards.split())).total
                expect(ann.locator("[data-live]")).to_contain_text(f"= {points}")
            else:
                ann.click(".pad button[data-out]")
            ann.click("button[type=submit]:has-text('Save')")
        _offline_page(ann, record_url + "scores")
        expect(ann.locator(".grid tbody tr")).to_have_count(number)
        _offline_page(ann, record_url + "history")

    # Opened from the home screen (the home page, kept by the worker), Ann's phone lists the game.
    ann.goto(record_url.split("/t/")[0] + "/")
    ann.locator("[data-my-games] a", has_text="Ann, Bob, Cy, Di").click()
    expect(ann.locator(".offline-banner")).to_be_visible(timeout=15_000)

    # Bob, on his own phone, takes a pressure by mistake and undoes it, and writes a note.
    _offline_page(bob, record_url)
    bob.click("button.pressure:has-text('Cy')")
    expect(bob.locator(".pending")).to_contain_text("Pressure: Cy")
    bob.locator(".pending").get_by_role("button", name="Undo").click()
    expect(bob.locator(".pending")).to_have_count(0)
    bob.click("summary:has-text('Ruling note')")
    bob.fill("textarea[name=text]", "Bob misdealt hand 2; redealt")
    bob.click("button:has-text('Save note')")
    expect(bob.locator(".offline-banner")).to_contain_text("1 change waiting")
    _offline_page(bob, record_url + "history")
    expect(bob.locator(".history")).to_contain_text("Bob misdealt hand 2")

    with running_server(instance, port):  # back, on the same data and port
        for page in (ann, bob):
            page.wait_for_function(
                "() => JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length === 0", timeout=30_000
            )
        replayed = _replayed(record_url)
        expected = {side["name"]: str(side["total"]) for side in replayed["sides"]}
        assert len(replayed["sides"][0]["hands"]) == 4
        for page in (ann, bob):
            page.goto(record_url + "scores")
            expect(page.locator(".offline-banner")).to_have_count(0)
            assert _totals(page) == expected
        record = json.loads(_get(record_url + "export.json"))
        assert [hand["pressures"] for hand in record["hands"][1:]] == [p for _, p in HANDS]  # each once
        assert record["hands"][1]["notes"] == ["Bob misdealt hand 2; redealt"]


def test_a_page_only_the_server_makes_opened_at_its_address_offline_says_so(phone, tmp_path):
    """Share or Print typed in, or reloaded, with the server gone: the phone's own page saying
    it needs the server, never the browser's error page."""
    port = free_port()
    page = phone()
    with running_server(tmp_path / "instance", port) as server:
        record_url = start_game(page, server, PLAYERS)
        base = record_url[len(server) :]
        page.wait_for_function(
            "() => navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready.then(() => true)"
        )
        page.reload()
        page.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:{base}') !== null")
    for path in ("print", "share"):  # never opened on this phone; opened when the game began
        page.goto(f"{record_url}{path}")
        expect(page.locator("h1")).to_have_text("This page needs the server", timeout=15_000)
        expect(page.locator(".offline-banner")).to_be_visible()
