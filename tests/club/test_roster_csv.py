"""A club's roster read from the CSV file a spreadsheet exports (name, club, membership number):
every line that reads is a player to import, every line that does not is refused on its own line
with why, and only a file that cannot be read at all is refused whole."""

from __future__ import annotations

import codecs
import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.club.members import FORMULA_START, field_fault
from scorekeeper.club.roster import (
    CP1252_NOTE,
    MAX_ROSTER_BYTES,
    MAX_ROSTER_ROWS,
    NAME_HEADINGS,
    RefusedLine,
    Roster,
    RosterFileRefusal,
    RosterRow,
    read_roster,
)
from scorekeeper.reports import csv_text
from scorekeeper.scoring import Refusal
from scorekeeper.tournament.seating import name_fault, name_key


def read(*lines: str, end: str = "\n", encoding: str = "utf-8") -> Roster:
    return read_roster((end.join(lines) + end).encode(encoding))


def players(roster: Roster) -> list[tuple[int, str, str, str]]:
    return [(row.line, row.name, row.club, row.number) for row in roster.rows]


def refusals(roster: Roster) -> list[tuple[int, str]]:
    return [(line.line, line.reason) for line in roster.refused]


def refused_whole(data: bytes) -> str:
    with pytest.raises(RosterFileRefusal) as caught:
        read_roster(data)
    return str(caught.value)


# How the file's bytes are read


def test_a_windows_file_with_a_byte_order_mark_is_read():
    data = codecs.BOM_UTF8 + "Name,Club,Number\r\nAnn Lee,North,1042\r\nZoë Brun,Süd,7\r\n".encode()
    roster = read_roster(data)
    assert players(roster) == [(2, "Ann Lee", "North", "1042"), (3, "Zoë Brun", "Süd", "7")]
    assert (roster.encoding, roster.note, roster.refused) == ("UTF-8 with a byte-order mark", "", ())


def test_a_utf8_file_is_read_without_a_note():
    roster = read("Müller,Zürich,1", "Zoë,,2")
    assert players(roster) == [(1, "Müller", "Zürich", "1"), (2, "Zoë", "", "2")]
    assert (roster.encoding, roster.note) == ("UTF-8", "")


def test_a_latin_1_file_is_read_as_windows_latin_1_with_a_note_to_check_accents():
    roster = read("Müller,Zürich,1", "Zoë,,2", end="\r\n", encoding="cp1252")
    assert players(roster) == [(1, "Müller", "Zürich", "1"), (2, "Zoë", "", "2")]
    assert roster.encoding == "Windows Latin-1 (not UTF-8)"
    assert roster.note == CP1252_NOTE
    assert "cp1252" in roster.note and "CSV UTF-8" in roster.note and "accented" in roster.note


def test_windows_smart_quotes_and_dashes_are_read_as_themselves():
    roster = read_roster(b"O\x92Brien,\x93Ace\x94 Club \x96 North,7\n")
    assert players(roster) == [(1, "O\u2019Brien", "\u201cAce\u201d Club \u2013 North", "7")]
    assert roster.encoding == "Windows Latin-1 (not UTF-8)"


def test_the_bytes_windows_latin_1_leaves_undefined_are_read_as_latin_1():
    """0x81 is no character in cp1252; read as Latin-1 it is a control character, refused by line."""
    roster = read_roster(b"Ann\x81,,\nBob\xe9,,\n")
    assert refusals(roster) == [(1, "The name cannot hold a control character (U+0081).")]
    assert players(roster) == [(2, "Bobé", "", "")]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_read_by_its_byte_order_mark(codec):
    bom = codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE
    data = bom + "Player,Club\r\nZoë Brun,Süd\r\n山田 太郎,東京\r\n".encode(codec)
    roster = read_roster(data)
    assert players(roster) == [(2, "Zoë Brun", "Süd", ""), (3, "山田 太郎", "東京", "")]
    assert (roster.encoding, roster.note) == ("UTF-16", "")


def test_a_utf16_file_cut_short_is_refused_whole():
    assert "does not read as UTF-16" in refused_whole(codecs.BOM_UTF16_LE + "Ann,North".encode("utf-16-le")[:-1])


