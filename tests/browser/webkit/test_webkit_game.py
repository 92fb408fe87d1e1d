"""The core of a game in WebKit (Safari's engine, on most phones at an American card table): start, join by
code, pressures, the pad (with suits), a saved hand, scores, history, share, the view link, two phones on
one game, and a change made while the server is down, delivered once."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains

from tests.browser.conftest import running_server

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def start_game(phone, server: str, players: list[str], rules: str = "crates", partnerships: bool = False):
    """The start form filled in as a player would; returns the share page's code and view link, and the
    record link (hand 1)."""
    phone.goto(server + "/new")
    phone.select("#rules", rules)
    for seat, name in enumerate(players):
        phone.fill(f"#players-{seat}", name)
    if partnerships:
        phone.click("#partnerships")
    phone.submit("button", "Start the game")
    code, view_url = phone.text(".code strong"), phone.attribute(".link a", "href")
    phone.submit("a.button", "Go to hand")
    return code, view_url, phone.url


def tap(phone, *keys: str) -> None:
    """Pad keys, by rank or (in a suited game) by suit."""
    for key in keys:
        phone.click(f"[data-pad] button[data-card='{key}'], [data-suits] button[aria-label='{key}']")


def save_leftovers(phone, record_url: str, hand: int, seat: int, *keys: str) -> None:
    phone.goto(f"{record_url}hand/{hand}/seat/{seat}")
    if keys:
        tap(phone, *keys)
    else:
        phone.click("[data-out]")
    phone.submit("button[type=submit]", "Save")


def record_of(url: str) -> dict:
    with urllib.request.urlopen(url + "export.json") as response:
        return json.loads(response.read())


def replayed_totals(record: dict) -> dict[str, int]:
    """What `scorekeeper replay` makes of the exported record: each side's total."""
    replay = subprocess.run(
        [str(Path(sys.executable).parent / "scorekeeper"), "replay", "--json", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=True,
    )
    return {side["name"]: side["total"] for side in json.loads(replay.stdout)["sides"]}


def shown_totals(phone) -> dict[str, int]:
    """The totals table of a scores page or the view link: each side's total as shown."""
    return phone.evaluate(
        """Object.fromEntries([...document.querySelectorAll("table.totals tr")].map(row =>
            [row.querySelector("th").textContent.trim(), Number(row.querySelector("td.big").textContent)]))"""
    )


def test_a_partnership_table_plays_a_hand_on_two_webkit_phones(server, webkit):
    ann = webkit("Ann")
    code, view_url, record_url = start_game(ann, server, PLAYERS, partnerships=True)
    ann.shot("hand")

    bob = webkit("Bob")  # the second phone types the code shown under the QR code
    bob.goto(server + "/join")
    bob.fill("#code", code)
    bob.submit("button", "Join")
    assert bob.url == record_url
    assert "Dealer: Ann" in bob.text(".deal")

    # A pressure on Bob's phone: one tap, what it cost, what the next costs; Ann's page follows by itself.
    bob.submit("button.pressure", "Bob")
    assert "Pressure to Bob: 5. Bob & Di's next costs 10." in bob.text(".saved")
    ann.wait_text(".pending", "Pressure: Bob (Bob & Di) +5")

    # The leftovers pad: taps, the live score with the covering, then saved.
    ann.click("a", "END HAND")
    tap(ann, "A", "2", "3", "3", "6", "8", "K")
    ann.wait_text("[data-live]", "= 67")
    assert "3→6 3→2" in ann.text("[data-live]")
    ann.shot("leftovers")
    ann.submit("button[type=submit]", "Save")
    assert "Ann's leftovers saved (67)" in ann.text(".saved")
    save_leftovers(bob, record_url, 1, 1)
    save_leftovers(ann, record_url, 1, 2, "3", "3", "8")
    save_leftovers(bob, record_url, 1, 3, "K", "10")
    assert "Hand 1 is complete" in bob.text(".saved")

    # Scores on both phones agree with a replay of the exported record.
    totals = replayed_totals(record_of(record_url))
    assert set(totals) == {"Ann & Cy", "Bob & Di"}
    ann.goto(record_url + "scores")
    assert shown_totals(ann) == totals
    ann.shot("scores")
    bob.goto(record_url + "scores")
    assert shown_totals(bob) == totals

    ann.goto(record_url + "history")
    history = " ".join(ann.text(".history").split())  # its lines as read, one space between
    assert "pressure Bob" in history and "Ann's leftovers A 2 3 3 6 8 K" in history
    ann.shot("history")

    ann.goto(record_url + "share")
    assert ann.text(".code strong") == code
    assert ann.count(".qr svg") == 2  # the record link's and the view link's

    spectator = webkit("Spectator")  # the view link: the scores, following the table, nothing to change
    spectator.goto(view_url)
    assert spectator.count("button.pressure") == 0 and spectator.count("form[method=post]") == 0
    assert shown_totals(spectator) == totals
    spectator.shot("view")


def test_the_250_pad_takes_a_rank_then_its_suit(server, webkit):
    phone = webkit()
    _, _, record_url = start_game(phone, server, ["Ann", "Bob", "Cy"], rules="two-fifty")
    phone.goto(f"{record_url}hand/1/seat/0")
    assert phone.evaluate("document.querySelector('[data-suits]').hidden")  # until a rank waits for its suit
    tap(phone, "K", "hearts", "K", "hearts", "9", "spades")
    assert phone.texts("[data-chips] .chip") == ["K♥", "K♥", "9♠"]
    phone.wait_text("[data-live]", "= 14")
    phone.shot("250-leftovers")
    phone.submit("button[type=submit]", "Save")
    save_leftovers(phone, record_url, 1, 1)
    save_leftovers(phone, record_url, 1, 2, "2", "clubs")
    totals = replayed_totals(record_of(record_url))
    assert totals["Ann"] == 14 and totals["Bob"] == 0
    phone.goto(record_url + "scores")
    assert shown_totals(phone) == totals


def test_a_change_made_while_the_server_is_down_is_delivered_once(webkit, tmp_path):
    """No fake network here: the server itself stops, and comes back on the same port with the same data."""
    phone = webkit()
    with running_server(tmp_path) as server:
        _, _, record_url = start_game(phone, server, ["Ann", "Bob", "Cy"])
    port = int(server.rsplit(":", 1)[1])

    phone.click("button.pressure", "Ann")
    phone.click("button.pressure", "Ann")  # a second, real pressure: asked about, and confirmed
    phone.click(".ask button", "Yes, a second one")
    phone.wait_text("[data-outbox-list]", "2 changes waiting to be sent")
    phone.shot("outbox-waiting")

    with running_server(tmp_path, port=port):
        phone.wait_until(  # delivered, not just out of sight
            lambda: phone.evaluate("JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length") == 0,
            "the outbox to empty",
            timeout=20,
        )
        phone.wait_hidden("[data-outbox-list]", timeout=20)
        record = record_of(record_url)
        assert record["in_play"]["pressures"] == ["Ann", "Ann"]
        with urllib.request.urlopen(record_url + "version") as response:
            assert json.loads(response.read())["version"] == 2  # two pressures, nothing doubled
        phone.wait_text(".pending", "Pressure: Ann")


def test_a_double_tap_records_one_pressure_and_a_second_tap_is_asked_about(server, webkit):
    phone = webkit()
    _, _, record_url = start_game(phone, server, ["Ann", "Bob"])
    button = phone.find("button.pressure", "Bob")
    ActionChains(phone.driver).double_click(button).perform()
    phone.wait_text(".saved", "Pressure to Bob: 5")
    assert record_of(record_url)["in_play"]["pressures"] == ["Bob"]

    phone.click("button.pressure", "Bob")
    phone.wait_text(".ask", "Another pressure on Bob?")
    phone.shot("second-pressure-asked")
    phone.click(".ask button", "No, the same one")
    assert phone.count(".ask") == 0
    assert record_of(record_url)["in_play"]["pressures"] == ["Bob"]


def test_out_as_the_first_entry_moves_on_in_webkit(server, webkit):
    """Seen in WebKit on a first evening: OUT stayed on the first player and the next taps turned it into cards."""
    phone = webkit()
    _, _, record_url = start_game(phone, server, PLAYERS)
    phone.goto(f"{record_url}hand/1/seat/0")
    phone.click("[data-out]")
    phone.wait_text("[data-player-name]", "Bob")
    tap(phone, "K")
    assert phone.texts("[data-chips] .chip") == ["K"]
    phone.click(".seat-tab[data-seat='0']")
    tap(phone, "5")
    phone.wait_text("[data-live]", "Ann went out")
    assert phone.texts("[data-chips] .chip") == ["OUT"]
