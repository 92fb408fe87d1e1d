"""Scores as plain text and JSON for the command line."""

from __future__ import annotations

from collections.abc import Sequence

from ..club.ratings import Rating, placed
from ..scoring import GameScore, LeftoverScore
from ..tournament.plan import Plan
from .grid import score_grid
from .ladder import LadderTable


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
    return "\n".join(lines)


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
    return "\n".join([_cards(scored), *body, f"  {'total':<{width}}  {scored.total:>5}"])


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
        row = [side.name] + ([str(side.start)] if grid.with_start else []) + marked
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
    return "\n".join(out)


def ratings_text(model: str, rows: Sequence[tuple[str, str | None, Rating]]) -> str:
    """The club's ratings for the terminal, best first: place (shared when equal), the cautious
    rating, mu, sigma and tables; the model named above them."""
    lines = [f"Ratings by {model}: the number is mu − 3 sigma, the cautious rating."]
    if not rows:
        return lines[0] + "\nNo table has finished yet."
    width = max(len(name + (f" ({number})" if number else "")) for name, number, _ in rows)
    for place, (name, number), rating in placed([((name, number), rating) for name, number, rating in rows]):
        who = name + (f" ({number})" if number else "")
        lines.append(
            f"{place:>4}  {who:<{width}}  {rating.ordinal:7.2f}   mu {rating.mu:6.2f}  sigma {rating.sigma:5.2f}"
            f"  {rating.tables} table{'s' if rating.tables != 1 else ''}"
        )
    return "\n".join(lines)


def ladder_text(season: str, table: LadderTable) -> str:
    """A season's ladder for the terminal: the rule, provisional while an evening is under way,
    place ("=3" when shared), name, score and each evening, the ties said, the evenings by number."""
    lines = [f"{season}: {table.rule_words}."]
    if table.provisional:
        lines.append("Provisional: an evening of the season is still under way.")
    if not table.lines:
        return "\n".join([*lines, "No evening of the season has begun yet."])
    width = max(len(line.name) for line in table.lines)
    for line in table.lines:
        evenings = line.evenings_text.replace("\u00a0", " ")
        lines.append(f"{line.place_text:>4}  {line.name:<{width}}  {table.score_text(line):>6}   {evenings}")
    lines += list(table.ties)
    lines.append(table.cells_note)
    lines += [f"{number}. {name}, {held_on}" for number, name, held_on in table.evenings]
    return "\n".join(lines)
