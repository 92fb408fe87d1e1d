"""A phone loses the Wi-Fi mid-hand: what it records waits in its outbox and arrives exactly once."""

import json
import urllib.parse
import urllib.request
from datetime import UTC, datetime, timedelta
from itertools import pairwise

from playwright.sync_api import expect

from tests.browser.conftest import keep_shot, start_game, submit
from tests.browser.test_accessibility import axe_violations

OUTBOX_EMPTY = "() => JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length === 0"


def start_three(page, server) -> str:
    return start_game(page, server, ["Ann", "Bob", "Cy"])


def test_offline_pressure_and_leftovers_arrive_once_and_both_phones_agree(server, phone):
    ann = phone()
    record_url = start_three(ann, server)
    bob = phone()
    bob.goto(record_url + "scores")
    expect(bob.locator("[data-live-status]")).to_have_text("● Live")

    leftovers = ann.context.new_page()
    leftovers.goto(f"{record_url}hand/1/seat/0")
    ann.context.set_offline(True)

    ann.click("button.pressure:has-text('Ann')")
    ann.click("button.pressure:has-text('Ann')")  # a second, real pressure, also taken offline:
    ann.locator(".ask").get_by_role("button", name="Yes, a second one").click()  # asked, and confirmed
    expect(ann.locator("[data-outbox-list]")).to_contain_text("2 changes waiting to be sent")
    expect(ann.locator("[data-live-status]")).to_contain_text("Offline")
    for card in ("K", "3", "A"):
        leftovers.click(f".pad button[data-card='{card}']")
    leftovers.click("button[type=submit]:has-text('Save')")
    leftovers.click("button[type=submit]:has-text('Save')")  # a doubled tap
    expect(leftovers.locator("[data-outbox-list]")).to_contain_text("3 changes waiting to be sent")

    ann.context.set_offline(False)  # two pages share the outbox and may both send it: keys keep it once
    # Delivered, not just out of sight (the list hides changes younger than a moment while online).
    ann.wait_for_function(OUTBOX_EMPTY, timeout=15_000)
    expect(ann.locator("[data-outbox-list]")).to_be_hidden(timeout=15_000)
    expect(leftovers.locator("[data-outbox-list]")).to_be_hidden(timeout=15_000)

    with urllib.request.urlopen(record_url + "export.json") as response:
        record = json.loads(response.read())
    assert record["in_play"]["pressures"] == ["Ann", "Ann"]

    # Bob finishes the hand on another page; his scores page follows without a reload.
    entry = phone()
    entry.goto(f"{record_url}hand/1/seat/1")
    entry.fill("#cards", "9")
    submit(entry, "button[type=submit]:has-text('Save')")
    entry.click(".pad button[data-out]")  # with JavaScript, OUT is the one way to say it
    submit(entry, "button[type=submit]:has-text('Save')")
    expect(bob.locator(".grid tbody")).to_contain_text("19", timeout=10_000)  # Ann: 3 covers K, + A; pressures 5 + 10

    with urllib.request.urlopen(record_url + "export.json") as response:
        record = json.loads(response.read())
    assert record["hands"] == [
        {"leftovers": {"Ann": ["K", "3", "A"], "Bob": ["9"], "Cy": []}, "pressures": ["Ann", "Ann"]}
    ]
    with urllib.request.urlopen(record_url + "version") as response:
        assert json.loads(response.read())["version"] == 5  # two pressures, three leftovers: nothing doubled
    ann.goto(record_url + "scores")
    assert ann.inner_text(".grid") == bob.inner_text(".grid")


def test_the_scoreboard_follows_another_phone_without_reloading(server, phone):
    ann = phone()
    record_url = start_three(ann, server)
    bob = phone()
    bob.goto(record_url)
    bob.evaluate("() => { window.sameDocument = true; }")
    submit(ann, "button.pressure:has-text('Cy')")
    expect(bob.locator(".pending")).to_contain_text("Pressure: Cy", timeout=10_000)
    assert bob.evaluate("() => window.sameDocument === true"), "the page reloaded instead of updating in place"
    bob.click(".count-add[data-add='2']")  # the page's scripts still work on the swapped content
    expect(bob.locator(".count-total")).to_have_text("2")


