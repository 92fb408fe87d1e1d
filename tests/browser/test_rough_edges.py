"""Issue 13's rough edges on a real phone: names where numbers were, what fits at 360 px."""

from playwright.sync_api import expect

from tests.browser.conftest import enter_hand, start_game, submit

SMALL = {"viewport": {"width": 360, "height": 740}}


def test_the_first_dealer_is_chosen_by_the_names_typed(server, phone, shot):
    page = phone(**SMALL)
    page.goto(server + "/new")
    assert page.locator("#first_dealer option").first.inner_text() == "Player 1"
    page.fill("#players-0", "Ann")
    page.fill("#players-1", "Bob")
    page.fill("#players-2", "Cy")
    visible = page.eval_on_selector_all("#first_dealer option", "os => os.filter(o => !o.hidden).map(o => o.text)")
    assert visible == ["Ann", "Bob", "Cy"]
    page.select_option("#first_dealer", label="Bob")
    shot(page, "edges-new-game-dealer")
    page.click("button:has-text('Start the game')")
    page.click("text=Go to hand 1")
    assert "Dealer: Bob" in page.inner_text(".deal")


def test_the_world_series_starts_with_two_names_and_the_dummys_pressure_goes_on(server, phone, shot):
    page = phone(**SMALL)
    start_game(page, server, ["Ann", "Bob"], "crates-world-series")
    assert "Figgy" in page.inner_text(".totals")
    shot(page, "edges-world-series-hand")
    submit(page, "button.pressure:has-text('Figgy → Ann')")
    assert "Pressure to Ann" in page.inner_text(".saved")
    shot(page, "edges-world-series-pressure")


def _crazy_eights_won(page, server) -> str:
    record_url = start_game(page, server, ["Kim", "Lee"], "crazy-eights")
    enter_hand(page, record_url, 1, ["K 5", ""])
    enter_hand(page, record_url, 2, ["", "8 8"])
    return record_url


def test_scores_show_the_bonus_and_hand_links_a_finger_can_hit(server, phone, shot):
    page = phone(**SMALL)
    record_url = _crazy_eights_won(page, server)
    page.goto(record_url + "scores")
    assert "+100" in page.inner_text("tr.bonus")
    assert page.locator("svg text.bonus").count() == 1
    for link in page.locator(".grid th[scope=row] a").all():
        box = link.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    assert "1 hands" not in page.inner_text("main") and "2 hands played" in page.inner_text("main")
    shot(page, "edges-scores-bonus-360")


def test_history_shows_local_times_and_one_line_per_undo(server, phone, shot):
    page = phone(**SMALL, timezone_id="Pacific/Auckland")
    record_url = _crazy_eights_won(page, server)
    page.goto(record_url + "history")
    lines_before = page.locator("ol.history > li").count()
    page.goto(record_url + "hand/2")
    page.fill("#text", "Lee's 8 was shown to all.")
    submit(page, "button:has-text('Add note')")
    submit(page, ".saved button:has-text('Undo')")
    assert "Undone: Hand 2" in page.inner_text(".flash")
    page.goto(record_url + "history")
    assert page.locator("ol.history > li").count() == lines_before + 1
    times = page.locator("ol.history time").all_inner_texts()
    assert times and not any("UTC" in text for text in times)
    shot(page, "edges-history-360")


def test_the_header_and_the_count_keep_to_one_line_at_360(server, phone, shot):
    setup = phone()
    setup.goto(server + "/new")
    for seat, name in enumerate(["Annabelle", "Bartholomew", "Cy"]):
        setup.fill(f"#players-{seat}", name)
    setup.click("button:has-text('Start the game')")
    view_url = setup.locator(".link a").get_attribute("href")
    setup.click("text=Go to hand 1")
    record_url = setup.url
    page = phone(**SMALL)
    page.goto(record_url)
    total, reset = page.locator(".count-total").bounding_box(), page.locator(".count-reset").bounding_box()
    assert abs(reset["y"] + reset["height"] / 2 - (total["y"] + total["height"] / 2)) < 4, (total, reset)
    shot(page, "edges-hand-360")
    page.goto(view_url)
    badge, link = page.locator(".gamenav .badge").bounding_box(), page.locator(".gamenav a").first.bounding_box()
    assert badge["y"] < link["y"] + link["height"] and link["y"] < badge["y"] + badge["height"], (badge, link)
    shot(page, "edges-view-360")


def test_the_outbox_box_stays_out_of_sight_while_a_change_is_sent_at_once(server, phone):
    page = phone(**SMALL)
    start_game(page, server, ["Ann", "Bob"])
    page.wait_for_selector("button.pressure")
    page.wait_for_load_state("load")
    page.evaluate(
        """() => { const box = document.querySelector('[data-outbox-list]');
        new MutationObserver(() => { if (!box.hidden) sessionStorage.setItem('outbox-shown', '1'); })
          .observe(box, {attributes: true, childList: true}); }"""
    )
    page.click("button.pressure:has-text('Ann')")
    expect(page.locator(".saved")).to_contain_text("Pressure to Ann")
    assert page.evaluate("sessionStorage.getItem('outbox-shown')") is None
