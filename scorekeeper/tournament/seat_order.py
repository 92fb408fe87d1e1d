"""Where each sits at a planned table: seats turned so that nobody is always in seat 1 (who
deals the first hand) or any other, partners kept opposite."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

from ..scoring.game import seated_opposite
from .seating import ALONE, FIXED

Round = list[list[str]]


def seat_orders(
    played: Sequence[Sequence[Sequence[str]]], planned: list[list[list[int]]], units: list[tuple[str, ...]], mode: str
) -> list[Round]:
    """Names in seat order: played rounds as played; planned ones turned so seats even out."""
    rounds: list[Round] = [[list(table) for table in tables] for tables in played]
    seats: dict[str, Counter[int]] = {}
    for tables in rounds:
        for table in tables:
            for seat, name in enumerate(table):
                seats.setdefault(name, Counter())[seat] += 1
    for numbered in planned:
        seated: Round = []
        for group in numbered:
            if mode == FIXED:
                names = seated_opposite(units[group[0]], units[group[1]])
            else:
                names = [units[u][0] for u in group]
            seated.append(turned(names, seats, keep_partners=mode != ALONE))
        for seats_of_table in seated:
            for seat, name in enumerate(seats_of_table):
                seats.setdefault(name, Counter())[seat] += 1
        rounds.append(seated)
    return rounds


#: The ways to seat a table of four that keep partners opposite: its turns and reflections.
DIHEDRAL = [
    (0, 1, 2, 3),
    (1, 2, 3, 0),
    (2, 3, 0, 1),
    (3, 0, 1, 2),
    (0, 3, 2, 1),
    (3, 2, 1, 0),
    (2, 1, 0, 3),
    (1, 0, 3, 2),
]


def turned(table: list[str], seats: Mapping[str, Counter[int]], keep_partners: bool) -> list[str]:
    """The seating of ``table`` that puts each player where they have sat least (ties: as given)."""
    if keep_partners and len(table) == 4:
        options = [[table[i] for i in order] for order in DIHEDRAL]
    else:
        options = [list(order) for order in itertools.permutations(table)]

    def cost(option: list[str]) -> int:
        return sum(seats.get(name, Counter())[seat] ** 2 for seat, name in enumerate(option))

    return min(options, key=cost)