def test_a_server_error_on_one_game_holds_back_no_other_game_and_is_reported(server, phone):
    """One outbox serves every game on the phone: a change the server keeps failing (5xx) holds back
    only that game's later changes, and after a few tries the phone says it was not saved."""
    ann = phone()
    first = start_three(ann, server)
    second_page = ann.context.new_page()
    second = start_three(second_page, server)
    ann.context.route(first + "pressure", lambda route: route.fulfill(status=500, body="boom"))

    ann.goto(first)
    ann.click("button.pressure:has-text('Bob')")
    expect(ann.locator("[data-live-status]")).to_contain_text("Server error")
    expect(ann.locator("[data-outbox-list]")).to_contain_text("1 change waiting to be sent")

    second_page.goto(second)
    second_page.click("button.pressure:has-text('Cy')")
    expect(second_page.locator(".saved")).to_contain_text("Pressure to Cy", timeout=10_000)
    with urllib.request.urlopen(second + "export.json") as response:
        assert json.loads(response.read())["in_play"]["pressures"] == ["Cy"]

    expect(ann.locator("[data-refused]")).to_contain_text("The server failed to save it", timeout=20_000)
    expect(ann.locator("[data-outbox-list]")).to_be_hidden()
    ann.context.unroute(first + "pressure")
    with urllib.request.urlopen(first + "export.json") as response:
        assert "in_play" not in json.loads(response.read())


LISTEN = """() => {
  window.heard = [];
  for (const name of ["scorekeeper:outbox", "scorekeeper:delivered", "scorekeeper:connection"]) {
    document.addEventListener(name, (event) => window.heard.push([name.slice(12), event.detail]));
  }
}"""
PENDING = "async (prefix) => (await import('/static/outbox.js')).pending(prefix)"


def test_the_outbox_tells_the_page_what_waits_what_arrived_and_whether_it_is_connected(server, phone):
    """What an offline layer builds on (outbox.js): a game's queued changes, stored as they always
    were, and events on the document when the queue changes, an item arrives, the connection changes."""
    ann = phone()
    record_url = start_three(ann, server)
    game = urllib.parse.urlsplit(record_url).path
    expect(ann.locator("[data-live-status]")).to_have_text("● Live")
    ann.evaluate(LISTEN)
    ann.context.set_offline(True)
    ann.click("button.pressure:has-text('Bob')")
    expect(ann.locator("[data-outbox-list]")).to_contain_text("1 change waiting to be sent")

    waiting = ann.evaluate(PENDING, game)
    assert len(waiting) == 1 and set(waiting[0]) == {"id", "url", "body", "from", "label", "replace", "at"}
    assert ann.evaluate(PENDING, "/t/another-game/") == []

    ann.context.set_offline(False)
    ann.wait_for_function(OUTBOX_EMPTY, timeout=15_000)
    expect(ann.locator(".pending")).to_contain_text("Pressure: Bob", timeout=10_000)
    heard = ann.evaluate("() => window.heard")  # the page was brought up to date in place: still listening
    queues = [len(detail) for name, detail in heard if name == "outbox"]
    assert queues[0] == 1 and queues[-1] == 0, heard
    delivered = [detail for name, detail in heard if name == "delivered"]
    assert len(delivered) == 1 and delivered[0]["item"]["id"] == waiting[0]["id"] and delivered[0]["result"]["ok"]
    states = [detail for name, detail in heard if name == "connection"]
    assert states[0] == "offline" and states[-1] == "live", states
    assert all(before != after for before, after in pairwise(states)), states


