"""A hand entered at the table: one phone for everyone in about as many taps as there are cards,
on one screen of a small phone; and two phones entering the same player never lose a tap."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import assert_fits, start_game, submit

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
SMALL = {"viewport": {"width": 360, "height": 740}}


class Finger:
    """Taps as a player does: each counted, and each on something already on the screen (no scroll)."""

    def __init__(self, page):
        self.page = page
        self.taps = 0

    def tap(self, selector: str, scrolled: bool = False) -> None:
        self.page.wait_for_load_state()  # measured as laid out with its style sheet, not half-loaded
        target = self.page.locator(selector).first
        if scrolled:
            target.scroll_into_view_if_needed()
        box = target.bounding_box()
        height = self.page.viewport_size["height"]
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, f"{selector} is off the screen: {box}"
        self.taps += 1
        target.click(no_wait_after=True)

    def cards(self, cards: str) -> None:
        for card in cards.split():
            self.tap(f".pad button[data-card='{card}']")


def test_one_phone_enters_a_four_player_hand_on_one_screen_in_few_taps(server, phone, shot):
    page = phone(**SMALL)
    record_url = start_game(page, server, PLAYERS)
    finger = Finger(page)
    leftovers = ["K 3 8", "", "A 2", "Q Q 9 4"]

    finger.tap("text=END HAND")  # right after the PRESSURE buttons, on the first screen
    page.wait_for_url(re.compile(r"/hand/1/seat/0$"))
    finger.cards(leftovers[0])
    finger.tap(".seat-tab[data-seat='1']")
    finger.tap(".pad button[data-out]")  # Bob went out: on to Cy without a tap
    expect(page.locator("[data-player-name]")).to_have_text("Cy")
    finger.cards(leftovers[2])
    finger.tap(".seat-tab[data-seat='3']")
    finger.cards(leftovers[3])
    expect(page.locator("[data-save]")).to_have_text("Save 4 players' leftovers")
    shot(page, "hand-entry-360")
    with page.expect_navigation():
        finger.tap("[data-save]")

    expect(page.locator(".saved")).to_contain_text("Hand 1 is complete")
    cards = sum(len(hand.split()) for hand in leftovers)
    went_out = leftovers.count("")
    switches = sum(1 for hand in leftovers if hand) - 1  # between two players who both hold cards
    assert finger.taps <= cards + went_out + switches + 2, finger.taps
    page.goto(record_url + "hand/1")
    text = "".join(page.inner_text("main").split())
    for entered in ("Ann53K38", "Bob0OUT", "Cy21A2", "Di65QQ94"):
        assert entered in text


def test_the_entry_screen_needs_no_scrolling_on_a_small_phone(server, phone, shot):
    for scheme in ("light", "dark"):
        setup = phone()
        record_url = start_game(setup, server, PLAYERS)
        page = phone(color_scheme=scheme, **SMALL)
        page.goto(record_url + "hand/1/seat/0")
        finger = Finger(page)
        finger.cards("A 10 K")  # the pad's first and last rows, with chips above it
        for target in ("[data-save]", ".pad button[data-out]", ".seat-tab[data-seat='3']"):
            box = page.locator(target).bounding_box()
            assert box["y"] + box["height"] <= 740, f"{target} is below the fold: {box}"
        assert_fits(page, f"leftovers-{scheme}")
        shot(page, f"leftovers-360-{scheme}")


def test_save_stays_on_screen_with_suits_and_when_correcting(server, phone, shot):
    setup = phone()
    two_fifty = start_game(setup, server, ["Ann", "Bob", "Cy", "Di"], rules="two-fifty")
    crates = start_game(setup, server, PLAYERS)
    setup.goto(crates + "hand/1/seat/0")
    setup.fill("#cards", "K Q 3")
    submit(setup, "button[type=submit]:has-text('Save')")

    page = phone(**SMALL)
    page.goto(two_fifty + "hand/1/seat/0")
    finger = Finger(page)
    for rank, suit in (("A", "hearts"), ("10", "spades"), ("K", "clubs"), ("Q", "diamonds")):
        finger.tap(f"[data-pad] button[data-card='{rank}']")
        finger.tap(f"[data-suits] button[aria-label='{suit}']")
    page.goto(crates + "hand/1/seat/0")  # a correction: what stands is shown above the pad
    finger.cards("A 10")
    for target in ("[data-save]", ".pad button[data-out]"):
        box = page.locator(target).bounding_box()
        assert box["y"] + box["height"] <= 740, f"{target} is below the fold: {box}"
    shot(page, "leftovers-correction-360")


def test_a_second_phone_keeps_its_taps_and_is_shown_both_entries(server, phone, shot):
    a = phone()
    record_url = start_game(a, server, PLAYERS)
    b = phone()
    for page in (a, b):
        page.goto(record_url + "hand/1/seat/1")
    a.click(".pad button[data-card='9']")
    b.click(".pad button[data-card='4']")
    submit(a, "[data-save]")

    b.wait_for_timeout(4500)  # two polls: the live refresh has seen A's save
    expect(b.locator("[data-chips]")).to_have_text("4")
    b.click("[data-save]")
    versus = b.locator("[data-versus]")
    expect(versus).to_contain_text("Recorded: 9")
    expect(versus).to_contain_text("Yours: 4")
    b.wait_for_timeout(4500)
    expect(versus).to_be_visible()
    expect(b.locator("[data-chips]")).to_have_text("4")
    shot(b, "hand-entry-conflict")

    with b.expect_navigation():
        b.click("[data-versus] button:has-text('Save yours')")
    expect(b.locator(".saved")).to_contain_text("Bob's leftovers corrected")
    b.goto(record_url + "hand/1/seat/1")
    expect(b.locator("#cards")).to_have_value("4")


def test_a_phone_left_on_a_completed_hand_moves_on_with_it(server, phone):
    a = phone()
    record_url = start_game(a, server, PLAYERS)
    watcher = phone()
    watcher.goto(record_url + "hand/1/seat/3")
    a.goto(record_url + "hand/1/seat/0")
    finger = Finger(a)
    finger.cards("K")
    finger.tap(".seat-tab[data-seat='1']")
    finger.tap(".pad button[data-out]")
    finger.cards("3")
    finger.tap(".seat-tab[data-seat='3']")
    finger.cards("A")
    with a.expect_navigation():
        finger.tap("[data-save]")
    watcher.wait_for_url(record_url, timeout=10_000)
    expect(watcher.locator("h1")).to_contain_text("Hand 2")


def test_out_as_the_first_entry_moves_on_and_a_tap_never_replaces_an_out(server, phone):
    """Seen in a first evening (WebKit): OUT for the first player stayed on that player, and the
    next taps, meant for the next player, silently turned the OUT into cards."""
    page = phone(**SMALL)
    record_url = start_game(page, server, PLAYERS)
    page.goto(record_url + "hand/1/seat/0")
    page.click(".pad button[data-out]")
    expect(page.locator("[data-player-name]")).to_have_text("Bob")
    page.click(".pad button[data-card='K']")
    expect(page.locator("[data-chips]")).to_have_text("K")
    expect(page.locator(".seat-tab[data-seat='0']")).to_contain_text("out")
    for seat in ("2", "3"):  # the others hold cards; then back to Ann, who went out
        page.click(f".seat-tab[data-seat='{seat}']")
        page.click(".pad button[data-card='Q']")
    page.click(".seat-tab[data-seat='0']")
    expect(page.locator(".pad button[data-out]")).to_have_attribute("aria-pressed", "true")
    page.click(".pad button[data-card='5']")
    expect(page.locator("[data-live]")).to_contain_text("Ann went out")
    expect(page.locator("[data-chips]")).to_have_text("OUT")
    page.click(".pad button[data-out]")  # OUT again takes it back: now the cards go in
    page.click(".pad button[data-card='5']")
    expect(page.locator("[data-chips]")).to_have_text("5")
    page.click(".pad button[data-out]")
    with page.expect_navigation():
        page.click("[data-save]")
    page.goto(record_url + "hand/1")
    text = "".join(page.inner_text("main").split())
    for entered in ("Ann0OUT", "Bob10K", "Cy10Q", "Di10Q"):
        assert entered in text, text


def test_a_tabs_mark_stays_whole_beside_a_long_name(server, phone):
    """Seen in a first evening: a pad tab wrapped its mark as "(ou t)" beside a long name."""
    page = phone(**SMALL)
    names = ["Wolfeschlegelsteinhausenberger", "Christopherson Featherstonehau", "Cy", "Di"]
    record_url = start_game(page, server, names)
    page.goto(record_url + "hand/1/seat/0")
    page.click(".pad button[data-out]")  # on to the next, the first tab marked out
    page.click(".pad button[data-out]")
    for seat in ("0", "1"):
        mark = page.locator(f".seat-tab[data-seat='{seat}'] [data-tab-mark]")
        expect(mark).to_have_text(" (out)")
        height = mark.evaluate("m => m.getBoundingClientRect().height")
        line = mark.evaluate(
            "m => parseFloat(getComputedStyle(m).lineHeight) || parseFloat(getComputedStyle(m).fontSize) * 1.3"
        )
        assert height <= line * 1.2, f"the mark wraps: {height} px for a {line} px line"


def test_the_next_tap_clears_a_refusal_shown_beside_the_pad(server, phone):
    """Seen in a fresh-clone check: "Tap the cards left…" and "5 × K…" stayed under the pad after
    the taps that answered them."""
    page = phone(**SMALL)
    record_url = start_game(page, server, PLAYERS)
    page.goto(record_url + "hand/1/seat/0")
    refusal = page.locator("#leftovers-form .error")
    page.click("[data-save]")  # nothing tapped
    expect(refusal).to_contain_text("Tap the cards left")
    page.click(".pad button[data-card='K']")
    expect(refusal).to_have_count(0)
    for _ in range(4):
        page.click(".pad button[data-card='K']")
    page.click("[data-save]")
    expect(refusal).to_contain_text("5 × K")
    page.locator("[data-chips] button").first.click()  # one king taken back
    expect(refusal).to_have_count(0)
    expect(page.locator("[data-chips]")).to_have_text("KKKK")
