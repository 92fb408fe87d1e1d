"""Who sits out a round of an event's plan and the tables the rest make: the fewest needed,
those who have sat out least first, then those who sat out longest ago, so nobody sits out
twice before everyone present has once."""

from __future__ import annotations

from collections import Counter

from .seating import FIXED, USUAL, SeatingError, table_sizes


def unit_sizes(count: int, partnerships: str, size: int, odd: str = USUAL) -> list[int]:
    """Tables of a round, counted in units (players; pairs with fixed partners)."""
    if partnerships == FIXED:
        if count < 2 or count % 2:
            raise SeatingError(f"{count} partnerships cannot be seated two to a table", "players")
        return [2] * (count // 2)
    return table_sizes(count, partnerships, size, odd)


def sit_outs(
    present: list[list[int]], played: list[list[list[int]]], partnerships: str, size: int, odd: str
) -> list[list[int]]:
    """Who sits out each round: as played, then the fewest needed, fairly (see the module's doc)."""
    sat_out: Counter[int] = Counter()
    last: dict[int, int] = {}
    out: list[list[int]] = []
    for r, here in enumerate(present):
        if r < len(played):
            seated = {unit for table in played[r] for unit in table}
            missing = [unit for unit in here if unit not in seated]
        else:
            need = _fewest_out(len(here), partnerships, size, odd)
            order = sorted(here, key=lambda unit: (sat_out[unit], last.get(unit, -1), (unit - r) % max(1, len(here))))
            missing = sorted(order[:need])
        for unit in missing:
            sat_out[unit] += 1
            last[unit] = r
        out.append(missing)
    return out


def _fewest_out(count: int, partnerships: str, size: int, odd: str) -> int:
    for need in range(count + 1):
        try:
            unit_sizes(count - need, partnerships, size, odd)
        except SeatingError:
            continue
        return need
    raise SeatingError("too few players to seat a table", "players")
