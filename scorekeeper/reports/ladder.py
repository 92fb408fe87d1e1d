"""A season's ladder as it is shown: built once from ``club.ladder``'s rows, then drawn by the
ladder's page, its wall screen, its PDF and its CSV alike.

Points are kept in halves, so they are written with "½" (41½), never 41.5; a shared place is
"=3", and every tie is said in words under the ladder; each player's evenings are one line
("1: 3 · 2: (1½) · 4: —"), each evening by its number in the season, whatever the number of
evenings, so that a phone, a page of paper and a television show the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from ..club.ladder import BEST, RATING, Evening, LadderRow

#: Stands for an evening a player played without a place (no complete round), and for no place.
NO_PLACE = "—"


@cache
def halves(value: float) -> str:
    """Points as the ladder writes them: 41.5 → "41½", 0.5 → "½", 3.0 → "3" (a ladder writes the
    same few values thousands of times: each is worked out once)."""
    doubled = round(abs(value) * 2)
    whole, half = divmod(doubled, 2)
    sign = "−" if value < 0 and doubled else ""
    return f"{sign}{whole if whole or not half else ''}{'½' if half else ''}"


def points_words(value: float) -> str:
    """ "41½ points", "1 point", "½ point"."""
    return f"{halves(value)} point{'' if abs(value) <= 1 and value != 0 else 's'}"


@cache
def ordinal(number: int) -> str:
    """1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd" (worked out once each, as ``halves``)."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def rating_text(value: float) -> str:
    return f"{value:.1f}"


class LadderCell(NamedTuple):
    """One evening a player played, as their line shows it (a tuple: a ladder has thousands)."""

    #: The evening's number in the season (1 for the first).
    number: int
    #: Points ("3", "1½"), a place for a ladder by rating ("2nd"), or "—" for no place.
    text: str
    #: The evening's points count towards the player's score (a ladder by rating counts none).
    counted: bool
    #: Played without a place (no complete round).
    unranked: bool
    #: The number a spreadsheet gets (points, or a place by rating); None: no place.
    value: float | None
    #: Points that do not count in a ladder of the best N: shown in brackets.
    bracketed: bool = False

    @property
    def shown(self) -> str:
        """ "2: 3", "2: (3)" for an evening whose points do not count (a no-break space after the colon)."""
        return f"{self.number}:\u00a0{f'({self.text})' if self.bracketed else self.text}"


@dataclass(frozen=True)
class LadderLine:
    """A player's line on the ladder."""

    player: int
    name: str
    #: Shared on ties; 0: nothing to rank by yet (listed last, no place).
    place: int
    tied: bool
    #: Points or a rating; None when the player has nothing to rank by.
    score: float | None
    evenings: int
    counted: int
    cells: tuple[LadderCell, ...]

    #: The line under the name: "1: 3 · 2: (1½) · 4: —", broken only between evenings.
    evenings_text: str = field(default="", compare=False)

    @property
    def place_text(self) -> str:
        """ "1", "=3" (shared), "—" (none)."""
        if not self.place:
            return NO_PLACE
        return f"={self.place}" if self.tied else str(self.place)


@dataclass(frozen=True)
class LadderTable:
    """The whole ladder as shown: the rule in words, whether it is provisional, the season's
    evenings by number, the lines best first, and each tie in words."""

    rule: str
    rule_words: str
    provisional: bool
    #: (number, name, date) of each evening on the ladder, in the season's order.
    evenings: tuple[tuple[int, str, str], ...]
    lines: tuple[LadderLine, ...]
    ties: tuple[str, ...]

    @property
    def by_rating(self) -> bool:
        return self.rule == RATING

    def score_text(self, line: LadderLine) -> str:
        """ "41½", "12.3" (a rating), "—"."""
        if line.score is None:
            return NO_PLACE
        return rating_text(line.score) if self.by_rating else halves(line.score)

    @property
    def score_heading(self) -> str:
        return "Rating" if self.by_rating else "Points"

    @property
    def cells_note(self) -> str:
        """What a line of evenings means, said once under the ladder."""
        what = "each evening's place" if self.by_rating else "each evening's placement points"
        note = f"Under each name, {what} by the evening's number"
        if self.rule == BEST:
            note += "; in brackets, the evenings that do not count"
        return note + f"; {NO_PLACE}: played without a complete round."

    def rows_unranked(self) -> bool:
        return any(not line.place for line in self.lines)


def ladder_table(
    rows: Sequence[LadderRow[int]],
    evenings: Sequence[Evening[int]],
    names: Mapping[int, str],
    rule: str,
    rule_words: str,
    provisional: bool,
) -> LadderTable:
    """The ladder to show from ``club.ladder.ladder``'s rows and the evenings it ranked (in the
    season's order), each player by the name ``names`` gives (a public page's, or the director's),
    players who share a place in the order of those names."""
    numbers = {evening.event_id: number for number, evening in enumerate(evenings, start=1)}
    places = {evening.event_id: evening.places for evening in evenings}
    by_rating, best = rule == RATING, rule == BEST
    lines = []
    for row in rows:
        cells = []
        for event_id in sorted(row.by_evening, key=numbers.__getitem__):
            points = row.by_evening[event_id]
            counted = not by_rating and event_id in row.counted
            if event_id in row.unranked:
                cells.append(LadderCell(numbers[event_id], NO_PLACE, counted, True, None))
            elif by_rating:
                place = places[event_id][row.player]
                cells.append(LadderCell(numbers[event_id], ordinal(place), False, False, float(place)))
            else:
                bracketed = best and not counted
                cells.append(LadderCell(numbers[event_id], halves(points), counted, False, points, bracketed))
        line = LadderLine(
            row.player,
            names[row.player],
            row.place,
            row.tied,
            row.score if row.place else None,
            row.evenings,
            len(row.counted),
            tuple(cells),
            " · ".join(cell.shown for cell in cells),
        )
        lines.append(line)
    # Players sharing a place (and those without one) by the name this page shows, as a reader looks one up.
    lines.sort(key=lambda line: (not line.place, line.place, line.name.casefold(), line.name))
    table = LadderTable(
        rule,
        rule_words,
        provisional,
        tuple((numbers[e.event_id], e.name, e.held_on) for e in evenings),
        tuple(lines),
        (),
    )
    return LadderTable(rule, rule_words, provisional, table.evenings, table.lines, _ties(table))


def _ties(table: LadderTable) -> tuple[str, ...]:
    """Each shared place in words: "=3: Ann Smith and Bob Stone are tied on 41½ points; ties share a place."."""
    groups: dict[int, list[LadderLine]] = {}
    for line in table.lines:
        if line.tied:
            groups.setdefault(line.place, []).append(line)
    said = []
    for place, tied in groups.items():
        names = [line.name for line in tied]
        together = ", ".join(names[:-1]) + " and " + names[-1]
        score = tied[0].score or 0.0
        on = f"a rating of {rating_text(score)}" if table.by_rating else points_words(score)
        said.append(f"={place}: {together} are tied on {on}; ties share a place.")
    return tuple(said)
