"""A slip of the finger never changes the score: a double tap records one pressure, and the same
pressure tapped again within seconds (on this phone or another) is asked about first."""

import json
import urllib.request

from playwright.sync_api import expect

from tests.browser.conftest import start_game, submit


def recorded_pressures(record_url: str) -> list[str]:
    with urllib.request.urlopen(record_url + "export.json") as response:
        return json.loads(response.read()).get("in_play", {}).get("pressures", [])  # none in play: no in_play


def asked_again(page, server: str) -> str:
    """A game where Bob's pressure is recorded and then tapped again: the question is on screen."""
    record_url = start_game(page, server, ["Ann", "Bob"])
    with page.expect_navigation():
        page.click("button.pressure:has-text('Bob')")
    page.click("button.pressure:has-text('Bob')")
    expect(page.locator(".ask")).to_contain_text("Another pressure on Bob?")
    return record_url


def test_a_double_tap_on_pressure_records_one_pressure(server, phone):
    ann = phone()
    record_url = start_game(ann, server, ["Ann", "Bob"])
    button = ann.locator("button.pressure", has_text="Bob")
    button.dblclick()  # two taps some 100 ms apart
    expect(ann.locator(".saved")).to_contain_text("Pressure to Bob: 5")
    assert recorded_pressures(record_url) == ["Bob"]


def test_tapping_the_same_pressure_again_asks_and_yes_records_the_second(server, phone):
    ann = phone()
    record_url = asked_again(ann, server)
    question = ann.locator(".ask")
    assert recorded_pressures(record_url) == ["Bob"]
    with ann.expect_navigation():
        question.get_by_role("button", name="Yes, a second one").click()
    assert recorded_pressures(record_url) == ["Bob", "Bob"]


def test_no_leaves_the_score_as_it_was(server, phone):
    ann = phone()
    record_url = asked_again(ann, server)
    ann.locator(".ask").get_by_role("button", name="No, the same one").click()
    expect(ann.locator(".ask")).to_have_count(0)
    assert recorded_pressures(record_url) == ["Bob"]
    assert ann.locator("button.pressure:has-text('Bob')").is_enabled()


def test_the_same_pressure_from_two_phones_is_recorded_once_unless_they_say_otherwise(server, phone):
    ann = phone()
    record_url = start_game(ann, server, ["Ann", "Bob"])
    bob = phone()
    bob.goto(record_url)
    with ann.expect_navigation():
        ann.click("button.pressure:has-text('Bob')")
    bob.click("button.pressure:has-text('Bob')")
    expect(bob.locator(".ask")).to_contain_text(
        "Bob's pressure was just recorded on another phone. Is this a second one?"
    )
    bob.locator(".ask").get_by_role("button", name="No, the same one").click()
    assert recorded_pressures(record_url) == ["Bob"]


def test_no_brings_in_the_pressure_the_other_phone_recorded(server, phone):
    """Seen in a first evening: after "No, the same one" the asking phone kept the old cost and no
    pressure until Show was tapped; answering brings the page up to date."""
    ann = phone()
    record_url = start_game(ann, server, ["Ann", "Bob"])
    bob = phone()
    # Bob's phone hears of nothing by itself (no stream, no poll, no copy of the game): as a phone whose news of Ann's
    # pressure came while the question was open, and was held back then.
    bob.route("**/live/**", lambda route: route.abort())
    bob.route("**/version*", lambda route: route.abort())
    bob.route("**/copy.json*", lambda route: route.abort())
    bob.goto(record_url)
    with ann.expect_navigation():
        ann.click("button.pressure:has-text('Bob')")
    bob.click("button.pressure:has-text('Bob')")
    expect(bob.locator(".ask")).to_be_visible()
    expect(bob.locator("main")).not_to_contain_text("Pressure: Bob")
    bob.locator(".ask").get_by_role("button", name="No, the same one").click()
    # At once, not at the next safety poll (every 5 s) or a tap on Show:
    expect(bob.locator("main")).to_contain_text("Pressure: Bob", timeout=1000)
    expect(bob.locator("button.pressure:has-text('Bob')")).to_contain_text("+10", timeout=1000)


