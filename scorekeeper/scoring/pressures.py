"""Pressure penalties (000 "pressure" and "Pressure penalties"; 003 "Shuffle pressure").

A side's first pressure of the game is worth 5 and each later one double the one
before. With the capped option the increase from one pressure to the next is at
most ``cap``: a cap of 20 gives 5, 10, 20, 40, 60, 80, 100, ...
"""

from __future__ import annotations

from .errors import InvalidOptions, RefereeError

FIRST_PRESSURE = 5


def pressure_value(number: int, cap: int | None = None) -> int:
    """The value of a side's ``number``-th pressure of the game (1 is the first)."""
    if number < 1:
        raise RefereeError("pressures are numbered from 1: there is no pressure before the first")
    if cap is not None and cap < 1:
        raise InvalidOptions("the pressure increase cap must be a whole number of at least 1")
    value = FIRST_PRESSURE
    for _ in range(number - 1):
        value += value if cap is None else min(value, cap)
    return value


def pressure_ladder(count: int, cap: int | None = None) -> list[int]:
    """The values of a side's first ``count`` pressures."""
    if count < 0:
        raise InvalidOptions("the number of pressures cannot be negative")
    if cap is not None and cap < 1:
        raise InvalidOptions("the pressure increase cap must be a whole number of at least 1")
    values: list[int] = []
    value = FIRST_PRESSURE
    for _ in range(count):
        values.append(value)
        increase = value if cap is None else min(value, cap)
        value += increase
    return values
