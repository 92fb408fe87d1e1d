"""The Eights family and house rules on a phone in the dark: choosing the game, suits on the pad, columns."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import as_director, assert_fits, start_game, submit


def start(page, server, rules: str, players: list[str]) -> str:
    return start_game(page, server, players, rules)


def leftovers(page, record_url: str, hand: int, seat: int, taps: list[str] | None) -> None:
    page.goto(f"{record_url}hand/{hand}/seat/{seat}")
    if taps is None:
        page.click("[data-out]")
    for tap in taps or []:
        page.click(f"[data-pad] button[data-card='{tap}'], [data-suits] button[aria-label='{tap}']")
    submit(page, "button[type=submit]:has-text('Save')")


def test_a_crazy_eights_game_in_the_dark_shows_only_its_options_and_ends_at_100(server, phone, shot):
    page = phone(color_scheme="dark")
    page.goto(server + "/new")
    cap = page.locator(".field[data-games]:has(#option_pressure_increase_cap)")
    assert cap.is_visible()
    page.select_option("#rules", "crazy-eights")
    assert not cap.is_visible() and page.locator("#option_target").is_visible()
    shot(page, "dark-eights-new")
    record_url = start(page, server, "crazy-eights", ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])
    assert "5 cards each" in page.inner_text("h1") and not page.locator("button.pressure").count()
    assert_fits(page, "eights hand")
    shot(page, "dark-eights-hand")
    leftovers(page, record_url, 1, 0, None)
    for seat, card in enumerate(["8", "8", "8", "K", "K"], start=1):
        leftovers(page, record_url, 1, seat, [card])
    page.goto(record_url + "scores")
    assert "Final standings" in page.inner_text("main")
    assert page.locator(".standings li").first.inner_text().split() == ["1", "Ann", "270"]
    assert_fits(page, "eights scores")
    shot(page, "dark-eights-scores")


def test_the_250_game_takes_suits_from_the_pad(server, phone, shot):
    page = phone(color_scheme="dark")
    record_url = start(page, server, "two-fifty", ["Ann", "Bob", "Cy"])
    page.goto(f"{record_url}hand/1/seat/0")
    expect(page.locator("[data-suits]")).to_be_hidden()  # until a rank waits for its suit
    for tap in ["K", "hearts", "K", "hearts", "9", "spades"]:
        page.click(f"[data-pad] button[data-card='{tap}'], [data-suits] button[aria-label='{tap}']")
    assert page.locator("[data-chips] .chip").all_inner_texts() == ["K♥", "K♥", "9♠"]
    expect(page.locator("[data-live]")).to_contain_text("= 14")
    assert_fits(page, "250 leftovers")
    shot(page, "dark-250-leftovers")
    submit(page, "button[type=submit]:has-text('Save')")
    leftovers(page, record_url, 1, 1, None)
    leftovers(page, record_url, 1, 2, ["2", "clubs"])
    page.goto(record_url + "scores")
    assert "14" in page.inner_text("main")


def test_a_hollywood_session_shows_its_three_games(server, phone, shot):
    page = phone(color_scheme="dark")
    record_url = start(page, server, "hollywood-eights", ["Ann", "Bob"])
    leftovers(page, record_url, 1, 0, None)
    leftovers(page, record_url, 1, 1, ["8", "8", "K"])
    leftovers(page, record_url, 2, 0, ["A"])
    leftovers(page, record_url, 2, 1, None)
    page.goto(record_url)
    games = page.locator("table.games tbody tr").all_inner_texts()
    assert [re.sub(r"\s+", " ", row).strip() for row in games] == ["1 50 15 open", "2 0 0 open", "3 0 0 open"]
    assert_fits(page, "hollywood hand")
    shot(page, "dark-hollywood-hand")


def test_a_house_game_is_defined_and_played_on_a_small_phone(server, phone, shot):
    page = phone(color_scheme="dark", viewport={"width": 360, "height": 740})
    as_director(page, server, "/house-rules/new")  # once the server has a director, only they define house games
    page.fill("#name", "Pub Eights")
    page.fill("#value_EIGHT", "50")
    page.select_option("#scoring", "winner")
    page.select_option("#end", "target")
    page.fill("#deal", "7")
    assert_fits(page, "house form")
    page.click("button:has-text('Save this game')")
    assert "need the target's points" in page.inner_text(".field.has-error")  # no target given: kept and shown
    assert page.input_value("#name") == "Pub Eights"
    page.fill("#limit", "150")
    shot(page, "dark-house-form")
    page.click("button:has-text('Save this game')")
    assert "first to 150 at the end of a hand, 7 cards each" in page.inner_text("main")
    assert_fits(page, "house show")
    shot(page, "dark-house-show")
    page.click("text=Start a game with these rules")
    assert page.locator("#rules option:checked").inner_text() == "Pub Eights (house rules)"
    for seat, name in enumerate(["Ann", "Bob"]):
        page.fill(f"#players-{seat}", name)
    page.click("button:has-text('Start the game')")
    page.click("text=Go to hand 1")
    record_url = page.url
    leftovers(page, record_url, 1, 0, None)
    leftovers(page, record_url, 1, 1, ["8", "K"])
    page.goto(record_url + "scores")
    assert "60" in page.inner_text("table.totals")
    shot(page, "dark-house-scores")


def test_a_rank_waits_visibly_for_its_suit_and_the_suit_never_goes_to_a_later_rank(server, phone):
    """Seen in a first evening: Q, then 2, then ♠ gave the spade to the 2 and left the Q without a
    suit, under a red message about typing. Now the Q waits (dashed, "Q?"), a hint asks for its
    suit, the 2 waits its turn, and no error shows while the player is tapping."""
    page = phone()
    record_url = start(page, server, "two-fifty", ["Ann", "Bob", "Cy"])
    page.goto(f"{record_url}hand/1/seat/0")
    page.click("[data-pad] button[data-card='Q']")
    expect(page.locator("[data-chips] .chip.waiting")).to_have_text("Q?")
    expect(page.locator("[data-live]")).to_have_text("Now the suit of Q.")
    page.click("[data-pad] button[data-card='2']")
    expect(page.locator("[data-live]")).to_contain_text("First the suit of Q")
    assert "bad" not in (page.get_attribute("[data-live]", "class") or "")
    page.click("[data-suits] button[aria-label='spades']")
    page.click("[data-pad] button[data-card='2']")
    page.click("[data-suits] button[aria-label='clubs']")
    assert page.locator("[data-chips] .chip").all_inner_texts() == ["Q♠", "2♣"]
    expect(page.locator("[data-live]")).to_contain_text("= 24")  # (10 + 2), doubled by the deuce
