"""A server that hangs (a laptop asleep) in WebKit (Safari's engine): the phone notices within seconds
with no tap, keeps a pressure tapped meanwhile, opens the game's links from its copy, and once the
server wakes the pressure arrives, once. Frozen with SIGSTOP on every process of the server."""

from __future__ import annotations

import time

from tests.browser.conftest import free_port, running_server
from tests.browser.test_server_that_hangs import frozen
from tests.browser.webkit.test_webkit_game import record_of, start_game

LIVE = "● Live"


def game_kept_and_followed(phone, server: str) -> str:
    """A game started, its copy kept on the phone and the live stream open: its record link."""
    _, _, record_url = start_game(phone, server, ["Ann", "Bob", "Cy"])
    base = record_url[len(server) :]
    phone.wait_until(lambda: phone.evaluate(f"localStorage.getItem('scorekeeper:copy:{base}') !== null"), "the copy")
    phone.wait_text("[data-live-status]", LIVE)
    time.sleep(0.5)
    return record_url


def test_webkit_notices_a_server_that_hangs_plays_on_and_comes_back(webkit, tmp_path):
    phone = webkit()
    port = free_port()
    with running_server(tmp_path, port=port) as server:
        record_url = game_kept_and_followed(phone, server)
        phone.evaluate("(window.sameDocument = true)")
        with frozen(port):
            started = time.monotonic()
            phone.wait_until(lambda: phone.text("[data-live-status]") != LIVE, "the badge to leave Live", timeout=8)
            noticed = time.monotonic() - started
            phone.click("button.pressure", "Cy")
            phone.wait_text(".offline-banner", "1 change waiting", timeout=4)
            phone.wait_text(".pending", "Pressure: Cy")
            phone.click(".gamenav a", "Scores")
            phone.wait_text("main[data-offline] h1", "Scores", timeout=7)
            assert phone.url == record_url + "scores"
            assert phone.evaluate("window.sameDocument === true"), "the page was left"
        phone.wait_until(
            lambda: phone.evaluate("JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length") == 0,
            "the outbox to empty",
            timeout=20,
        )
        phone.wait_text("[data-live-status]", LIVE, timeout=15)
        assert record_of(record_url)["in_play"]["pressures"] == ["Cy"]
        time.sleep(3)
        assert record_of(record_url)["in_play"]["pressures"] == ["Cy"]
    print(f"WebKit noticed a frozen server without a tap in {noticed:.1f} s")
    assert noticed < 7


def test_webkit_link_tapped_as_the_server_hangs_opens_from_the_copy(webkit, tmp_path):
    phone = webkit()
    port = free_port()
    with running_server(tmp_path, port=port) as server:
        game_kept_and_followed(phone, server)
        for link, heading in (("History", "History"), ("Scores", "Scores")):
            with frozen(port):
                started = time.monotonic()
                phone.click(".gamenav a", link)  # before the phone could notice
                phone.wait_text("main[data-offline] h1", heading, timeout=7)
                assert time.monotonic() - started < 6  # asked first (2 s), or the browser stopped (4 s)
            phone.wait_text("[data-live-status]", LIVE, timeout=15)
