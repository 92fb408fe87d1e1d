"""What a director's evening on a fresh clone found (issue 30): a short table's sheet that said
"in progress", headings that hid a reopened round, placement points to five decimals, an adjusted
table with nothing to average, a table locked before hand 1 missing from the exports, and
"— prov." with no place. Each is read back as the room reads it: pages, PDFs, CSV and JSON."""

from __future__ import annotations

import csv
import io
import re
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from scorekeeper.storage import event_roster
from scorekeeper.storage import events as event_store
from scorekeeper.tournament.standings import PlayerStanding, standings
from tests.reports.test_paper_checks import booklet
from tests.support.club import play as play_places
from tests.support.club import seat
from tests.web.test_events import csrf_token, new_event, record_links, seat_next_round
from tests.web.test_results_web import EIGHT, play, seats, short_evening


def pdf_words(body: bytes) -> str:
    text = subprocess.run(["pdftotext", "-", "-"], input=body, capture_output=True, check=True).stdout.decode()
    return " ".join(text.split())


def lock(director, event_url: str, token: str, **choice: str):
    data = {"csrf_token": csrf_token(director, event_url), "anyway": "y", **choice}
    return director.post(f"{event_url}/games/{token}/lock", data=data)


def the_event(director, event_url: str):
    return event_store.get_event(director.db, int(event_url.rstrip("/").rsplit("/", 1)[1]))


def booklet_sheets(director, event_url: str) -> list[str]:
    """Each page of the event's booklet, as text (the cover first, then a sheet a table)."""
    body, _ = booklet(director, event_url, Path(director.application.instance_path))
    text = subprocess.run(["pdftotext", "-", "-"], input=body, capture_output=True, check=True).stdout.decode()
    return [" ".join(page.split()) for page in text.split("\f")]


# 1. A short table's sheet says who locked it, after which hand, and how it counts.


def test_a_short_tables_sheet_says_the_director_locked_it_after_hand_6_and_it_is_prorated_alone_and_in_the_booklet(
    director,
):
    event_url, full, short = short_evening(director)
    assert lock(director, event_url, short).status_code == 302
    player = director.application.test_client()
    said = "6 of 15 hands (locked by the director after hand 6 of 15, prorated)"
    booklet_sheet = next(
        page for page in booklet_sheets(director, event_url) if "table 2" in page and "score sheet" in page
    )
    for who, sheet in (
        ("director", pdf_words(director.get(f"/t/{short}/sheet.pdf").data)),
        ("player", pdf_words(player.get(f"/t/{short}/sheet.pdf").data)),
        ("booklet", booklet_sheet),
    ):
        assert said in sheet, who
        assert "in progress" not in sheet and "so far" not in sheet, who
        assert "closed by the director" not in sheet, who
        assert "Standings when locked, as played" in sheet, who
        # The line under the grid agrees: locked after hand 6 of 15, prorated, and by how much.
        assert "Locked after hand 6 of 15, prorated: each player's points × 71 ÷ 33 cards" in sheet, who


def test_a_table_locked_by_the_rounds_clock_says_at_time_on_its_sheet(director):
    from scorekeeper.storage.evening import settle_due
    from tests.web.test_evening import time_up

    event_url, full, short = short_evening(director)
    time_up(director, event_url)
    assert settle_due(director.db) == 2, "the short table, and the full one whose game ended"
    for sheet in (
        pdf_words(director.get(f"/t/{short}/sheet.pdf").data),
        next(page for page in booklet_sheets(director, event_url) if "table 2" in page and "score sheet" in page),
    ):
        assert "6 of 15 hands (locked at time after hand 6 of 15, prorated)" in sheet
        assert "by the director" not in sheet and "closed" not in sheet


def test_a_table_locked_before_hand_1_says_so_on_its_sheet(director):
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    lock(director, event_url, token)
    sheet = pdf_words(director.get(f"/t/{token}/sheet.pdf").data)
    assert "0 of 15 hands (locked by the director before hand 1: counted as missed)" in sheet
    assert "No result" in sheet and "in progress" not in sheet


# 2. An earlier round reopened after the final: which rounds count, and provisional.


