"""The wall screen of a 300-player field on a TV (1920 x 1080 and 1280 x 720): pages that fit the
screen, in large type, turning by themselves through every player exactly once, and a live update
that keeps the page shown; without JavaScript, one long page of every row."""

from __future__ import annotations

import itertools
import re
import time

import pytest
from playwright.sync_api import expect

from scorekeeper.gamelog.entries import LEFTOVERS, Change
from scorekeeper.storage import events as event_store
from scorekeeper.storage.database import DATABASE_FILE, connect, migrate
from scorekeeper.storage.events import EventPlayer
from scorekeeper.storage.games import append
from tests.browser.conftest import running_server
from tests.support.club import play, seat

FIRST = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max", "Nell", "Ozzie"]
LAST = [
    "Abbott",
    "Baker",
    "Chen",
    "Duarte",
    "Evans",
    "Fitzgerald-Montgomery",
    "Garcia",
    "Huang",
    "Ibrahim",
    "Jones",
    "Kowalczyk",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okonkwo",
    "Papadopoulos",
    "Quinn",
    "Rossi",
    "Svensson",
    "Thompson",
]
PLAYERS = [f"{first} {last}" for last, first in itertools.product(LAST, FIRST)][:300]
TVS = [(1920, 1080), (1280, 720)]
FINISHED, PLAYING = range(0, 12), range(12, 30)

#: What the wall shows now: the page's label, and each row shown (its player and its box).
SHOWN = """() => {
  const tag = document.querySelector("[data-wall-page]");
  const rows = [...document.querySelectorAll(".standings-grid tbody tr")].filter((row) => row.offsetParent !== null);
  return {
    label: tag && !tag.hidden ? tag.textContent : "",
    names: rows.map((row) => row.cells[1].childNodes[0].textContent.trim()),
    places: rows.map((row) => row.cells[0].textContent.trim()),
    bottom: Math.max(...rows.map((row) => row.getBoundingClientRect().bottom)),
    height: window.innerHeight,
    scrolls: document.documentElement.scrollHeight > window.innerHeight,
    type: parseFloat(getComputedStyle(rows[0]).fontSize),
  };
}"""


def hand(db, table, number: int) -> None:
    """One more hand at a table still playing (its seats take turns going out)."""
    players = table.game.game.players
    for seat_number, name in enumerate(players):
        cards = [] if seat_number == (number - 1) % len(players) else ["K"]
        append(
            db,
            table.game,
            Change(LEFTOVERS, number, name, {"cards": cards}),
            f"wall-{table.number}-{number}-{name}",
            "t",
        )


@pytest.fixture(scope="module")
def field(tmp_path_factory):
    """Round 1 of 5 for 300 players: 12 tables finished, 18 at their third hand, the rest at their first."""
    instance = tmp_path_factory.mktemp("field")
    database = str(instance / DATABASE_FILE)
    migrate(database)
    db = connect(database)
    event = event_store.create_event(
        db,
        "County open",
        "2026-11-22",
        "crates",
        {},
        "total",
        "none",
        [EventPlayer(n, "", "") for n in PLAYERS],
        rounds=5,
    )
    tables = seat(db, event, [PLAYERS[i : i + 4] for i in range(0, len(PLAYERS), 4)])
    for table in (tables[n] for n in FINISHED):
        play(db, table, {name: place for place, name in enumerate(table.game.game.players, start=1)})
    for table in (tables[n] for n in PLAYING):
        hand(db, table, 1)
        hand(db, table, 2)
    db.conn.close()
    with running_server(instance) as base:
        yield base + f"/e/{event.wall_token}/", database, tables


def held(places: list[str]) -> str:
    """What the label says a page holds: the places of its placed rows (the finished tables'
    players, provisional), and how many rows have no place yet (the tables still playing)."""
    numbers = [int(place.split()[0]) for place in places if place != "—"]
    words = ""
    if numbers:
        words += f" · places {numbers[0]}–{numbers[-1]}" if numbers[0] != numbers[-1] else f" · place {numbers[0]}"
    if len(numbers) < len(places):
        words += f" · {len(places) - len(numbers)} without a place yet"
    return words


def tv(phone, width: int, height: int):
    return phone(viewport={"width": width, "height": height}, is_mobile=False, has_touch=False, device_scale_factor=1)


