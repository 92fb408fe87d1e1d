"""How good a plan is (``Quality``), against the lower bounds no plan with its tables goes below,
and which of two numbered plans the search keeps (``judged``)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..scoring.game import partners_opposite
from .annealing import pair_cost
from .seating import ALONE, FIXED, ROTATE


@dataclass(frozen=True)
class Quality:
    """How good a plan is, over every round (played ones too).

    ``repeats``: meetings beyond the first, summed over pairs: pairs of players at a table
    (pairs of partnerships, with fixed partners). ``most``: the most times one pair met.
    ``bound``: no plan of these tables has fewer repeats (each player meets ``size - 1`` a
    round, and there are only so many others). ``partner_repeats``: rotating partners, pairs
    partnered more than once. ``seat_spread``: the most that any player's count of rounds in
    one seat differs from their count in another (tables of four; 0 or 1 is even).
    ``deals_first``: the most rounds any player sat in seat 1, dealing the first hand.
    """

    repeats: int
    most: int
    bound: int
    partner_repeats: int
    seat_spread: int
    deals_first: int
    #: No plan of these tables has fewer than this ``most`` (0 in a plan stored before it was kept).
    most_bound: int = 0
    #: The most rounds a player sat at a table of three or five, and the fewest, among players who
    #: played a round where such a table was (equal to or one more than the fewest is fair).
    odd_most: int = 0
    odd_least: int = 0

    @property
    def margin(self) -> int:
        return self.repeats - self.bound

    def lines(self, partnerships: str = ALONE) -> list[str]:
        """The quality in words (``Plan.described`` adds where the plan comes from)."""
        who = "partnerships" if partnerships == FIXED else "players"
        most_bound = f" (no plan can have fewer than {self.most_bound})" if self.most_bound else ""
        lines = [
            f"Most times two {who} meet: {self.most}{most_bound}",
            f"Repeated meetings: {self.repeats} (no plan can have fewer than {self.bound})",
        ]
        if partnerships == ROTATE:
            lines.append(f"Partners again: {self.partner_repeats}")
        if self.odd_most:
            least, most = self.odd_least, self.odd_most
            lines.append(
                "Tables of three or five: a player sits at one in "
                + (f"{most} round{'s' if most != 1 else ''}" if least == most else f"{least} to {most} rounds")
                + " of those that mix them with tables of four"
            )
        lines.append(
            f"Seats: a player's rounds in one seat and another differ by at most {self.seat_spread}; "
            f"nobody deals first in more than {self.deals_first} round{'s' if self.deals_first != 1 else ''}"
        )
        return lines


def quality(rounds: Sequence[Sequence[Sequence[str]]], partnerships: str = ALONE, units: int | None = None) -> Quality:
    """How good ``rounds`` are (see ``Quality``); ``units`` is the number of players (pairs, with
    fixed partners) in the event, or those seated."""
    meet: Counter[frozenset[str]] = Counter()
    partners: Counter[frozenset[str]] = Counter()
    seats: dict[str, Counter[int]] = {}
    numbered: dict[str, int] = {}
    as_units: list[list[list[int]]] = []
    for tables in rounds:
        round_units = []
        for table in tables:
            for seat, name in enumerate(table):
                seats.setdefault(name, Counter())[seat] += 1
            if partnerships == FIXED and len(table) == 4:
                pair, other = partners_opposite(table)
                keys = ["&".join(sorted(pair)), "&".join(sorted(other))]
            else:
                keys = list(table)
            for a, b in itertools.combinations(keys, 2):
                meet[frozenset((a, b))] += 1
            if partnerships == ROTATE and len(table) == 4:
                for pair in partners_opposite(table):
                    partners[frozenset(pair)] += 1
            round_units.append([numbered.setdefault(key, len(numbered)) for key in keys])
        as_units.append(round_units)
    at_odd: Counter[str] = Counter()
    for tables in rounds:
        if partnerships == ALONE and any(len(t) == 4 for t in tables) and any(len(t) != 4 for t in tables):
            for table in tables:
                for name in table:
                    at_odd[name] += len(table) != 4
    fours = [counts for counts in seats.values() if sum(counts.values())]
    spread = max((max(c[s] for s in range(4)) - min(c[s] for s in range(4)) for c in fours), default=0)
    return Quality(
        repeats=sum(m - 1 for m in meet.values() if m > 1),
        most=max(meet.values(), default=0),
        bound=repeats_bound(as_units, units if units is not None else len(numbered)),
        partner_repeats=sum(m - 1 for m in partners.values() if m > 1),
        seat_spread=spread,
        deals_first=max((c[0] for c in seats.values()), default=0),
        most_bound=most_times_bound(as_units, units if units is not None else len(numbered)),
        odd_most=max(at_odd.values(), default=0),
        odd_least=min(at_odd.values(), default=0),
    )


def judged(rounds: Sequence[Sequence[Sequence[int]]], partnerships: str) -> tuple[int, int, int, int]:
    """Which of two numbered plans is better: fewer partners again (rotating), then the fewest
    times any two meet, then fewer repeats, then the lower annealing cost."""
    meet: Counter[tuple[int, int]] = Counter()
    partners: Counter[tuple[int, int]] = Counter()
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(sorted(table), 2):
                meet[(a, b)] += 1
            if partnerships == ROTATE and len(table) == 4:
                for a, b in ((table[0], table[2]), (table[1], table[3])):
                    partners[(min(a, b), max(a, b))] += 1
    again = sum(m - 1 for m in partners.values() if m > 1)
    most = max(meet.values(), default=0)
    return again, most, sum(m - 1 for m in meet.values() if m > 1), sum(pair_cost(m) for m in meet.values())


def repeats_bound(rounds: Sequence[Sequence[Sequence[int]]], count: int) -> int:
    """Repeats no plan with these rounds' tables avoids (see ``_least``)."""
    return _least(rounds, count, lambda m: max(0, m - 1))