def test_a_round_reopened_after_the_final_says_which_rounds_count_and_that_they_are_provisional(director, tmp_path):
    event_url = new_event(director, EIGHT, rounds="2")
    event = the_event(director, event_url)
    places = {name: place for name, place in zip(EIGHT, [1, 2, 3, 4] * 2, strict=True)}
    for _ in range(2):
        for table in seat(director.db, event, [EIGHT[0:4], EIGHT[4:8]]):
            play_places(director.db, table, places)  # 12 hands, then locked as it stands
    assert "Final standings" in director.get(event_url + "/standings").get_data(as_text=True), "both rounds complete"
    first = record_links(director, event_url)[0]
    director.post(f"{event_url}/games/{first}/unlock", data={"csrf_token": csrf_token(director, event_url)})
    heading = "Standings counting round 2 of 2, provisional while round 1 has a table open"
    page = director.get(event_url + "/standings").get_data(as_text=True)
    assert heading in page and "after round 2" not in page
    printed = pdf_words(director.get(event_url + "/standings.pdf").data)
    assert heading.lower() in printed.lower()
    assert "still playing" not in printed, "nobody plays at a table the director reopened"
    rows = list(csv.DictReader(io.StringIO(director.get(event_url + "/standings.csv").get_data(as_text=True))))
    assert {row["standings"] for row in rows} == {heading}
    exported = director.get(event_url + "/export.json").get_json()
    assert exported["standings_heading"] == heading
    assert exported["standings_provisional"] is True and exported["counted_rounds"] == [2]


# 3. Placement points to one place of decimals, the same on every output.


@pytest.mark.parametrize(
    "points, shown",
    [
        (Fraction(25, 3), "8.3"),
        (Fraction(28, 3), "9.3"),
        (6.0, "6"),
        (2.5, "2.5"),
        (3.75, "3.8"),
        (0.05, "0.1"),
        (0.0, "0"),
    ],
)
def test_placement_points_are_shown_to_a_tenth_halves_away_from_zero(points, shown):
    from scorekeeper.tournament.standings import tenths

    assert PlayerStanding("Ann", placement=float(points)).placement_shown == shown
    assert tenths(float(points)) == float(shown)


def test_a_missed_round_averaged_gives_placement_points_a_tenth_can_show(director, tmp_path):
    """Hal places 1st, 2nd and 2nd (3 + 2 + 2 = 7 points) and withdraws before round 4: his
    average makes 7 + 7/3 = 9.333…, shown 9.3 on the screen, the wall, the PDF, the CSV and JSON."""
    from tests.tournament.test_standings_words import wall_of

    event_url = new_event(director, EIGHT, scoring="placement", rounds="4")
    event = the_event(director, event_url)
    others = [name for name in EIGHT if name != "Hal"]
    for hal in (1, 2, 2):
        with_hal, rest = ["Hal", *others[:3]], others[3:]
        places = {"Hal": hal, **dict(zip(others[:3], [p for p in (1, 2, 3, 4) if p != hal], strict=True))}
        places.update(zip(rest, (1, 2, 3, 4), strict=True))
        for table in seat(director.db, event, [with_hal, rest]):
            play_places(director.db, table, places, lock=True)
        others = others[1:] + others[:1]
    event_roster.withdraw_player(director.db, event, "Hal", 4)
    places = dict(zip(others, (1, 2, 3, 4, 1, 2, 3), strict=True))
    for table in seat(director.db, event, [others[0:4], others[4:7]]):
        play_places(director.db, table, places, lock=True)
    rows = {row.name: row for row in standings_of(director, event)}
    assert rows["Hal"].missed == 1 and rows["Hal"].tables == 3
    exact = rows["Hal"].placement
    shown = f"{float(Fraction(round(Fraction(exact) * 10), 10)):g}"  # to a tenth (no half here)
    assert abs(exact - round(exact, 1)) > 1e-9, f"a point a tenth cannot show: {exact}"
    screen = director.get(event_url + "/standings").get_data(as_text=True)
    wall = wall_of(director, event_url)
    paper = pdf_words(director.get(event_url + "/standings.pdf").data)
    by_name = {
        r["player"]: r
        for r in csv.DictReader(io.StringIO(director.get(event_url + "/standings.csv").get_data(as_text=True)))
    }
    exported = {r["player"]: r for r in director.get(event_url + "/export.json").get_json()["standings"]}
    long_decimal = re.compile(r"\d\.\d{2,}")
    for output, text in (("screen", screen), ("wall", wall), ("PDF", paper)):
        assert f">{shown}<" in text or f" {shown} " in text, output
        assert not long_decimal.search(re.sub(r"<(script|style).*?</\1>", "", text, flags=re.S)), output
    assert by_name["Hal"]["placement_points"] == shown
    assert exported["Hal"]["placement"] == float(shown)


def standings_of(director, event):
    from scorekeeper.storage.event_results import event_standings

    return event_standings(director.db, event)


# 5. An adjusted table with nothing to average says it counts as missed, everywhere.