def test_a_file_with_a_utf8_byte_order_mark_must_be_utf8_throughout():
    assert "does not read as UTF-8" in refused_whole(codecs.BOM_UTF8 + b"M\xfcller,,\n")


@pytest.mark.parametrize(
    "data",
    [
        b"PK\x03\x04\x14\x00\x06\x00\x08\x00" + bytes(range(256)),  # a spreadsheet's own .xlsx
        b"Ann,North,1\nBob\x00,,\n",
        codecs.BOM_UTF8 + b"Ann\x00,,\n",
        "Ann,North,1\n".encode("utf-32"),  # begins with the UTF-16 byte-order mark, then NULs
    ],
)
def test_a_file_holding_nul_bytes_is_not_a_text_file(data):
    assert refused_whole(data) == "The file is not a text file: save the spreadsheet as CSV (CSV UTF-8)."


@pytest.mark.parametrize(
    "data", [b"", b"\n\n\r\n", b" , ,\r\n,,\n", b"Name,Club,Number\r\n", b"Name,Club\n\n,,\n", codecs.BOM_UTF8]
)
def test_a_file_without_players_is_refused_whole(data):
    assert refused_whole(data) == "The file holds no players."


def test_a_file_over_the_size_limit_is_refused_before_it_is_read():
    """NUL bytes would be refused too: the size is told first, without decoding a byte."""
    message = refused_whole(b"\0" * (MAX_ROSTER_BYTES + 1))
    assert message.startswith("The file is 1,000,001 bytes; a roster file may be at most 1,000,000 bytes")


def test_the_most_players_at_their_longest_fit_in_the_size_limit():
    lines = ["Name,Club,Number"] + [f"{'é' * 30},{'ü' * 60},{i:030d}" for i in range(MAX_ROSTER_ROWS)]
    data = ("\r\n".join(lines) + "\r\n").encode()
    assert len(data) < MAX_ROSTER_BYTES * 0.8
    assert len(read_roster(data).rows) == MAX_ROSTER_ROWS


# Lines, delimiters and quotes


@pytest.mark.parametrize("end", ["\r\n", "\r", "\n"])
def test_windows_old_mac_and_unix_line_ends_all_read(end):
    roster = read("Name,Club,Number", "Ann,North,1", "", "Bob,South,2", end=end)
    assert players(roster) == [(2, "Ann", "North", "1"), (4, "Bob", "South", "2")]


def test_blank_lines_of_spaces_and_commas_are_skipped_silently_and_still_counted():
    roster = read("", "   ", "Ann,North,1", " , , ", ",,", "\t", "Bob,South,2")
    assert players(roster) == [(3, "Ann", "North", "1"), (7, "Bob", "South", "2")]
    assert roster.refused == ()


def test_a_cell_spanning_lines_counts_them_and_its_row_keeps_its_first_line():
    roster = read("Name,Club,Number,Notes", 'Ann,North,1,"likes', "tea", 'and cake"', "Bob,South,2,")
    assert players(roster) == [(2, "Ann", "North", "1"), (5, "Bob", "South", "2")]


CLUB_COMMA = "The club cannot hold a comma: the event's list of players separates name, club and number with commas."


def test_a_semicolon_file_from_a_european_spreadsheet_is_read_with_semicolons():
    roster = read("Name;Club;Nr", "Müller;Verein Nord & Süd;12", "Zoë;;13", encoding="cp1252")
    assert players(roster) == [(2, "Müller", "Verein Nord & Süd", "12"), (3, "Zoë", "", "13")]


def test_a_comma_in_a_semicolon_files_club_is_the_clubs_and_refused_as_every_club_comma_is():
    roster = read("Name;Club;Nr", "Müller;Verein Nord, Süd;12", "Zoë;;13", encoding="cp1252")
    assert players(roster) == [(3, "Zoë", "", "13")]
    assert refusals(roster) == [(2, CLUB_COMMA)]


def test_a_comma_inside_quotes_leaves_a_semicolon_file_a_semicolon_file():
    roster = read('Anna;"Nord, Süd";1', "Berta;Ost;2")
    assert players(roster) == [(2, "Berta", "Ost", "2")]
    assert refusals(roster) == [(1, CLUB_COMMA)]


