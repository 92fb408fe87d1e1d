"""A club's roster read from the CSV file a spreadsheet exports: name, club, membership number.

Pure: the file's bytes in; out, the rows that can be imported and every line refused with a
sentence a director reads. A bad line never stops the rest of the file; only a file that cannot
be read at all (too large, not text, too many rows, no players) is refused whole. Matching the
rows against the club's stored list is storage's job.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..scoring import Refusal
from ..tournament.seating import name_key
from .members import member_faults

#: Players in one file at most: a large federation's club list, still read in well under a second.
MAX_ROSTER_ROWS = 3000
#: The largest file read, checked before decoding: 3,000 rows of the longest names, clubs and
#: numbers in accented letters take about 750 kB in UTF-8 or UTF-16.
MAX_ROSTER_BYTES = 1_000_000
SHOWN_LENGTH = 80
#: Unicode's control, format (the invisible ones: zero-width spaces, direction overrides) and
#: line and paragraph separator characters: a refused line shows each by its code.
HIDDEN_KINDS = frozenset({"Cc", "Cf", "Zl", "Zp"})

NAME_HEADINGS = frozenset({"name", "player", "player name"})
CLUB_HEADINGS = frozenset({"club"})
NUMBER_HEADINGS = frozenset(
    {"number", "membership number", "member number", "membership no", "member no", "no", "no.", "nr", "#"}
)
HEADINGS = {
    **dict.fromkeys(NAME_HEADINGS, "name"),
    **dict.fromkeys(CLUB_HEADINGS, "club"),
    **dict.fromkeys(NUMBER_HEADINGS, "number"),
}

UTF8, UTF8_BOM, UTF16 = "UTF-8", "UTF-8 with a byte-order mark", "UTF-16"
CP1252 = "Windows Latin-1 (not UTF-8)"
CP1252_NOTE = (
    "This file is not UTF-8, so it was read as Windows Latin-1 (cp1252): check the accented names "
    "in the preview. To be sure, save the spreadsheet as \u201cCSV UTF-8\u201d (in Excel: Save As, "
    "CSV UTF-8; in LibreOffice: Save As, Text CSV, character set Unicode (UTF-8)) and upload that."
)
#: cp1252 as a table over Latin-1: the five bytes cp1252 leaves undefined keep Latin-1's reading.
_CP1252 = {code: bytes([code]).decode("cp1252") for code in range(0x80, 0xA0) if code not in b"\x81\x8d\x8f\x90\x9d"}
_QUOTED = re.compile(r'"[^"]*"')


class RosterFileRefusal(Refusal):
    """The whole file is refused: nothing in it can be read as the club's players."""

    def __init__(self, message: str, field: str | None = "roster") -> None:
        super().__init__(message, field)


NOT_TEXT = "The file is not a text file: save the spreadsheet as CSV (CSV UTF-8)."
NO_PLAYERS = "The file holds no players."


@dataclass(frozen=True)
class RosterRow:
    """A player as the file lists them, every cell stripped; ``number`` is "" when none;
    ``text`` the line as the file holds it (shortened), for a refusal made when it is matched."""

    line: int
    name: str
    club: str
    number: str
    text: str = field(default="", compare=False)


@dataclass(frozen=True)
class RefusedLine:
    """A line not read, shown as the file holds it (shortened), with why."""

    line: int
    text: str
    reason: str

    @property
    def visible(self) -> str:
        """The line as a preview shows it: each control or invisible character written as its
        code ("[U+202E]", as the reason names it), so that nothing in it hides and no right-to-left
        override turns the rest of it round."""
        return "".join(
            f"[U+{ord(char):04X}]" if unicodedata.category(char) in HIDDEN_KINDS else char for char in self.text
        )


@dataclass(frozen=True)
class Roster:
    """What a file holds: the rows to import, the lines refused, and how its text was read.

    ``note`` is "" unless the director should check the preview (a file that was not UTF-8);
    ``unread_columns`` names the header's columns that were ignored ("Email"), so the preview can
    say so: a number column under a heading not known here would otherwise go missing unseen.
    """

    rows: tuple[RosterRow, ...]
    refused: tuple[RefusedLine, ...]
    encoding: str
    note: str
    unread_columns: tuple[str, ...] = ()