def test_a_note_kept_offline_arrives_stamped_with_the_time_it_was_written(server, phone):
    """Seen in a fresh-clone check: pressures sent late were stamped when tapped, leftovers and notes
    when they arrived. Every change now says how long it waited in the outbox."""
    ann = phone()
    record_url = start_three(ann, server)
    ann.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:{record_url[len(server) :]}') !== null")
    ann.context.set_offline(True)
    expect(ann.locator(".offline-banner")).to_be_visible()
    ann.click("summary:has-text('Ruling note')")
    ann.fill("textarea[name=text]", "Cy misdealt; redealt")
    written = datetime.now(UTC)
    ann.click("button:has-text('Save note')")
    expect(ann.locator(".offline-banner")).to_contain_text("1 change waiting")
    ann.wait_for_timeout(4000)
    with ann.expect_request(lambda request: request.url.endswith("/note")) as sent:
        ann.context.set_offline(False)
    assert int(urllib.parse.parse_qs(sent.value.post_data)["waited"][0]) >= 4000
    ann.wait_for_function(OUTBOX_EMPTY, timeout=15_000)
    with urllib.request.urlopen(record_url + "copy.json") as response:
        (note,) = json.loads(response.read())["entries"]
    assert datetime.fromisoformat(note["at"]) <= written + timedelta(seconds=1)


def test_many_changes_waiting_take_no_more_room_than_two(server, phone, shot):
    """Seen in a fresh-clone check at 360 x 740: every pressure taken offline added a line to the list of
    what waits, above the PRESSURE buttons, until they were below the fold. Past two changes the list
    folds into its count, one tap from the whole of it, and the buttons stay where they were."""
    page = phone(viewport={"width": 360, "height": 740})
    players = ["Ann", "Bob", "Cy", "Di"]
    record_url = start_game(page, server, players, partnerships=True)
    page.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:{record_url[len(server) :]}') !== null")
    page.context.set_offline(True)
    expect(page.locator(".offline-banner")).to_be_visible()
    waiting = page.locator("[data-outbox-list]")
    lowest = "() => { scrollTo(0, 0); return Math.max(...Array.from(document.querySelectorAll('button.pressure'), (b) => b.getBoundingClientRect().bottom)); }"
    for taken, player in enumerate([*players, players[0]], start=1):
        page.click(f"button.pressure:has-text('{player}')")
        if taken > len(players):  # Ann again within seconds: asked, and confirmed
            page.locator(".ask").get_by_role("button", name="Yes, a second one").click()
        expect(page.locator(".pending li")).to_have_count(taken)
        if taken == 2:
            expect(waiting).to_contain_text("2 changes waiting to be sent:")
            expect(waiting.locator("li")).to_have_count(2)
            with_two = page.evaluate(lowest)
    expect(page.locator(".offline-banner")).to_contain_text("5 changes waiting")
    expect(waiting).to_contain_text("5 changes waiting to be sent")
    expect(waiting.locator("li").first).to_be_hidden()
    assert page.evaluate(lowest) <= with_two
    summary = waiting.locator("summary").bounding_box()
    assert summary["height"] >= 44, summary  # a tap target
    keep_shot(page, "offline-hand-360-five-waiting")
    assert axe_violations(page) == []
    waiting.locator("summary").click()  # the whole list, one tap away
    expect(waiting.locator("li")).to_have_count(5)
    expect(waiting.locator("li").last).to_be_visible()
    expect(waiting.locator("li").first).to_have_text("Pressure: Ann, hand 1")
    shot(page, "offline-hand-360-five-waiting-opened")


def test_a_whole_hand_saved_offline_is_one_change_waiting_wherever_it_is_counted(server, phone):
    """Seen in a fresh-clone check: the list said 1 change waiting, the banner above the page 4 (one for
    each player's entry in the save). Both say the outbox's one count."""
    page = phone()
    record_url = start_game(page, server, ["Ann", "Bob", "Cy", "Di"])
    page.goto(record_url + "hand/1/seat/0")
    page.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:{record_url[len(server) :]}') !== null")
    page.context.set_offline(True)
    expect(page.locator(".offline-banner")).to_be_visible()
    for seat, card in enumerate(["K", "2", "9", "Q"]):
        page.click(f".seat-tab[data-seat='{seat}']")
        page.click(f".pad button[data-card='{card}']")
    expect(page.locator("[data-save]")).to_have_text("Save 4 players' leftovers")
    page.click("[data-save]")
    expect(page.locator(".offline-banner")).to_contain_text("Offline · 1 change waiting")
    waiting = page.locator("[data-outbox-list]")
    expect(waiting).to_contain_text("1 change waiting to be sent")
    expect(waiting.locator("li")).to_have_text(["Leftovers: Ann, Bob, Cy, Di, hand 1"])  # its players by name, spaced