def test_an_adjusted_table_in_a_round_with_no_finished_table_says_it_counts_as_missed_everywhere(director):
    from tests.web.test_evening import history

    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    first, second = record_links(director, event_url)
    player = director.application.test_client()
    play(player, first, 6)
    play(player, second, 6)
    assert lock(director, event_url, second).status_code == 302  # prorated: no finished table either
    assert (
        lock(
            director, event_url, first, treatment="adjusted", level="average-plus", reason="the hall closed"
        ).status_code
        == 302
    )
    said = "adjusted (average-plus) — no finished table to average: counted as missed"
    keeper = seats(director, first)[1]
    standings_page = director.get(event_url + "/standings").get_data(as_text=True)
    assert f"round 1: locked after hand 6 of 15, {said}" in standings_page
    event_page = director.get(event_url).get_data(as_text=True)
    assert f"locked after hand 6 of 15, {said}" in re.findall(r'class="progress">([^<]+)</td>', event_page)
    assert (
        f"Round 1, table 1 locked after hand 6 of 15, {said} until a table of the round finishes · the hall closed"
        in history(director, event_url)
    )
    results = list(csv.DictReader(io.StringIO(director.get(event_url + "/export.csv").get_data(as_text=True))))
    assert {row["counts_as"] for row in results if row["table"] == "1"} == {said}
    exported = director.get(event_url + "/export.json").get_json()
    table = next(t for t in exported["tables"] if t["table"] == 1)
    assert table["how"] == f"locked after hand 6 of 15, {said}" and table["counts_as"] == "adjusted"
    assert any(said in line for line in {r["player"]: r for r in exported["standings"]}[keeper]["how"])
    sheet = pdf_words(director.get(f"/t/{first}/sheet.pdf").data)
    assert f"locked by the director after hand 6 of 15, {said}" in sheet


def test_standings_say_why_an_adjusted_table_counts_as_missed():
    """Pure: the note under each player of the table, when the round has no finished table."""
    from tests.tournament.test_results_defensible import SHORT, table

    short = table(1, 1, SHORT, ["K 5"] * 4, 6, closed=True, treatment="adjusted", level="average-plus", reason="x")
    rows = standings([short], SHORT, "total")
    assert all(
        row.notes
        == [
            "round 1: locked after hand 6 of 15, adjusted (average-plus) — no finished table to average: counted as missed"
        ]
        for row in rows
    ), [row.notes for row in rows]


# 6. A table locked before hand 1 leaves its trace.


def test_a_table_locked_before_hand_1_is_in_the_exports_and_under_its_players_names(director):
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    empty, full = record_links(director, event_url)
    play(director.application.test_client(), full, 15)
    assert lock(director, event_url, empty).status_code == 302
    nobody = seats(director, empty)
    results = list(csv.DictReader(io.StringIO(director.get(event_url + "/export.csv").get_data(as_text=True))))
    assert {(row["locked_after_hand"], row["counts_as"]) for row in results if row["table"] == "1"} == {
        ("0", "counted as missed")
    }
    exported = director.get(event_url + "/export.json").get_json()
    table = next(t for t in exported["tables"] if t["table"] == 1)
    assert (table["locked_after_hand"], table["counts_as"], table["how"]) == (
        0,
        "missed",
        "locked before hand 1: counted as missed",
    )
    page = director.get(event_url + "/standings").get_data(as_text=True)
    for name in nobody:
        row = re.search(rf"<tr[^>]*><td>[^<]*(?:<small[^>]*>[^<]*</small>)?</td><td>{name}(.*?)</tr>", page, re.S)
        assert row and "round 1: locked before hand 1: counted as missed" in row.group(1), name
    standings = {r["player"]: r for r in exported["standings"]}
    assert standings[nobody[0]]["how"] == ["round 1: locked before hand 1: counted as missed"]


# 7. No "— prov.": a player whose closed table counts as missed has no place, and says why.


def test_provisional_standings_show_no_place_without_a_mark_for_a_table_counted_as_missed(director):
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    short, playing = record_links(director, event_url)
    player = director.application.test_client()
    play(player, short, 6)
    play(player, playing, 3)
    assert lock(director, event_url, short, treatment="missed").status_code == 302
    page = director.get(event_url + "/standings").get_data(as_text=True)
    for name in seats(director, short):
        row = re.search(rf"<tr[^>]*><td>([^<]*(?:<small[^>]*>[^<]*</small>)?)</td><td>{name}(.*?)</tr>", page, re.S)
        assert row, name
        assert row.group(1).strip() == "—", row.group(1)
        assert "round 1: locked after hand 6 of 15, counted as missed" in row.group(2), name
    pdf = pdf_words(director.get(event_url + "/standings.pdf").data)
    assert "— prov." not in pdf


def test_a_player_without_a_complete_round_has_no_wins_in_the_standings_csv(director):
    """Seen at an evening: the CSV gave "0" wins to a player with no complete round, where the
    screen and the wall show "—" beside the total and placement points left blank."""
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    rows = list(csv.DictReader(io.StringIO(director.get(event_url + "/standings.csv").get_data(as_text=True))))
    assert len(rows) == len(EIGHT)
    assert {(row["place"], row["total"], row["placement_points"], row["wins"]) for row in rows} == {("", "", "", "")}
