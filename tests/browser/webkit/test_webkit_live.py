"""Live updates in WebKit (Safari's engine): the other phone hears of a pressure through the live
stream, with its polling taken away so that nothing else could bring it."""

from __future__ import annotations

import time

from tests.browser.webkit.test_webkit_game import start_game


def test_a_pressure_reaches_the_other_webkit_phone_through_the_stream(server, webkit):
    ann, bob = webkit("Ann"), webkit("Bob")
    _, _, record_url = start_game(ann, server, ["Ann", "Bob"])
    bob.goto(record_url)
    assert "/live/t/" in bob.evaluate("document.body.getAttribute('data-live-url')")
    bob.evaluate("document.body.removeAttribute('data-version-url') || true")  # no poll from here on
    time.sleep(1.5)  # the stream is open by now
    ann.submit("button.pressure", "Bob")
    tapped = time.monotonic()
    bob.wait_text("main", "Pressure: Bob", timeout=5)
    assert time.monotonic() - tapped < 2.0
    bob.shot("live-pressure-heard")