class _Line(NamedTuple):
    """A non-blank row as the csv reader read it: its first physical line, its cells stripped."""

    number: int
    cells: tuple[str, ...]
    text: str
    unclosed: bool = False


@dataclass(frozen=True)
class _Columns:
    """Where each cell of a row is; ``beyond`` is the reason for a cell past the last column."""

    name: int
    club: int | None
    number: int | None
    width: int
    beyond: str
    unread: tuple[str, ...] = ()

    def row(self, line: _Line) -> RosterRow:
        def cell(index: int | None) -> str:
            return line.cells[index] if index is not None and index < len(line.cells) else ""

        return RosterRow(line.number, cell(self.name), cell(self.club), cell(self.number), _shown(line.text))


BY_POSITION = _Columns(
    0, 1, 2, 3, "More than three cells: name, club, number (a name, club or number cannot hold a comma)."
)


def read_roster(data: bytes) -> Roster:
    """The players a club's CSV file lists, and each line that cannot be read with why.

    A number seen on an earlier line, or a name seen earlier where neither line has a number,
    is refused on the later line: two lines of one name and different numbers are two players.
    """
    if len(data) > MAX_ROSTER_BYTES:
        raise RosterFileRefusal(
            f"The file is {len(data):,} bytes; a roster file may be at most {MAX_ROSTER_BYTES:,} bytes: "
            "keep only the name, club and number columns, or split it."
        )
    text, encoding = _decoded(data)
    lines = _lines(text)
    columns = _header(lines[0].cells) if lines else None
    if columns is None:
        columns = BY_POSITION
    else:
        lines = lines[1:]
    if not lines:
        raise RosterFileRefusal(NO_PLAYERS)
    if len(lines) > MAX_ROSTER_ROWS:
        raise RosterFileRefusal(
            f"The file lists {len(lines):,} players; a roster file may list at most {MAX_ROSTER_ROWS:,}: split it."
        )
    rows: list[RosterRow] = []
    refused: list[RefusedLine] = []
    numbers: dict[str, int] = {}
    unnumbered: dict[str, int] = {}
    for line in lines:
        row = columns.row(line)
        reason = _line_fault(line, columns) or _cell_fault(row) or _repeated(row, numbers, unnumbered)
        if reason:
            refused.append(RefusedLine(line.number, row.text, reason))
            continue
        rows.append(row)
        if row.number:
            numbers[row.number.casefold()] = row.line
        else:
            unnumbered[name_key(row.name)] = row.line
    note = CP1252_NOTE if encoding == CP1252 else ""
    return Roster(tuple(rows), tuple(refused), encoding, note, columns.unread)


def _shown(text: str) -> str:
    """A line as a preview shows it: on one line, at most ``SHOWN_LENGTH`` characters."""
    shown = " ".join(text.splitlines())
    return shown if len(shown) <= SHOWN_LENGTH else shown[: SHOWN_LENGTH - 1] + "\u2026"


