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
from scorekeeper.tournament.standings import PlayerStanding

from .club import play as play_places
from .club import seat
from .test_events import csrf_token, new_event, record_links, seat_next_round
from .test_paper_checks import booklet
from .test_results_web import EIGHT, play, seats


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
    assert heading.lower() in pdf_words(director.get(event_url + "/standings.pdf").data).lower()
    rows = list(csv.DictReader(io.StringIO(director.get(event_url + "/standings.csv").get_data(as_text=True))))
    assert {row["standings"] for row in rows} == {heading}
    exported = director.get(event_url + "/export.json").get_json()
    assert exported["standings_heading"] == heading
    assert exported["standings_provisional"] is True and exported["counted_rounds"] == [2]


# 3. Placement points to one place of decimals, the same on every output.


@pytest.mark.parametrize(
    "points, shown",
    [(Fraction(25, 3), "8.3"), (Fraction(28, 3), "9.3"), (6.0, "6"), (2.5, "2.5"), (3.75, "3.8"), (0.05, "0.1"), (0.0, "0")],
)
def test_placement_points_are_shown_to_a_tenth_halves_away_from_zero(points, shown):
    from scorekeeper.tournament.standings import tenths

    assert PlayerStanding("Ann", placement=float(points)).placement_shown == shown
    assert tenths(float(points)) == float(shown)


def test_a_missed_round_averaged_gives_placement_points_a_tenth_can_show(director, tmp_path):
    """Hal places 1st, 2nd and 2nd (3 + 2 + 2 = 7 points) and withdraws before round 4: his
    average makes 7 + 7/3 = 9.333…, shown 9.3 on the screen, the wall, the PDF, the CSV and JSON."""
    from .test_standings_words import wall_of

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
    by_name = {r["player"]: r for r in csv.DictReader(io.StringIO(director.get(event_url + "/standings.csv").get_data(as_text=True)))}
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
