"""The director's flow at laptop size, and the wall screen following the tables by itself."""

from playwright.sync_api import expect

from tests.browser.conftest import as_director, enter_hand

LAPTOP = {"viewport": {"width": 1280, "height": 800}, "is_mobile": False, "has_touch": False, "device_scale_factor": 1}
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def submit_twice_at_once(page, form):
    """Send a form of the page twice at once, as the page would (its CSRF token, its cookies); the statuses."""
    return page.locator(form).evaluate(
        """form => Promise.all([1, 2].map(() =>
            fetch(form.action, {method: "POST", body: new FormData(form)}).then(response => response.status)))"""
    )


def test_a_director_runs_an_event_and_the_wall_screen_follows(server, phone, shot):
    director = phone(**LAPTOP)
    as_director(director, server, "/director/")
    director.click("text=New event")
    director.fill("#name", "Autumn Crates")
    director.fill("#held_on", "2026-11-22")
    director.select_option("#scoring", "placement")
    director.fill("#players", "\n".join(f"{name}, Boston BC" for name in PLAYERS))
    director.click("button:has-text('Create the event')")
    expect(director.locator("h1")).to_have_text("Autumn Crates")
    expect(director.locator("#tables")).not_to_be_empty()
    # The form sent twice at once (a double click on a slow network), maybe to two server workers: one round.
    assert submit_twice_at_once(director, "form[action$='/rounds#seat-round']") == [200, 200]
    director.reload()
    expect(director.locator(".director-tables tbody tr")).to_have_count(2)
    expect(director.locator("h2", has_text="Seat round")).to_have_text("Seat round 2")
    expect(director.locator("button:has-text('Withdraw round 1')")).to_be_visible()
    shot(director, "director-event")

    wall_url = director.locator("a:has-text('Wall screen')").get_attribute("href")
    wall = phone(viewport={"width": 1920, "height": 1080}, is_mobile=False, has_touch=False, device_scale_factor=1)
    wall.goto(wall_url)
    expect(wall.locator(".standings-grid tbody tr")).to_have_count(8)
    shot(wall, "wall-before")

    # A table plays a hand on a phone; the wall screen follows without anyone touching it.
    table_url = director.locator(".director-tables tbody tr >> nth=0 >> a").get_attribute("href")
    player = phone()
    enter_hand(player, f"{server}{table_url}", 1, ["K", "", "8", "A"])
    # The round is under way: each player's table shown as it stands, beside the ranking.
    bob = wall.locator(".standings-grid tbody tr", has_text="Bob").locator("td.playing")
    expect(bob).to_contain_text("50 so far", timeout=10_000)  # Bob's 8 counts 50
    expect(wall.locator(".standings-grid tbody tr", has_text="Di").locator("td.playing")).to_contain_text("10 so far")
    shot(wall, "wall-after")

    # Lock the first table (sent twice, it locks once): its phone can no longer change it.
    director.reload()
    expect(director.locator("button:has-text('Withdraw round 1')")).to_have_count(0)  # a hand is played
    director.click(".director-tables tbody tr >> nth=0 >> button:has-text('Lock')")
    expect(director.locator("[role=alert]", has_text="has not finished")).to_contain_text("1 hand complete")
    shot(director, "director-lock-asks")
    assert submit_twice_at_once(director, "form:has(button:has-text('Lock it as it stands'))") == [200, 200]
    director.reload()
    expect(director.locator(".director-tables tbody tr >> nth=0")).to_contain_text("Unlock")
    player.goto(server + table_url)
    expect(player.locator("[data-locked]")).to_contain_text("Locked by the director")
    expect(player.locator("button.pressure")).to_have_count(0)  # nothing left to tap and be refused

    director.click("a.button:has-text('Standings')")
    expect(director.locator("h1")).to_contain_text("standings during round 1")
    shot(director, "director-standings")