def test_a_tab_separated_file_is_read_with_tabs():
    roster = read("Name\tClub\tNumber", "Ann Lee\tNorth & East\t1", "Bob\t\t2")
    assert players(roster) == [(2, "Ann Lee", "North & East", "1"), (3, "Bob", "", "2")]


def test_quoted_cells_keep_their_quotes_and_a_quoted_comma_is_the_cells():
    roster = read('"Ann ""Annie"" Lee","North East", "7"', '"Bo Lamb","North, East",8', 'Cy,North,"8,5"')
    assert players(roster) == [(1, 'Ann "Annie" Lee', "North East", "7")]
    assert refusals(roster) == [
        (2, CLUB_COMMA),
        (
            3,
            "The membership number cannot hold a comma: the event's list of players separates name, club and "
            "number with commas.",
        ),
    ]


def test_cells_are_stripped_and_names_keep_their_own_spelling():
    roster = read("  ann   LEE  ,\u00a0North Club\u00a0,  0042  ")
    assert players(roster) == [(1, "ann   LEE", "North Club", "0042")]


def test_a_quote_never_closed_is_refused_on_its_line_not_swallowed_unseen():
    roster = read("Ann,North,1", 'Bob,"South,2', "Cy,East,3")
    assert players(roster) == [(1, "Ann", "North", "1")]
    assert refusals(roster) == [
        (2, "A quote opened on this line is never closed: the lines after it were read as one cell.")
    ]


def test_a_cell_too_long_for_the_csv_reader_is_refused_whole():
    message = refused_whole(('Ann,North,1\nBob,"' + "x" * 200_000 + '",2\n').encode())
    assert message.startswith("Line 2 cannot be read as CSV: field larger than field limit")


# The header


def test_a_header_in_another_order_with_an_extra_column_is_read_by_its_headings():
    roster = read("Membership No,Email,Player Name,CLUB", "1042,ann@example.org,Ann Lee,North", "7,,Bob,")
    assert players(roster) == [(2, "Ann Lee", "North", "1042"), (3, "Bob", "", "7")]
    assert roster.unread_columns == ("Email",)


@pytest.mark.parametrize(
    "heading",
    ["Number", "membership number", "Member Number", "Membership no", "member no", "No", "No.", "NR", "#"],
)
def test_every_heading_of_a_membership_number_names_that_column(heading):
    assert players(read(f"{heading},name", "1042,Ann")) == [(2, "Ann", "", "1042")]


def test_without_a_header_the_cells_are_name_club_number():
    assert players(read("Ann Lee,North,1042", "Bob")) == [(1, "Ann Lee", "North", "1042"), (2, "Bob", "", "")]


def test_a_first_row_without_a_name_heading_is_a_player():
    assert players(read("Club,Number", "Bob,North")) == [(1, "Club", "Number", ""), (2, "Bob", "North", "")]


def test_blank_header_cells_are_ignored():
    roster = read(",Name,,Club,", "x,Ann,y,North,z")
    assert players(roster) == [(2, "Ann", "North", "")]
    assert roster.unread_columns == ()


def test_a_header_naming_one_column_twice_is_refused_whole():
    assert refused_whole(b"Name,Club,Player\nAnn,North,Ann\n") == "The header has two name columns (1 and 3): keep one."


def test_a_fourth_cell_without_a_header_is_refused_by_line():
    roster = read("Lee, Ann, North, 1042", "Bob,South,7,")
    reason = "More than three cells: name, club, number (a name, club or number cannot hold a comma)."
    assert refusals(roster) == [(1, reason)]
    assert players(roster) == [(2, "Bob", "South", "7")]


def test_a_cell_past_the_headers_columns_is_refused_by_line():
    roster = read("Name,Club", "Ann,North,1042", "Bob,South,,")
    reason = "More cells than the header's 2 columns (a name, club or number cannot hold a comma)."
    assert refusals(roster) == [(2, reason)]
    assert players(roster) == [(3, "Bob", "South", "")]


# Lines refused one by one: each after a cell spanning lines 2 and 3, so its number is line 5

