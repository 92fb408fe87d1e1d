"""Two phones enter the same hand's leftovers, neither knowing of the other: the one whose save
comes second is shown every player on whom they differ, both entries each, and loses nothing it
tapped, whether it hears of the conflict at once or only when the server is back."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import expect

from tests.browser.conftest import free_port, keep_shot, running_server, start_game
from tests.browser.test_accessibility import axe_violations

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
SMALL = {"viewport": {"width": 360, "height": 740}}
OUTBOX_EMPTY = "() => JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length === 0"
#: Phone X taps in the whole hand; phone Y, meanwhile, Ann's and Cy's leftovers, otherwise.
X_TAPS = {0: "K", 1: "4", 2: "2", 3: "J"}
Y_TAPS = {0: "9", 2: "Q 3"}


def leftovers(record_url: str) -> dict[str, list[str]]:
    """Hand 1's leftovers as the server records them."""
    with urllib.request.urlopen(record_url + "export.json") as response:
        record = json.loads(response.read())
    return record["hands"][0]["leftovers"] if record["hands"] else {}


def tap_in(page, taps: dict[int, str]) -> None:
    """Each seat's cards on the pad, one tab after another (the pad is open at hand 1)."""
    for seat, cards in taps.items():
        page.click(f".seat-tab[data-seat='{seat}']")
        for card in cards.split():
            page.click(f".pad button[data-card='{card}']")


def test_a_whole_hand_saved_offline_after_another_phones_entries_keeps_every_tap(phone, tmp_path, shot):
    """Seen in a fresh-clone check: X's refusal named Ann only, and "Open it to re-apply" brought back
    only the players nobody else had entered: X's K for Ann and 2 for Cy were lost."""
    port = free_port()
    instance = tmp_path / "instance"
    x, y = phone(**SMALL), phone()
    with running_server(instance, port) as server:
        record_url = start_game(x, server, PLAYERS)
        for page in (x, y):
            page.goto(record_url + "hand/1/seat/0")
            page.wait_for_function(
                f"() => localStorage.getItem('scorekeeper:copy:{record_url[len(server) :]}') !== null"
            )

    # The server is gone; each phone plays on, and saves.
    for page, taps in ((x, X_TAPS), (y, Y_TAPS)):
        expect(page.locator(".offline-banner")).to_be_visible(timeout=15_000)
        tap_in(page, taps)
        expect(page.locator("[data-save]")).to_have_text(f"Save {len(taps)} players' leftovers")
        page.click("[data-save]")
        expect(page.locator(".offline-banner")).to_contain_text("1 change waiting")
    expect(x.locator("[data-outbox-list] li")).to_have_text(["Leftovers: Ann, Bob, Cy, Di, hand 1"])

    x.context.set_offline(True)  # X is out of the room while the server comes back: Y's save arrives first
    with running_server(instance, port):
        y.wait_for_function(OUTBOX_EMPTY, timeout=30_000)
        assert leftovers(record_url) == {}  # Y entered two players: the hand is not complete
        x.context.set_offline(False)

        refusal = x.locator("[data-refused]")
        expect(refusal).to_contain_text("Not saved: Leftovers: Ann, Bob, Cy, Di, hand 1", timeout=20_000)
        expect(refusal.locator("li")).to_have_text(["Ann: Recorded: 9 / Yours: K", "Cy: Recorded: Q 3 / Yours: 2"])
        x.wait_for_function(OUTBOX_EMPTY)
        x.evaluate("scrollTo(0, 0)")
        keep_shot(x, "two-phones-refused-360")
        shot(x, "two-phones-refused")
        assert axe_violations(x) == []

        with x.expect_navigation():
            refusal.get_by_role("link", name="Open it to re-apply").click()
        versus = x.locator("[data-versus]")
        expect(versus.locator("[data-theirs-cell]")).to_have_text(["AnnRecorded: 9Keep it", "CyRecorded: Q 3Keep it"])
        expect(versus.locator("[data-mine-cell]")).to_have_text(["AnnYours: K", "CyYours: 2"])
        expect(x.locator("[data-refused]")).to_be_hidden()  # shown here, on the pad, not twice
        for seat in X_TAPS:  # every tab holds X's taps again, the two in conflict too
            expect(x.locator(f".seat-tab[data-seat='{seat}'] [data-tab-mark]")).to_have_text(
                f" ({len(X_TAPS[seat].split())})"
            )
        expect(x.locator("[data-save]")).to_have_text("Save 4 players' leftovers")
        x.evaluate("scrollTo(0, 0)")
        keep_shot(x, "two-phones-reapply-360")
        shot(x, "two-phones-reapply")
        assert axe_violations(x) == []

        with x.expect_navigation():
            versus.get_by_role("button", name="Save yours").click()
        expect(x.locator(".saved")).to_contain_text("Hand 1 is complete")
        assert leftovers(record_url) == {PLAYERS[seat]: cards.split() for seat, cards in X_TAPS.items()}
        expect(x.locator("[data-refused]")).to_be_hidden()  # settled: the "Not saved" box is gone
        assert x.evaluate("JSON.parse(localStorage.getItem('scorekeeper:refused') || '[]')") == []


def test_a_whole_hand_meeting_another_phones_entries_at_once_shows_each_and_keeps_what_is_chosen(server, phone):
    """Online, the refusal comes back to the pad that sent it: each player in conflict shown both ways,
    one kept as recorded with a tap, the rest of this phone's saved with one more."""
    x = phone(**SMALL)
    record_url = start_game(x, server, PLAYERS)
    y = phone()
    x.goto(record_url + "hand/1/seat/0")
    tap_in(x, X_TAPS)
    y.goto(record_url + "hand/1/seat/0")
    tap_in(y, Y_TAPS)
    with y.expect_navigation():
        y.click("[data-save]")

    x.click("[data-save]")
    versus = x.locator("[data-versus]")
    expect(versus).to_contain_text("Ann's and Cy's leftovers were entered meanwhile")
    expect(versus.locator("[data-theirs]")).to_have_text(["9", "Q 3"])
    expect(versus.locator("[data-mine]")).to_have_text(["K", "2"])
    versus.get_by_role("button", name="Keep it").first.click()  # Ann's 9 stands
    expect(versus.locator("[data-theirs]")).to_have_text(["Q 3"])
    expect(x.locator("[data-save]")).to_have_text("Save 3 players' leftovers")
    with x.expect_navigation():
        versus.get_by_role("button", name="Save yours").click()
    expect(x.locator(".saved")).to_contain_text("Hand 1 is complete")
    assert leftovers(record_url) == {"Ann": ["9"], "Bob": ["4"], "Cy": ["2"], "Di": ["J"]}