def _decoded(data: bytes) -> tuple[str, str]:
    """The file's text and how it was read. A byte-order mark decides; else UTF-8 if it is valid
    UTF-8, else cp1252, which is what a spreadsheet on Windows saves as plain "CSV"."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text, encoding = _strictly(data, "utf-16"), UTF16
    elif b"\0" in data:
        raise RosterFileRefusal(NOT_TEXT)
    elif data.startswith(codecs.BOM_UTF8):
        text, encoding = _strictly(data[len(codecs.BOM_UTF8) :], "utf-8"), UTF8_BOM
    else:
        try:
            text, encoding = data.decode("utf-8"), UTF8
        except UnicodeDecodeError:
            text, encoding = data.decode("latin-1").translate(_CP1252), CP1252
    if "\0" in text:  # UTF-32 begins as UTF-16 does
        raise RosterFileRefusal(NOT_TEXT)
    return text, encoding


def _strictly(data: bytes, codec: str) -> str:
    """A file whose byte-order mark names its encoding, which must then hold throughout."""
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        name = {"utf-8": UTF8, "utf-16": UTF16}[codec]
        raise RosterFileRefusal(
            f"The file begins as {name} but does not read as {name}: save the spreadsheet again as CSV UTF-8."
        ) from None


def _delimiter(text: str) -> str:
    """A comma, unless the first non-blank line has none and has semicolons (a European
    spreadsheet's CSV) or tabs; the more frequent of the two then. Quoted text does not count."""
    for line in io.StringIO(text, newline=""):
        if line.strip(" \t,;\r\n"):
            bare = _QUOTED.sub("", line)
            if "," in bare or not (";" in bare or "\t" in bare):
                return ","
            return max((";", "\t"), key=bare.count)
    return ","


def _lines(text: str) -> list[_Line]:
    """Every non-blank row, numbered by the physical line it starts on (\\r\\n, \\r and \\n
    each end one). The last row is marked unclosed when a quote swallowed the lines after it."""
    physical: list[str] = []

    def source() -> Iterator[str]:
        for line in io.StringIO(text, newline=""):
            physical.append(line)
            yield line

    delimiter = _delimiter(text)
    reader = csv.reader(source(), delimiter=delimiter, skipinitialspace=True)
    lines: list[_Line] = []
    while True:
        first = reader.line_num + 1
        physical.clear()
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            raise RosterFileRefusal(f"Line {first} cannot be read as CSV: {error}.") from None
        stripped = tuple(cell.strip() for cell in cells)
        if any(stripped):
            lines.append(_Line(first, stripped, "".join(physical)))
    last = lines[-1].text.rstrip("\r\n") if lines else ""
    if ("\n" in last or "\r" in last) and _unclosed(last, delimiter):
        lines[-1] = lines[-1]._replace(unclosed=True)
    return lines


def _unclosed(text: str, delimiter: str) -> bool:
    """A row whose quote is never closed: the csv reader took every line after it as one cell."""
    try:
        list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, skipinitialspace=True, strict=True))
    except csv.Error as error:
        return "unexpected end of data" in str(error)
    return False


def _header(cells: Sequence[str]) -> _Columns | None:
    """The columns a first row names, or None when it is a player: a header names a name column
    ("Name", "Player"); its other columns in any order, and a column of another name is ignored."""
    headings = [" ".join(cell.split()).casefold() for cell in cells]
    if NAME_HEADINGS.isdisjoint(headings):
        return None
    found: dict[str, int] = {}
    for index, heading in enumerate(headings):
        role = HEADINGS.get(heading)
        if role in found:
            raise RosterFileRefusal(f"The header has two {role} columns ({found[role] + 1} and {index + 1}): keep one.")
        if role is not None:
            found[role] = index
    unread = tuple(cell for cell, heading in zip(cells, headings, strict=True) if cell and heading not in HEADINGS)
    beyond = f"More cells than the header's {len(cells)} columns (a name, club or number cannot hold a comma)."
    return _Columns(found["name"], found.get("club"), found.get("number"), len(cells), beyond, unread)


def _line_fault(line: _Line, columns: _Columns) -> str | None:
    if line.unclosed:
        return "A quote opened on this line is never closed: the lines after it were read as one cell."
    if any(line.cells[columns.width :]):
        return columns.beyond
    return None


def _cell_fault(row: RosterRow) -> str | None:
    """Why a row's cells cannot be a member's: the one rule of every way a member comes in."""
    faults = member_faults(row.name, row.club, row.number)
    return faults[0][1] if faults else None


def _repeated(row: RosterRow, numbers: dict[str, int], unnumbered: dict[str, int]) -> str | None:
    """A player listed twice in the file: by number, or by name when neither line has a number."""
    if row.number and row.number.casefold() in numbers:
        return f"Number {row.number} is on line {numbers[row.number.casefold()]} already."
    if not row.number and name_key(row.name) in unnumbered:
        return (
            f"{row.name} is on line {unnumbered[name_key(row.name)]} already: "
            "two players of that name need their membership numbers."
        )
    return None