FORMULA = "begins like a spreadsheet formula (=, +, -, @): remove that character."
BEFORE = ["Name,Club,Number,Notes", 'Ann Lee,North,1042,"likes', 'tea"', "Bea Lamb,North,,"]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (",North,7", "The name is empty."),
        ("Annabelle Worthington-Smythsons,,", "The name is 31 characters long; at most 30 fit."),
        ('"Lee, Ann",,', "The name cannot hold a comma: the tables are written with commas between names."),
        ('"Ann\tLee",,', "The name cannot hold a control character (a tab)."),
        ("Ann\u200bLee,,", "The name cannot hold an invisible character (U+200B)."),
        ("\u0301,,", "The name needs a letter, digit or sign that can be seen."),
        ("=cmd|' /C calc'!A0,,", "The name " + FORMULA),
        ("-Ann,,", "The name " + FORMULA),
        ("@Ann,,", "The name " + FORMULA),
        ('Cy,=HYPERLINK("x"),', "The club " + FORMULA),
        ("Cy,North,+44", "The membership number " + FORMULA),
        ("Cy,North,-7", "The membership number " + FORMULA),
        ("Cy," + "C" * 61 + ",", "The club is 61 characters long; at most 60 fit."),
        ("Cy,North," + "9" * 31, "The membership number is 31 characters long; at most 30 fit."),
        ("Cy,North\x1bClub,", "The club cannot hold a control character (U+001B)."),
        ("Cy,\u200b,", "The club cannot hold an invisible character (U+200B)."),
        ("Cy,North,10\x0742", "The membership number cannot hold a control character (U+0007)."),
        ("Cy,South,1042", "Number 1042 is on line 2 already."),
        ("bea  LAMB,South,", "bea  LAMB is on line 4 already: two players of that name need their membership numbers."),
    ],
)
def test_a_line_that_cannot_be_read_is_refused_on_its_own_line(line, reason):
    roster = read(*BEFORE, line, "Zed,South,99")
    assert roster.refused == (RefusedLine(5, line, reason),)
    assert players(roster) == [(2, "Ann Lee", "North", "1042"), (4, "Bea Lamb", "North", ""), (6, "Zed", "South", "99")]


def test_a_refused_line_is_shown_shortened_to_about_80_characters():
    line = "Cy," + "C" * 100 + ",7"
    (refused,) = read(line).refused
    assert refused.text == line[:79] + "…" and len(refused.text) == 80


def test_a_refused_line_spanning_lines_is_shown_on_one():
    (refused,) = read('Ann,"North', 'Club",7').refused
    assert (refused.line, refused.text) == (1, 'Ann,"North Club",7')
    assert refused.reason == "The club cannot hold a control character (a line break)."


# The same player twice


def test_numbers_are_compared_without_case_or_surrounding_spaces():
    roster = read("Ann,North,ab-12", "Bob,South,  AB-12 ")
    assert refusals(roster) == [(2, "Number AB-12 is on line 1 already.")]


def test_one_name_with_different_numbers_is_two_players():
    roster = read("Ann Lee,North,1", "Ann Lee,South,2")
    assert players(roster) == [(1, "Ann Lee", "North", "1"), (2, "Ann Lee", "South", "2")]


def test_one_name_once_with_a_number_and_once_without_is_left_to_the_import():
    """Only two lines without numbers cannot be told apart: with one number, matching decides."""
    roster = read("Ann Lee,North,1", "ann lee,North,")
    assert players(roster) == [(1, "Ann Lee", "North", "1"), (2, "ann lee", "North", "")]


def test_a_refused_line_is_not_a_player_a_later_line_repeats():
    roster = read("Ann,=North,7", "Bob,South,7", "Bob,,", "bob,,")
    assert players(roster) == [(2, "Bob", "South", "7"), (3, "Bob", "", "")]
    assert refusals(roster)[1] == (
        4,
        "bob is on line 3 already: two players of that name need their membership numbers.",
    )


# The size of a roster


