"""CSV as the app writes it: cells a spreadsheet cannot take for a formula."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

from ..scoring.text import FORMULA_START as TEXT_FORMULA_START
from ..scoring.text import begins_like_formula

#: What a spreadsheet reads as the start of a formula (or of a command, in some), at a cell's
#: start: the one list every way in refuses a member's fields by (``scoring.text``), whose
#: ``begins_like_formula`` also counts the full-width and small forms of the signs (＝ ＋ － ＠).
FORMULA_START = TEXT_FORMULA_START
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def safe_cell(value: object) -> object:
    """A cell as written: numbers stay numbers (a score of -50 still adds up); text that begins
    as a formula would is kept as text by a leading apostrophe (OWASP's advice), so a name like
    ``=cmd|' /C calc'!A0`` reaches the spreadsheet as those characters, never run."""
    if isinstance(value, bool | int | float) or value is None:
        return value
    text = str(value)
    if begins_like_formula(text) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """The rows as CSV, every cell through ``safe_cell``."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()
