"""A pressure tapped, undone and tapped again in WebKit (Safari's engine): recorded, not taken for
"one moments ago" — online, and with the server down (the change waits in the phone's outbox).
Seen at a table: Cy, Undo, Cy again within five seconds asked "Another pressure on Cy?", and
"No, the same one" left no pressure at all."""

from __future__ import annotations

from tests.browser.conftest import running_server
from tests.browser.webkit.test_webkit_game import record_of, start_game

PLAYERS = ["Ann", "Bob", "Cy"]


def pressures(record_url: str) -> list[str]:
    return record_of(record_url).get("in_play", {}).get("pressures", [])


def test_webkit_tap_undo_tap_again_records_the_second_tap_without_a_question(server, webkit):
    ann = webkit("Ann")
    _, _, record_url = start_game(ann, server, PLAYERS)
    ann.submit("button.pressure", "Cy")
    ann.submit(".saved button", "Undo")
    ann.wait_text(".flash", "Undone: Hand 1 · pressure (Cy)")
    assert pressures(record_url) == []
    ann.submit("button.pressure", "Cy")
    ann.wait_text(".saved", "Pressure to Cy")
    assert ann.count(".ask") == 0
    assert pressures(record_url) == ["Cy"]


def test_webkit_offline_tap_undo_tap_again_keeps_the_second_tap_without_a_question(webkit, tmp_path):
    ann = webkit("Ann")
    with running_server(tmp_path) as server:
        _, _, record_url = start_game(ann, server, PLAYERS)
        base = record_url[len(server) :]
        ann.wait_until(lambda: ann.evaluate(f"localStorage.getItem('scorekeeper:copy:{base}') !== null"), "the copy")
    port = int(server.rsplit(":", 1)[1])

    ann.click("button.pressure", "Cy")
    ann.wait_text(".pending", "Pressure: Cy")
    ann.click(".pending li button", "Undo")
    ann.wait_until(lambda: ann.count(".pending li") == 0, "the waiting pressure to be taken back")
    ann.click("button.pressure", "Cy")
    ann.wait_until(lambda: ann.count(".pending li") == 1, "the second tap to wait")
    assert ann.count(".ask") == 0

    with running_server(tmp_path, port=port):
        ann.wait_until(
            lambda: ann.evaluate("JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length") == 0,
            "the outbox to empty",
            timeout=30,
        )
        assert pressures(record_url) == ["Cy"]