def test_the_most_players_are_read_and_one_more_refuses_the_file():
    lines = ["Name,Club,Number"] + [f"Player {i},Club {i % 7},{i}" for i in range(MAX_ROSTER_ROWS)]
    assert len(read(*lines).rows) == MAX_ROSTER_ROWS
    message = refused_whole(("\n".join([*lines, "One More,,"]) + "\n").encode())
    assert message == "The file lists 3,001 players; a roster file may list at most 3,000: split it."


def test_refused_lines_count_toward_the_most_players():
    lines = [f"Player {i},,{i}" for i in range(MAX_ROSTER_ROWS - 1)] + [",,", "=x,,", ",North,"]
    assert "3,001 players" in refused_whole(("\n".join(lines) + "\n").encode())


# What the refusals are


def test_a_whole_file_refusal_belongs_to_the_roster_field():
    with pytest.raises(Refusal) as caught:
        read_roster(b"")
    assert isinstance(caught.value, RosterFileRefusal)
    assert (caught.value.field, caught.value.status) == ("roster", 422)


def test_a_formula_start_is_what_the_csv_writer_disarms():
    assert FORMULA_START == csv_text.FORMULA_START


# Properties


def plain(cell: str) -> bool:
    """Not a cell a first row could be taken for a header by."""
    return " ".join(cell.split()).casefold() not in NAME_HEADINGS


TYPED = st.characters(exclude_categories=("Cc", "Cs", "Cf", "Zl", "Zp"))


def cells(max_size: int, min_size: int = 0) -> st.SearchStrategy[str]:
    return st.text(TYPED, min_size=min_size, max_size=max_size).map(str.strip)


NAMES = cells(30, 1).filter(lambda n: n and field_fault("name", n) is None and plain(n))


def optional(field: str, cell: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Any cell the club's rule lets a member's ``field`` hold."""
    return st.one_of(st.just(""), cell.filter(lambda c: field_fault(field, c) is None and plain(c)))


CLUBS = optional("club", cells(60, 1))
NUMBERS = optional("number", st.one_of(st.from_regex(r"[A-Z]{0,2}[0-9]{1,8}", fullmatch=True), cells(30, 1)))


def distinct(rows: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The rows that are each a different player: a new number, or a new name without one."""
    kept, seen = [], set()
    for name, club, number in rows:
        key = ("#", number.casefold()) if number else ("name", name_key(name))
        if key not in seen:
            seen.add(key)
            kept.append((name, club, number))
    return kept


@given(
    rows=st.lists(st.tuples(NAMES, CLUBS, NUMBERS), min_size=1, max_size=40).map(distinct),
    end=st.sampled_from(["\r\n", "\r", "\n"]),
    codec=st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]),
    header=st.booleans(),
)
def test_rows_a_spreadsheet_writes_are_read_back_exactly(rows, end, codec, header):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=end)
    if header:
        writer.writerow(["Name", "Club", "Membership number"])
    writer.writerows(rows)
    roster = read_roster(out.getvalue().encode(codec))
    first = 2 if header else 1
    assert roster.rows == tuple(RosterRow(first + i, *row) for i, row in enumerate(rows))
    assert roster.refused == ()
    assert roster.encoding == {"utf-8": "UTF-8", "utf-8-sig": "UTF-8 with a byte-order mark", "utf-16": "UTF-16"}[codec]


PIECES = [b",", b";", b"\t", b'"', b"\r", b"\n", b"\r\n", b" ", b"=", b"-", b"Name", b"club", b"No", b"#", b"Ann"]
PIECES += [b"7", codecs.BOM_UTF8, codecs.BOM_UTF16_LE, b"\x00", b"\x81", b"\xe9", "Zoë".encode(), b"\xe2\x80\x8b"]


@given(st.one_of(st.binary(max_size=3000), st.lists(st.sampled_from(PIECES), max_size=80).map(b"".join)))
def test_no_bytes_raise_anything_but_a_roster_refusal(data):
    try:
        roster = read_roster(data)
    except RosterFileRefusal:
        return
    lines = [row.line for row in roster.rows] + [line.line for line in roster.refused]
    assert len(set(lines)) == len(lines) and min(lines) >= 1
    assert all(row.name and name_fault(row.name) is None for row in roster.rows)
    assert all(line.reason.endswith(".") and len(line.text) <= 80 for line in roster.refused)
