"""Scores as plain text and JSON for the command line.

Every text here reaches a terminal, which obeys what it is handed: an escape character starts a
command (a new window title, a cleared screen, a forged line), a direction override turns the
rest of a line round. Names are checked as they come in, but a database made before a check, or
written to by hand, may hold anything: so each line is handed over with such characters written
as their escapes (``terminal_safe``), never raw.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from ..club.ratings import Rating, placed
from ..scoring import GameScore, LeftoverScore
from ..tournament.plan import Plan
from .grid import score_grid
from .ladder import LadderTable

#: What a terminal would obey or hide: control characters (the escape, the bell, a line break
#: inside a name), format characters (direction overrides, zero-width spaces), line and paragraph
#: separators, lone surrogates.
UNSAFE_KINDS = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: Format characters that belong inside an emoji (👨‍👩‍👧, a subdivision flag): kept.
EMOJI_PARTS = frozenset(["\u200d", *map(chr, range(0xE0020, 0xE0080))])


def terminal_safe(text: str) -> str:
    """``text`` with each character a terminal would obey or hide written as its Python escape
    (ESC as ``\\x1b``, a right-to-left override as ``\\u202e``, a line break inside a name as
    ``\\n``): what the database holds, shown, and nothing done."""
    return "".join(
        char.encode("unicode_escape").decode("ascii")
        if unicodedata.category(char) in UNSAFE_KINDS and char not in EMOJI_PARTS
        else char
        for char in text
    )


def _lines(lines: Iterable[str]) -> str:
    """Lines for the terminal: each made safe, then joined (the only line breaks are these)."""
    return "\n".join(terminal_safe(line) for line in lines)


def plan_text(plan: Plan, partnerships: str = "none") -> str:
    """An event's plan: each round's tables (seats in order), who sits out, and its quality."""
    lines: list[str] = []
    for number, tables in enumerate(plan.rounds, start=1):
        lines.append(f"Round {number}")
        for table_number, seats in enumerate(tables, start=1):
            lines.append(f"  Table {table_number}: {', '.join(seats)}")
        if plan.sitting_out[number - 1]:
            lines.append(f"  Sitting out: {', '.join(plan.sitting_out[number - 1])}")
    lines.append("")
    lines.extend(plan.described(partnerships))
    return _lines(lines)


def leftover_json(scored: LeftoverScore) -> dict[str, object]:
    return {
        "cards": [card.token for card in scored.cards],
        "total": scored.total,
        "only_threes": scored.only_threes,
        "covers": [
            {
                "threes": [three.token for three in pile.threes],
                "covered": pile.base.token if pile.base else None,
            }
            for pile in scored.covers
        ],
        "covering": scored.compact,
        "breakdown": [{"label": label, "points": points} for label, points in scored.breakdown()],
    }


def _cards(scored: LeftoverScore) -> str:
    return " ".join(card.label for card in scored.cards) or "-"


def leftover_breakdown(scored: LeftoverScore) -> str:
    """Several lines: the cards, what each part scored, and the total last."""
    lines = [(label, points) for label, points in scored.breakdown()]
    width = max(len(label) for label, _ in lines + [("total", 0)])
    body = [f"  {label:<{width}}  {points:>5}" for label, points in lines]
    return _lines([_cards(scored), *body, f"  {'total':<{width}}  {scored.total:>5}"])


def leftover_line(scored: LeftoverScore) -> str:
    """One line, the total last: ``A 2 3 3 6 8 K  (3→6 3→2)  = 67``."""
    if scored.went_out:
        note = "went out"
    elif scored.only_threes:
        note = "only threes"
    else:
        note = scored.how
    return f"{_cards(scored)}  ({note})  = {scored.total}" if note else f"{_cards(scored)}  = {scored.total}"


def score_table(result: GameScore) -> str:
    """A score sheet in text: the score grid turned for a terminal, a row per side and a column
    per hand, then the pressures, the game columns and who leads."""
    grid = score_grid(result)
    played = len(grid.rows)
    most = grid.hands_in_game
    hands = f"{played} hand{'s' if played != 1 else ''}"
    status = "final" if grid.finished else f"after {played} of {most} hands" if most else f"after {hands}"
    headers = ["Side"]
    if grid.with_start:
        headers.append("Start")
    headers += [str(row.number) for row in grid.rows] + (["Bonus"] if grid.with_bonus else []) + ["Total"]
    rows = []
    for index, side in enumerate(grid.sides):
        cells = [row.cells[index] for row in grid.rows]
        marked = [f"{cell.points}p" if cell.pressures else str(cell.points) for cell in cells]
        row = [terminal_safe(side.name)] + ([str(side.start)] if grid.with_start else []) + marked
        rows.append(row + ([str(side.bonus)] if grid.with_bonus else []) + [str(side.total)])
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        return "  ".join([first, *(c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=False))]).rstrip()

    out = [f"{grid.game_name} · {status}", line(headers), *map(line, rows)]
    if any(row.pressures for row in grid.rows):
        out.append("p = includes pressures:")
        for hand in grid.rows:
            for pressure in hand.pressures:
                out.append(
                    f"  hand {hand.number}: {pressure.player} ({pressure.side}) "
                    f"pressure {pressure.number} = {pressure.value}"
                )
    for column in grid.columns:
        scores = ", ".join(f"{name} {total}" for name, total in column.totals.items())
        won = f"won by {column.winner} in hand {column.won_in_hand}" if column.winner else "open"
        out.append(f"Game {column.number}: {scores} ({won})")
    leaders = grid.leaders
    ahead = grid.side(leaders[0])
    games = ahead.games_won
    on = f"{games} game{'s' if games != 1 else ''}, {ahead.total}" if grid.columns else str(ahead.total)
    word = "Winner" if grid.finished else "Leader"
    if len(leaders) > 1:
        out.append(f"{word}s (tied): {', '.join(leaders)} on {on}")
    else:
        out.append(f"{word}: {leaders[0]} on {on}")
    return _lines(out)


def ratings_text(model: str, rows: Sequence[tuple[str, str | None, Rating]]) -> str:
    """The club's ratings for the terminal, best first: place (shared when equal), the cautious
    rating, mu, sigma and tables; the model named above them."""
    lines = [f"Ratings by {model}: the number is mu − 3 sigma, the cautious rating."]
    if not rows:
        return _lines([lines[0], "No table has finished yet."])
    named = [
        (terminal_safe(name) + (f" ({terminal_safe(number)})" if number else ""), rating)
        for name, number, rating in rows
    ]
    width = max(len(who) for who, _ in named)
    for place, who, rating in placed(named):
        lines.append(
            f"{place:>4}  {who:<{width}}  {rating.ordinal:7.2f}   mu {rating.mu:6.2f}  sigma {rating.sigma:5.2f}"
            f"  {rating.tables} table{'s' if rating.tables != 1 else ''}"
        )
    return _lines(lines)


def ladder_text(season: str, table: LadderTable) -> str:
    """A season's ladder for the terminal: the rule, provisional while an evening is under way,
    place ("=3" when shared), name, score and each evening, the ties said, the evenings by number."""
    lines = [f"{season}: {table.rule_words}."]
    if table.provisional:
        lines.append("Provisional: an evening of the season is still under way.")
    if not table.lines:
        return _lines([*lines, "No evening of the season has begun yet."])
    names = [terminal_safe(line.name) for line in table.lines]
    width = max(map(len, names))
    for line, name in zip(table.lines, names, strict=True):
        evenings = line.evenings_text.replace("\u00a0", " ")
        lines.append(f"{line.place_text:>4}  {name:<{width}}  {table.score_text(line):>6}   {evenings}")
    lines += list(table.ties)
    lines.append(table.cells_note)
    lines += [f"{number}. {name}, {held_on}" for number, name, held_on in table.evenings]
    return _lines(lines)