def most_times_bound(rounds: Sequence[Sequence[Sequence[int]]], count: int) -> int:
    """The most times two units meet, which no plan with these rounds' tables goes below: the
    pairs that meet, spread as evenly as they can be over every pair of units, and each unit's
    meetings (at least the round's smallest table - 1 a round) over the ``count - 1`` others."""
    met, meetings = _least_meetings(rounds)
    pairs = max(1, count * (count - 1) // 2)
    return max([-(-meetings // pairs), *(-(-m // max(1, count - 1)) for m in met.values())])


def _least_meetings(rounds: Sequence[Sequence[Sequence[int]]]) -> tuple[Counter[int], int]:
    """What the bounds count: each unit's fewest meetings (the round's smallest table - 1 for each
    round it plays) and the pairs that meet in all (``s (s - 1) / 2`` at a table of ``s``)."""
    met: Counter[int] = Counter()
    meetings = 0
    for tables in rounds:
        smallest = min((len(table) for table in tables), default=1)
        for table in tables:
            meetings += len(table) * (len(table) - 1) // 2
            for unit in table:
                met[unit] += smallest - 1
    return met, meetings


def least_cost(rounds: Sequence[Sequence[Sequence[int]]], count: int) -> int:
    """The annealing's cost no plan with these rounds' tables goes below (see ``_least``)."""
    return _least(rounds, count, pair_cost)


def _least(rounds: Sequence[Sequence[Sequence[int]]], count: int, cost: Callable[[int], int]) -> int:
    """The least total of ``cost(meetings)`` over pairs, for the table sizes of ``rounds``, by
    two counts, whichever says more:

    - each unit meets at least (the round's smallest table - 1) others in a round it plays,
      and only ``count - 1`` others exist: its meetings spread as evenly as they can be;
    - the pairs that meet in a round (``s (s - 1) / 2`` at a table of ``s``), spread as evenly
      as they can be over every pair of units.

    ``cost`` is convex (repeats, or the annealing's ``pair_cost``), so an even spread costs least.
    """

    def spread(total: int, over: int) -> int:
        each, more = divmod(total, max(1, over))
        return more * cost(each + 1) + (over - more) * cost(each)

    met, meetings = _least_meetings(rounds)
    by_unit = (sum(spread(m, count - 1) for m in met.values()) + 1) // 2
    return max(by_unit, spread(meetings, count * (count - 1) // 2))
