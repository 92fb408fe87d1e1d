"""The club's CSVs: a season's ladder and the ratings, as rows for ``csv_text`` (which keeps
every cell from being read as a formula). A public copy has no membership numbers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..club.ratings import Rating, placed
from .ladder import LadderTable

#: Written for an evening played without a place: a spreadsheet's sum skips it.
NO_PLACE_CELL = "no place"


def ladder_rows(table: LadderTable, numbers: Mapping[int, str | None] | None = None) -> list[list[object]]:
    """Place, tied, name, number (when ``numbers`` are given: the director's copy), score,
    evenings played, evenings counted, then one column per evening (its date and name): its
    points (its place, by rating), in brackets when it does not count, so that a sum of the
    evenings' cells is the score; "no place" when played without one; empty when not played."""
    head: list[object] = ["place", "tied", "name"]
    if numbers is not None:
        head.append("number")
    head += [table.score_heading.lower(), "evenings", "counted"]
    head += [f"{held_on} {name}" for _, name, held_on in table.evenings]
    rows = [head]
    for line in table.lines:
        row: list[object] = [line.place or "", "yes" if line.tied else "", line.name]
        if numbers is not None:
            row.append(numbers.get(line.player) or "")
        score = None if line.score is None else round(line.score, 3) if table.by_rating else _number(line.score)
        row += ["" if score is None else score, line.evenings, line.counted]
        cells: list[object] = [""] * len(table.evenings)
        for cell in line.cells:
            if cell.value is None:
                shown: object = NO_PLACE_CELL
            elif cell.bracketed:
                shown = f"({_number(cell.value)})"
            else:
                shown = _number(cell.value)
            cells[cell.number - 1] = shown
        rows.append(row + cells)
    return rows


def ratings_rows(rated: Sequence[tuple[str, str | None, Rating]], *, numbers: bool) -> list[list[object]]:
    """Place (shared when the cautious ratings are equal), name, number (the director's copy),
    the cautious rating (mu − 3 sigma), mu, sigma and tables rated; best first, as given."""
    head: list[object] = ["place", "name", *(["number"] if numbers else []), "ordinal", "mu", "sigma", "tables"]
    rows = [head]
    for place, (name, number), rating in placed([((name, number), rating) for name, number, rating in rated]):
        row: list[object] = [place, name, *([number or ""] if numbers else [])]
        rows.append(row + [round(rating.ordinal, 4), round(rating.mu, 4), round(rating.sigma, 4), rating.tables])
    return rows


def _number(value: float) -> int | float:
    """3.0 → 3, 1.5 → 1.5: whole points without a decimal point."""
    return int(value) if float(value).is_integer() else value
