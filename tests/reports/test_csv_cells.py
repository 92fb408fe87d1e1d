"""Every CSV the app writes keeps a spreadsheet from taking a cell for a formula: text that begins
with =, +, -, @, a tab or a carriage return is kept as text; numbers (a score of -50) stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

from scorekeeper.reports.csv_text import csv_text, safe_cell
from scorekeeper.storage.database import connect
from tests.support.club import new_event as club_event
from tests.support.club import seat, stored_before_the_rule
from tests.web.test_events import director  # noqa: F401 - director is a fixture

HOSTILE = ["=cmd|' /C calc'!A0", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\tX", "\rX", "=1"]


@pytest.mark.parametrize("text", HOSTILE)
def test_text_that_begins_like_a_formula_is_kept_as_text(text):
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", [-50, 0, 135, -3.5, True, "-50", "+7", "12.5", "Ann", "Ann & Cy", "", "a=b"])
def test_numbers_and_plain_text_are_written_as_they_are(value):
    assert safe_cell(value) == value


def test_a_csv_row_comes_back_with_its_cells_disarmed():
    rows = list(csv.reader(io.StringIO(csv_text([["=1+1", -50, "Ann", "@x"]]))))
    assert rows == [["'=1+1", "-50", "Ann", "'@x"]]


def test_the_event_export_disarms_names_clubs_and_numbers(director):  # noqa: F811
    """No way in takes a name, club or number beginning like a formula any more (the club's rule);
    a database from before may hold them, and the export still disarms them."""
    db = connect(director.application.config["DATABASE"])
    lines = ["Ann", "Bea", ("Bob", "Back Bay", "7"), ("Cy", "Cambridge", "8")]
    event = club_event(db, lines)
    hostile = {"Ann": ("=cmd|' /C calc'!A0", "+Boston BC", "@12"), "Bea": ("-Ann", '=HYPERLINK("x")', "-3")}
    stored_before_the_rule(db, event, hostile)
    seat(db, event, [["=cmd|' /C calc'!A0", "-Ann", "Bob", "Cy"]])
    db.conn.close()
    text = director.get(f"/director/events/{event.id}/export.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 4
    for row in rows:
        for key, cell in row.items():
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), (key, cell)
            assert not cell.startswith("-") or cell.lstrip("-").isdigit(), (key, cell)
    by_name = {row["player"]: row for row in rows}
    assert by_name["'=cmd|' /C calc'!A0"]["club"] == "'+Boston BC"
    assert by_name["'=cmd|' /C calc'!A0"]["number"] == "'@12"
    assert by_name["'-Ann"]["club"] == '\'=HYPERLINK("x")' and by_name["'-Ann"]["number"] == "-3"
