"""Scores as plain text and JSON for the command line."""

from __future__ import annotations

from .scoring import GameScore, LeftoverScore


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
        note = scored.compact
    return f"{_cards(scored)}  ({note})  = {scored.total}" if note else f"{_cards(scored)}  = {scored.total}"


def score_table(result: GameScore) -> str:
    """A score sheet in text: a row per side, a column per hand, the total and who leads."""
    game = result.game
    played = len(result.hands)
    most = game.rules.max_hands()
    hands = f"{played} hand{'s' if played != 1 else ''}"
    status = "final" if result.finished else f"after {played} of {most} hands" if most else f"after {hands}"
    headers = ["Side"]
    with_start = any(side.start for side in result.sides)
    if with_start:
        headers.append("Start")
    with_bonus = any(side.bonus for side in result.sides)
    headers += [str(hand.number) for hand in result.hands] + (["Bonus"] if with_bonus else []) + ["Total"]
    rows = []
    for side in result.sides:
        marked = [
            f"{points}p" if pressure else str(points)
            for points, pressure in zip(side.hands, side.pressures, strict=False)
        ]
        row = [side.side.name] + ([str(side.start)] if with_start else []) + marked
        rows.append(row + ([str(side.bonus)] if with_bonus else []) + [str(side.total)])
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        return "  ".join([first, *(c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=False))]).rstrip()

    out = [f"{game.rules.name} · {status}", line(headers), *map(line, rows)]
    taken = [p for hand in result.hands for p in hand.pressures]
    if taken:
        out.append("p = includes pressures:")
        for hand in result.hands:
            for pressure in hand.pressures:
                out.append(
                    f"  hand {hand.number}: {pressure.player} ({pressure.side}) "
                    f"pressure {pressure.number} = {pressure.value}"
                )
    for column in result.columns:
        scores = ", ".join(f"{name} {total}" for name, total in column.totals.items())
        won = f"won by {column.winner} in hand {column.won_in_hand}" if column.winner else "open"
        out.append(f"Game {column.number}: {scores} ({won})")
    leaders = result.leader
    best = result.side(leaders[0]).total
    games = result.games_won(leaders[0])
    on = f"{games} game{'s' if games != 1 else ''}, {best}" if result.columns else str(best)
    word = "Winner" if result.finished else "Leader"
    if len(leaders) > 1:
        out.append(f"{word}s (tied): {', '.join(leaders)} on {on}")
    else:
        out.append(f"{word}: {leaders[0]} on {on}")
    return "\n".join(out)
