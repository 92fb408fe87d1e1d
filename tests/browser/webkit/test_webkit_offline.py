"""The table plays on without the server in WebKit (Safari's engine): the open page draws the
game's pages from the phone's copy, and at a secure origin (127.0.0.1) the service worker keeps
the pages it opened for a reload."""

from __future__ import annotations

from scorekeeper.scoring import configure, parse_cards
from tests.browser.conftest import running_server
from tests.browser.webkit.test_webkit_game import record_of, start_game, tap


def test_webkit_plays_on_and_reloads_while_the_server_is_down(webkit, tmp_path):
    phone = webkit()
    with running_server(tmp_path) as server:
        _, _, record_url = start_game(phone, server, ["Ann", "Bob", "Cy", "Di"], partnerships=True)
        base = record_url[len(server) :]
        phone.goto(record_url)
        phone.wait_until(
            lambda: phone.evaluate("!!(navigator.serviceWorker && navigator.serviceWorker.controller)"),
            "the service worker to keep the page",
            timeout=20,
        )
        phone.wait_until(
            lambda: phone.evaluate(f"localStorage.getItem('scorekeeper:copy:{base}') !== null"), "the copy"
        )
        phone.goto(record_url + "scores")
        phone.goto(record_url)
    port = int(server.rsplit(":", 1)[1])

    phone.click("button.pressure", "Bob")
    phone.wait_text(".offline-banner", "Offline · 1 change waiting")
    phone.wait_text("button.pressure .cost", "+10")
    assert phone.texts("button.pressure .cost") == ["+5", "+5", "+10", "+10"]
    phone.click(".gamenav a", "Scores")
    phone.wait_text(".in-play", "pressure on Bob (Bob & Di) +5")
    phone.click(".gamenav a", "Hand")
    phone.click("a.endhand")
    phone.wait_text("[data-player-name]", "Ann")
    tap(phone, "K", "5")
    points = configure("crates").score_leftovers(parse_cards(["K", "5"])).total
    phone.wait_text("[data-live]", f"= {points}")
    phone.shot("offline-pad")

    phone.goto(record_url + "scores")  # a reload, with the server down: the worker's copy of the page
    phone.wait_text(".offline-banner", "1 change waiting", timeout=20)
    phone.wait_text(".in-play", "+5")

    with running_server(tmp_path, port=port):
        phone.wait_until(
            lambda: phone.evaluate("JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length") == 0,
            "the outbox to empty",
            timeout=30,
        )
        assert record_of(record_url)["in_play"]["pressures"] == ["Bob"]