@pytest.mark.parametrize("width, height", TVS)
def test_the_wall_pages_through_300_players_each_once_every_page_on_the_screen_in_large_type(
    field, phone, shot, width, height
):
    url, _, _ = field
    wall = tv(phone, width, height)
    wall.goto(url + "?seconds=1")
    expect(wall.locator("[data-wall-page]")).to_contain_text("Page 1 of ")
    count = int(re.search(r"of (\d+)", wall.inner_text("[data-wall-page]")).group(1))
    seen: dict[int, dict] = {}
    deadline = time.monotonic() + count * 3  # a page turns every second: a page missed comes round again
    while time.monotonic() < deadline:
        now = wall.evaluate(SHOWN)
        number = int(re.match(r"Page (\d+) of", now["label"]).group(1))
        if number not in seen:
            seen[number] = now
            if number in (1, count // 2):
                shot(wall, f"wall-300-{width}x{height}-page-{number}")
        if len(seen) == count:
            break
        wall.wait_for_timeout(200)
    assert sorted(seen) == list(range(1, count + 1)), f"pages seen: {sorted(seen)} of {count}"
    in_order = [name for number in sorted(seen) for name in seen[number]["names"]]
    assert sorted(in_order) == sorted(PLAYERS) and len(in_order) == len(set(in_order)) == 300, "each player once"
    for number, page in sorted(seen.items()):
        rows = len(page["names"])
        assert page["label"] == f"Page {number} of {count}" + held(page["places"]), page
        assert page["bottom"] <= page["height"] and not page["scrolls"], f"page {number} runs off the screen"
        # Read from the back of the room: the rows' type at least 1/32 of the screen's height, as
        # large a share of it on either TV, so no more than some twenty rows a screen.
        assert page["type"] >= height / 32, page["type"]
        assert rows <= 26
    # 48 players placed (provisional), 252 still playing: no page counts those as places.
    labels = [page["label"] for page in seen.values()]
    assert not any("places 49" in label or "–300" in label for label in labels), labels
    assert sum(int(m.group(1)) for label in labels for m in [re.search(r"(\d+) without a place", label)] if m) == 252
    # The field's order: the finished tables' players ranked first (provisional), then those playing.
    assert seen[1]["names"][0] in {table_player for n in FINISHED for table_player in PLAYERS[4 * n : 4 * n + 4]}
    assert count >= 300 // 26


def test_a_live_update_keeps_the_page_shown_and_its_rows(field, phone, shot):
    url, database, tables = field
    wall = tv(phone, 1920, 1080)
    wall.goto(url + "?seconds=600")
    expect(wall.locator("[data-wall-page]")).to_contain_text("Page 1 of ")
    wall.keyboard.press("PageDown")
    wall.keyboard.press("ArrowRight")
    expect(wall.locator("[data-wall-page]")).to_contain_text("Page 3 of ")
    before = wall.evaluate(SHOWN)
    wall.evaluate("window.shownMain = document.querySelector('main')")
    db = connect(database)
    try:
        hand(db, tables[PLAYING[0]], 3)
    finally:
        db.conn.close()
    for _ in range(150):  # the page's policy allows no eval: wait_for_function cannot poll it
        if wall.evaluate("() => document.querySelector('main') !== window.shownMain"):
            break
        wall.wait_for_timeout(100)
    else:
        raise AssertionError("the wall did not follow the change within 15 s")
    after = wall.evaluate(SHOWN)
    assert after["label"] == before["label"] and after["names"] == before["names"]
    assert after["bottom"] <= after["height"]
    shot(wall, "wall-300-after-a-live-update")
    wall.keyboard.press("ArrowLeft")
    expect(wall.locator("[data-wall-page]")).to_contain_text("Page 2 of ")


def test_without_javascript_the_wall_is_one_long_page_of_every_player(field, browser):
    url, _, _ = field
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, java_script_enabled=False)
    try:
        wall = context.new_page()
        wall.goto(url)
        rows = wall.locator(".standings-grid tbody tr")
        expect(rows).to_have_count(300)
        assert all(row.is_visible() for row in rows.all()[::37])
        assert wall.evaluate("document.documentElement.scrollHeight") > 5 * 1080
        assert not wall.locator("[data-wall-page]").is_visible()
    finally:
        context.close()
