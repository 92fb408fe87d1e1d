"""The wall screen's cells at a TV's width and a phone's: a player's tables with the rounds they
missed ("2 (+2 missed)") stay inside their cell, and totals of three and four digits line up
on their last digit (tabular figures, right-aligned)."""

from __future__ import annotations

import pytest

from scorekeeper.gamelog.entries import LEFTOVERS, Change
from scorekeeper.storage import event_roster
from scorekeeper.storage import events as event_store
from scorekeeper.storage.database import DATABASE_FILE, connect, migrate
from scorekeeper.storage.events import EventPlayer
from scorekeeper.storage.games import append
from tests.browser.conftest import running_server
from tests.support.club import seat

TWELVE = [
    "Ann Abbott",
    "Bob Baker",
    "Cy Chen",
    "Di Duarte",
    "Ed Evans",
    "Flo Fitzgerald-Montgomery",
    "Gus Garcia",
    "Hal Huang",
    "Ivy Ibrahim",
    "Jo Jones",
    "Kit Kowalczyk",
    "Lou Lindqvist",
]
#: What each seat keeps every hand (as many as the hand deals): a few points for the first, many for the last.
KEPT = [["2"], ["2", "3"], ["K", "Q", "J", "10", "9", "8", "7", "6"], ["A", "K", "Q", "J", "10", "9", "8", "7"]]


def play_out(db, table) -> None:
    """15 hands where the first seat always goes out and the others keep what ``KEPT`` gives them."""
    game = table.game.game
    for number in range(1, 16):
        dealt = game.cards_dealt(number)
        for index, name in enumerate(game.players):
            cards = [] if index == 0 else KEPT[index][:dealt]
            append(
                db,
                table.game,
                Change(LEFTOVERS, number, name, {"cards": cards}),
                f"w{table.round}-{table.number}-{number}-{name}",
                "t",
            )


@pytest.fixture(scope="module")
def wall(tmp_path_factory):
    """Three rounds: twelve players in round 1, then four of them withdrawn (two rounds missed each)."""
    instance = tmp_path_factory.mktemp("wall-cells")
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
        [EventPlayer(n, "", "") for n in TWELVE],
        rounds=3,
    )
    for table in seat(db, event, [TWELVE[i : i + 4] for i in range(0, 12, 4)]):
        play_out(db, table)
    for name in TWELVE[8:]:
        event_roster.withdraw_player(db, event, name, 2)
    for _ in range(2):
        for table in seat(db, event, [TWELVE[0:4], TWELVE[4:8]]):
            play_out(db, table)
    db.conn.close()
    with running_server(instance) as base:
        yield base + f"/e/{event.wall_token}/"


CELLS = """() => [...document.querySelectorAll(".standings-grid tbody tr")].filter((row) => row.offsetParent !== null).map((row) => {
  const text = (node) => node.textContent.replace(/\\s+/g, " ").trim();
  const right = (node) => { const r = document.createRange(); r.selectNodeContents(node); return r.getBoundingClientRect().right; };
  const shown = [...row.cells].filter((cell) => cell.offsetParent !== null);
  const missed = shown.flatMap((cell) => [...cell.querySelectorAll("small, span")]
    .filter((el) => el.offsetParent !== null && /missed/.test(el.textContent) && !el.querySelector("small"))
    .map((el) => ({ text: text(el), right: right(el), cellRight: cell.getBoundingClientRect().right - parseFloat(getComputedStyle(cell).paddingRight) + 1, overflow: cell.scrollWidth - cell.clientWidth })));
  const total = row.cells[2];
  return {
    name: row.cells[1].childNodes[0].textContent.trim(),
    missed,
    total: text(total),
    totalRight: right(total),
    figures: getComputedStyle(total).fontVariantNumeric,
    align: getComputedStyle(total).textAlign,
  };
})"""


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (390, 844)], ids=["tv", "phone"])
def test_missed_rounds_stay_in_their_cell_and_totals_line_up(phone, shot, wall, width, height):
    tv = width > 1000
    page = phone(
        viewport={"width": width, "height": height},
        is_mobile=not tv,
        has_touch=not tv,
        device_scale_factor=1 if tv else 2,
    )
    page.goto(wall)
    page.wait_for_selector(".standings-grid tbody tr")
    shot(page, f"wall-cells-{width}x{height}")
    rows = page.evaluate(CELLS)
    missed = [part for row in rows for part in row["missed"]]
    assert missed, rows
    for part in missed:
        assert part["overflow"] <= 0 and part["right"] <= part["cellRight"], part
    totals = [row for row in rows if row["total"].isdigit()]
    assert {len(row["total"]) for row in totals} >= {3, 4}, [row["total"] for row in totals]
    assert all(row["figures"] == "tabular-nums" and row["align"] == "right" for row in totals), totals
    assert max(row["totalRight"] for row in totals) - min(row["totalRight"] for row in totals) < 0.5, totals


WHY = """() => Object.fromEntries([...document.querySelectorAll(".standings-grid tbody tr")].map((row) => [
  row.cells[1].childNodes[0].textContent.trim(),
  [...row.cells[1].querySelectorAll("small, span")].filter((el) => getComputedStyle(el).display !== "none").map((el) => el.textContent.trim()),
]))"""


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720), (390, 844)], ids=["tv", "small-tv", "phone"])
def test_the_wall_says_why_a_player_is_placed_after_the_rest(phone, shot, wall, width, height):
    """Seen at an evening: on a TV the wall hid every note, and the lowest total stood 16th with
    only "(withdrew after round 1)" beside it. Who played 1 of 3 rounds says so, in a few words on
    a TV, in the notes' sentence on a phone, once either way (on whichever page the wall shows it)."""
    tv = width > 1000
    page = phone(viewport={"width": width, "height": height}, is_mobile=not tv, has_touch=not tv)
    page.goto(wall + "?seconds=600")
    page.wait_for_selector(".standings-grid tbody tr")
    shown = page.evaluate(WHY)
    short, sentence = "(played 1 of 3 rounds: placed after the rest)", "played 1 of 3 rounds: fewer than half"
    for name in TWELVE[8:]:
        said = " ".join(shown[name])
        assert (said.count(short), said.count(sentence)) == ((1, 0) if tv else (0, 1)), (name, shown[name])
    assert not any("played 1 of" in " ".join(words) for name, words in shown.items() if name not in TWELVE[8:])
    shot(page, f"wall-placed-after-{width}x{height}")
