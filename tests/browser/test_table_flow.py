"""A table plays a whole partnership game on two phones, as players would."""

import json
import re
import urllib.request

from playwright.sync_api import expect

from scorekeeper.scoring import parse_record
from tests.browser.conftest import enter_hand, submit

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def start_game(page, server):
    page.goto(server + "/new")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"#players-{seat}", name)
    page.check("#partnerships")
    page.fill("#title", "Table 4")
    page.click("button:has-text('Start the game')")
    code = page.locator(".code strong").inner_text()
    page.click("text=Go to hand 1")
    return page.url, code


def tap(page, cards: str) -> None:
    for card in cards.split():
        page.click(f".pad button[data-card='{card}']")


def test_a_table_plays_a_game_end_to_end(server, phone, shot):
    ann = phone()
    record_url, code = start_game(ann, server)
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    assert "Hand 1" in ann.inner_text("h1")

    bob = phone()  # the second phone joins by the link the QR code holds
    bob.goto(record_url)
    assert "Dealer: Ann" in bob.inner_text(".deal")

    # A pressure: one tap, recorded at once, with what it cost and what the next will cost.
    submit(bob, "button.pressure:has-text('Bob')")
    assert "Pressure to Bob: 5. Bob & Di's next costs 10." in bob.inner_text(".saved")
    ann.reload()
    assert "Pressure: Bob (Bob & Di) +5" in ann.inner_text(".pending")

    # The count: 2, A, 2 played; the player who cannot continue draws 5. A refresh keeps it.
    for add in ("2", "1", "2"):
        ann.click(f".count-add[data-add='{add}']")
    assert ann.inner_text(".count-total") == "5"
    ann.reload()
    assert ann.inner_text(".count-total") == "5"

    submit(ann, "button.toggle:has-text('Cy')")
    assert "Cy · owes 2" in ann.inner_text(".toggle-row")
    ann.click("summary:has-text('Ruling note')")
    ann.fill("#text", "Di's 7 out of turn stands.")
    submit(ann, "button:has-text('Save note')")
    shot(ann, "flow-hand-1")

    # Leftovers by tapping, with the live score and the covering before saving.
    ann.click("text=END HAND")
    tap(ann, "A 2 3 3 6 8 K")
    expect(ann.locator("[data-live]")).to_contain_text("= 67")
    expect(ann.locator("[data-live]")).to_contain_text("3→6 3→2")
    shot(ann, "flow-leftovers")
    submit(ann, "button[type=submit]:has-text('Save')")
    assert "Ann's leftovers saved (67)" in ann.inner_text(".saved")

    bob.goto(f"{record_url}hand/1/seat/1")
    bob.click(".pad button[data-out]")
    submit(bob, "button[type=submit]:has-text('Save')")
    ann.goto(f"{record_url}hand/1/seat/2")
    tap(ann, "3 3 8")
    ann.click(".chip >> nth=2")  # a wrong tap, removed
    tap(ann, "8")
    submit(ann, "button[type=submit]:has-text('Save')")
    tap(ann, "K 10")
    submit(ann, "button[type=submit]:has-text('Save')")
    assert "Hand 1 is complete" in ann.inner_text(".saved")
    assert "Hand 2" in ann.inner_text("h1") and "7 cards each" in ann.inner_text("h1")
    assert "owes 2" not in ann.inner_text(".toggle-row")

    # Hands 2 to 15.
    for hand in range(2, 16):
        if hand % 4 == 0:
            ann.goto(record_url)
            submit(ann, "button.pressure:has-text('Cy')")
        enter_hand(ann, record_url, hand, ["", "K", "3", "A 9"])

    # A correction of hand 1 from its row, kept in the history.
    ann.goto(record_url + "scores")
    assert "Final standings" in ann.inner_text("h1")
    ann.click(".grid a:has-text('1')")
    ann.click("a:has-text('Correct') >> nth=3")
    ann.click(".chip >> nth=1")  # remove the 10, leaving the K
    submit(ann, "button[type=submit]:has-text('Save')")
    ann.goto(record_url + "history")
    assert "Di's leftovers corrected" in ann.inner_text(".history")
    assert "K 10 → K" in ann.inner_text(".history").replace("\n", " ")

    # The final standings agree with a replay of the exported record.
    ann.goto(record_url + "scores")
    shot(ann, "flow-final")
    with urllib.request.urlopen(record_url + "export.json") as response:
        record = json.loads(response.read())
    replay = parse_record(record).score().to_json()
    standings = " ".join(ann.inner_text(".standings").split())
    for side in replay["sides"]:
        assert f"{side['name']} {side['total']}" in standings
    expect(bob).to_have_url(record_url + "scores", timeout=15_000)  # his page followed the game to its end
    for side in replay["sides"]:  # and follows the correction made on Ann's phone
        expect(bob.locator(".standings")).to_contain_text(f"{side['name']} {side['total']}", timeout=10_000)


def test_a_half_entered_hand_survives_a_refresh(server, phone):
    page = phone()
    record_url, _ = start_game(page, server)
    page.goto(f"{record_url}hand/1/seat/0")
    tap(page, "K 3 8")
    page.reload()
    expect(page.locator("#cards")).to_have_value("K 3 8")
    expect(page.locator("[data-live]")).to_contain_text("= 53")
    submit(page, "button[type=submit]:has-text('Save')")
    page.goto(f"{record_url}hand/1/seat/0")
    expect(page.locator("#cards")).to_have_value("K 3 8")  # the saved value, now shown for correcting