def test_offline_bob_then_cy_then_bob_within_seconds_asks_about_bob(server, phone):
    """Seen in a fresh-clone check: a phone without the server, tapping Bob, Cy and Bob again within
    five seconds, recorded the second Bob without a question (it remembered only its last tap)."""
    ann = phone()
    record_url = start_game(ann, server, ["Ann", "Bob", "Cy"])
    base = record_url[len(server) :]
    ann.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:{base}') !== null")
    ann.context.set_offline(True)  # the phone left the room's Wi-Fi
    expect(ann.locator(".offline-banner")).to_be_visible()
    for player in ("Bob", "Cy"):
        ann.click(f"button.pressure:has-text('{player}')")
        expect(ann.locator(".pending")).to_contain_text(f"Pressure: {player}")
    ann.click("button.pressure:has-text('Bob')")
    expect(ann.locator(".ask")).to_contain_text("Another pressure on Bob?")
    ann.locator(".ask").get_by_role("button", name="No, the same one").click()
    expect(ann.locator(".ask")).to_have_count(0)
    expect(ann.locator(".pending li")).to_have_count(2)


def test_tap_undo_tap_again_records_the_second_tap_without_a_question(server, phone):
    """Seen at a table: Cy, Undo, Cy again within five seconds asked "Another pressure on Cy?", and
    "No, the same one" left no pressure at all. An undone pressure is not "one moments ago"."""
    ann = phone()
    record_url = start_game(ann, server, ["Ann", "Bob", "Cy"])
    submit(ann, "button.pressure:has-text('Cy')")
    submit(ann, ".saved button:has-text('Undo')")
    expect(ann.locator(".flash")).to_contain_text("Undone: Hand 1 · pressure (Cy)")
    assert recorded_pressures(record_url) == []
    submit(ann, "button.pressure:has-text('Cy')")
    expect(ann.locator(".saved")).to_contain_text("Pressure to Cy")
    expect(ann.locator(".ask")).to_have_count(0)
    assert recorded_pressures(record_url) == ["Cy"]


def test_offline_tap_undo_tap_again_keeps_the_second_tap_without_a_question(server, phone):
    ann = phone()
    record_url = start_game(ann, server, ["Ann", "Bob", "Cy"])
    base = record_url[len(server) :]
    ann.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:{base}') !== null")
    ann.context.set_offline(True)
    expect(ann.locator(".offline-banner")).to_be_visible()
    ann.click("button.pressure:has-text('Cy')")
    expect(ann.locator(".pending")).to_contain_text("Pressure: Cy")
    ann.locator(".pending li", has_text="Cy").get_by_role("button", name="Undo").click()
    expect(ann.locator(".pending li")).to_have_count(0)
    ann.click("button.pressure:has-text('Cy')")
    expect(ann.locator(".pending li")).to_have_count(1)
    expect(ann.locator(".ask")).to_have_count(0)
    ann.context.set_offline(False)
    ann.wait_for_function("() => JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length === 0")
    assert recorded_pressures(record_url) == ["Cy"]


def test_forget_this_game_forgets_its_taps_too(server, phone):
    """Forget this game left the record link in the tab's session storage (its taps)."""
    ann = phone()
    record_url = start_game(ann, server, ["Ann", "Bob", "Cy"])
    base = record_url[len(server) :]
    ann.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:{base}') !== null")
    submit(ann, "button.pressure:has-text('Cy')")
    assert base.strip("/").split("/")[1] in (ann.evaluate("() => sessionStorage.getItem('scorekeeper:taps')") or "")
    ann.goto(server + "/")
    item = ann.locator("[data-my-games] li", has_text="Ann, Bob, Cy")
    item.get_by_role("button", name="Forget this game").click()
    item.get_by_role("button", name="Yes, forget it").click()
    expect(ann.locator("[data-my-games] li", has_text="Ann, Bob, Cy")).to_have_count(0)
    token = base.strip("/").split("/")[1]
    kept = ann.evaluate(
        "() => Object.keys(sessionStorage).map((key) => key + '=' + sessionStorage.getItem(key)).join(' ')"
    )
    assert token not in kept
