"""Every screen at 360 px: no horizontal scrolling, every tap target at least 44 px, light and dark."""

import pytest

from .conftest import assert_fits, enter_hand, submit


def start_game(page, server) -> tuple[str, str]:
    page.goto(server + "/new")
    for seat, name in enumerate(["Annabelle", "Bartholomew", "Cy", "Di", "Ed"]):
        page.fill(f"#players-{seat}", name)
    page.click("button:has-text('Start the game')")
    view_url = page.locator(".link a").get_attribute("href")
    page.click("text=Go to hand 1")
    record_url = page.url
    submit(page, "button.pressure:has-text('Cy')")
    enter_hand(page, record_url, 1, ["A 3 3 6", "", "K", "8 8", "10"])
    return record_url, view_url


def screens(record_url: str, view_url: str, server: str) -> dict[str, str]:
    return {
        "home": server + "/",
        "new": server + "/new",
        "join": server + "/join",
        "share": record_url + "share",
        "hand": record_url,
        "leftovers": record_url + "hand/2/seat/1",
        "hand-detail": record_url + "hand/1",
        "scores": record_url + "scores",
        "history": record_url + "history",
        "view": view_url,
        "blank-sheet": server + "/blank-sheet",
        "rules": server + "/rules?rules=crates&jokers=y",
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_fits_a_small_phone_with_big_tap_targets(server, phone, shot, scheme):
    setup = phone()
    record_url, view_url = start_game(setup, server)
    page = phone(viewport={"width": 360, "height": 740}, color_scheme=scheme)
    for name, url in screens(record_url, view_url, server).items():
        page.goto(url)
        for summary in page.locator("details summary").all():
            summary.click()
        assert_fits(page, name)
        shot(page, f"{scheme}-{name}")
