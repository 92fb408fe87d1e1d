"""The running-total chart as inline SVG: one line per side, told apart by dash and label, not colour alone."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..scoring import GameScore
from .grid import short_name

WIDTH, HEIGHT = 340, 200
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 40, 70, 12, 26
DASHES = ("", "8 4", "2 3", "10 3 2 3", "1 6")
#: Print colours, as presentation attributes: the page's stylesheet overrides them (dark mode).
COLOURS = ("#0a58a8", "#b3261e", "#17692a", "#7a3db8", "#a35a00")
MARKERS = ("circle", "square", "diamond", "triangle", "cross")


@dataclass(frozen=True)
class Line:
    name: str
    points: str
    css: str
    colour: str
    dash: str
    label_x: float
    label_y: float
    #: What the end of the line says: the name, or its seat(s) where the name is too long.
    label: str = ""
    #: The points the rules add once the game is decided, drawn as a last step at the last hand.
    bonus: int = 0
    bonus_x: float = 0
    bonus_y: float = 0


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]
    zero_y: float | None
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int
    lowest_wins: bool = True


def running_total_chart(score: GameScore) -> Chart | None:
    """None before the first hand: there is nothing to draw."""
    if not score.hands:
        return None
    series: list[tuple[str, tuple[int, ...]]] = [
        (side.side.name, (side.start, *side.running_totals(), *((side.total,) if side.bonus else ())))
        for side in score.sides
    ]
    bonuses = [side.bonus for side in score.sides]
    values = [value for _, totals in series for value in totals]
    low, high = min(values + [0]), max(values + [0])
    if high == low:
        high = low + 10
    hands = score.game.rules.max_hands() or max(len(score.hands), 5)
    left, right = PAD_LEFT, WIDTH - PAD_RIGHT
    top, bottom = PAD_TOP, HEIGHT - PAD_BOTTOM

    def x(hand: int) -> float:
        return round(left + (right - left) * hand / hands, 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    lines = []
    for index, (name, totals) in enumerate(series):
        bonus = bonuses[index]
        hand_of = [min(i, len(score.hands)) for i in range(len(totals))]
        points = " ".join(f"{x(hand_of[i])},{y(v)}" for i, v in enumerate(totals))
        last_x = x(hand_of[-1])
        lines.append(
            Line(
                name,
                points,
                f"s{index}",
                COLOURS[index % len(COLOURS)],
                DASHES[index % len(DASHES)],
                last_x + 6,
                y(totals[-1]) + 4,
                # A long name is labelled by its seat(s), as the sheet's seat list and grid headers number them.
                short_name(name, *(score.game.players.index(m) + 1 for m in score.sides[index].side.members)),
                bonus,
                last_x - 4,
                round((y(totals[-1]) + y(totals[-2])) / 2 + 4, 1) if bonus else 0,
            )
        )
    _spread_labels(lines)
    step = _nice_step(high - low)
    first_tick = (low // step) * step
    ticks = [(y(v), v) for v in range(first_tick, high + step, step) if low <= v <= high]
    x_ticks = tuple((x(h), h) for h in range(0, hands + 1, max(1, hands // 5)))
    return Chart(
        WIDTH,
        HEIGHT,
        tuple(lines),
        tuple(ticks),
        x_ticks,
        y(0) if low <= 0 <= high else None,
        left,
        right,
        top,
        bottom,
        score.game.rules.lowest_wins,
    )


def _nice_step(span: int) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if span / step <= 5:
            return step
    return int(10 ** len(str(span)))


def _spread_labels(lines: list[Line]) -> None:
    """Keep end labels at least a line apart so that names never overprint."""
    order = sorted(range(len(lines)), key=lambda i: lines[i].label_y)
    previous = -1e9
    for i in order:
        line = lines[i]
        label_y = max(line.label_y, previous + 14)
        lines[i] = dataclasses.replace(line, label_y=label_y)
        previous = label_y


@dataclass(frozen=True)
class RatingChart:
    """A player's cautious rating after each evening, as one line (drawn by ``_partials.rating_svg``)."""

    width: int
    height: int
    points: str
    dots: tuple[tuple[float, float], ...]
    y_ticks: tuple[tuple[float, int], ...]
    zero_y: float | None
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int
    first: str
    last: str
    low: float
    high: float


def rating_chart(values: Sequence[float], first: str = "", last: str = "") -> RatingChart | None:
    """The ratings in order (``first`` and ``last`` label the ends: dates); None with nothing to draw."""
    if not values:
        return None
    low, high = min([*values, 0.0]), max([*values, 0.0])
    floor, ceiling = math.floor(low / 5) * 5, math.ceil(high / 5) * 5
    if ceiling == floor:
        ceiling = floor + 5
    left, right = 34, WIDTH - 12
    top, bottom = PAD_TOP, 150 - PAD_BOTTOM
    steps = max(len(values) - 1, 1)

    def x(index: int) -> float:
        return round(left + (right - left) * index / steps, 1) if len(values) > 1 else (left + right) / 2

    def y(value: float) -> float:
        return round(bottom - (bottom - top) * (value - floor) / (ceiling - floor), 1)

    dots = tuple((x(i), y(v)) for i, v in enumerate(values))
    step = max(5, (ceiling - floor) // 4 // 5 * 5)
    ticks = tuple((y(v), v) for v in range(floor, ceiling + 1, step))
    return RatingChart(
        WIDTH,
        150,
        " ".join(f"{a},{b}" for a, b in dots),
        dots,
        ticks,
        y(0),
        left,
        right,
        top,
        bottom,
        first,
        last,
        min(values),
        max(values),
    )
