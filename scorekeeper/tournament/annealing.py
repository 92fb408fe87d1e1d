"""Simulated annealing over who shares a table, for every round still to play at once.

Players are numbers here (``0 .. n-1``); ``plan`` gives them names. A round is a list of
tables, each a list of numbers in seat order. Rounds before ``first`` are played: they count
in the meetings but never move. A move swaps two players of one round between tables, or,
with partners, two seats of one table (which changes who partners whom). The cost of a plan
is, over every pair, ``pair_cost(m)`` for ``m`` meetings at a table, plus ``partner_weight``
times the same of ``m`` partnerships: 0 while nobody meets twice, a weight for each repeat,
and ``m (m - 1) / 2`` more, so a search also spreads unavoidable repeats over many pairs, and far
more for a third meeting and each after it, so the most times two players meet goes down first.
Partners sit opposite (seats 1 and 3, 2 and 4) at a table of four. With ``fair_sizes``, a swap
that moves a player to or from a table of three or five is made only if those tables stay
shared as the start shares them: nobody at one twice before everyone playing has been once.

The search keeps the best plan it has seen, so it never returns one worse than it started
from; it stops at ``target`` cost, after ``steps`` moves, or at ``deadline`` (a
``time.monotonic()`` value), whichever comes first.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

Tables = list[list[int]]
#: A search that has found nothing better for this long (or an eighth of its time) stops:
#: where the lower bound cannot be met, waiting out the whole time would find nothing more.
PATIENCE = 2.0
#: The temperature falls this many times in a run: a cold search that is stuck warms up again.
CYCLES = 3


#: What a repeat costs beyond the ``m (m - 1) / 2`` that spreads repeats.
REPEAT_WEIGHT = 8
#: What a pair's third meeting costs more again: a plan is judged by the most times two players
#: meet first ("I played Ned four times" is heard before any total), so a third meeting costs
#: more than a dozen second ones...
MOST_WEIGHT = 128
#: ...and each meeting after that costs this many times the one before: more than every pair of
#: the largest field (300 players) meeting one time fewer, so fewer pairs meeting m + 1 times
#: always beats any number meeting m times.
LEVEL = 45_000


def pair_cost(count: int) -> int:
    """What ``count`` meetings of one pair cost: nothing for none or one."""
    beyond, level = 0, 1
    for _ in range(count - 2):
        beyond, level = beyond + level, level * LEVEL
    return REPEAT_WEIGHT * max(0, count - 1) + count * (count - 1) // 2 + MOST_WEIGHT * beyond


#: The change in cost when a pair that met ``m`` times meets once more (``UP[m]``), once less (``DOWN[m]``).
UP = [pair_cost(m + 1) - pair_cost(m) for m in range(64)]
DOWN = [0] + [pair_cost(m - 1) - pair_cost(m) for m in range(1, 64)]


def _partner(table: list[int], seat: int) -> int | None:
    return table[(seat + 2) % 4] if len(table) == 4 else None


class Annealer:
    def __init__(
        self,
        count: int,
        rounds: Sequence[Tables],
        first: int,
        partner_weight: int = 0,
        seed: int = 0,
        *,
        fair_sizes: bool = False,
    ) -> None:
        self.n = count
        self.rounds = [[table[:] for table in tables] for tables in rounds]
        self.first = first
        self.partner_weight = partner_weight
        self.rng = random.Random(seed)
        self.meet = [[0] * count for _ in range(count)]
        self.partners = [[0] * count for _ in range(count)]
        for tables in self.rounds:
            for table in tables:
                self._count(table, 1)
        self.cost = self._total()
        # ``odd[p]``: the rounds in which ``p`` sits at a table of three or five, one bit each.
        self.fair_sizes = fair_sizes
        self.odd = [0] * count
        for r, tables in enumerate(self.rounds):
            for table in tables:
                if len(table) != 4:
                    for unit in table:
                        self.odd[unit] |= 1 << r

    def _fair_swap(self, a: int, b: int, r: int) -> bool:
        """Whether ``a`` and ``b``, one at a table of four and one not, may swap in round ``r``
        and keep the tables of three or five shared fairly (after every round, nobody's count
        of them more than one above anyone's): only if they sat at as many before round ``r``
        and at the same ones after it. From then on each takes the other's count, round by round."""
        odd_a, odd_b, before = self.odd[a], self.odd[b], (1 << r) - 1
        return (odd_a & before).bit_count() == (odd_b & before).bit_count() and odd_a >> (r + 1) == odd_b >> (r + 1)

    def _count(self, table: list[int], sign: int) -> None:
        meet, partners = self.meet, self.partners
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                meet[a][b] += sign
                meet[b][a] += sign
        if self.partner_weight and len(table) == 4:
            for a, b in ((table[0], table[2]), (table[1], table[3])):
                partners[a][b] += sign
                partners[b][a] += sign

    def _total(self) -> int:
        total = 0
        for a in range(self.n):
            for b in range(a + 1, self.n):
                total += pair_cost(self.meet[a][b]) + self.partner_weight * pair_cost(self.partners[a][b])
        return total

    def _swap_delta(self, first: list[int], i: int, second: list[int], j: int) -> int:
        """The change in cost if ``first[i]`` and ``second[j]`` (at different tables) swap seats."""
        a, b = first[i], second[j]
        meet_a, meet_b = self.meet[a], self.meet[b]
        delta = 0
        for x in first:
            if x != a:
                delta += UP[meet_b[x]] + DOWN[meet_a[x]]
        for y in second:
            if y != b:
                delta += UP[meet_a[y]] + DOWN[meet_b[y]]
        if self.partner_weight:
            pa, pb = _partner(first, i), _partner(second, j)
            partners_a, partners_b = self.partners[a], self.partners[b]
            change = 0
            if pa is not None:  # a leaves pa to b
                change += UP[partners_b[pa]] + DOWN[partners_a[pa]]
            if pb is not None:  # b leaves pb to a
                change += UP[partners_a[pb]] + DOWN[partners_b[pb]]
            delta += self.partner_weight * change
        return delta

    def run(self, seconds: float, target: int = 0, steps: int | None = None) -> list[Tables]:
        """The best rounds seen within ``seconds`` (or ``steps`` moves; or until nothing better
        was found for ``PATIENCE``), played ones unchanged.

        The temperature falls with the time spent (or the steps taken), from 3 to 0.15: early
        moves wander, late ones only descend. Most moves take a player who meets someone
        again at their table, since only such a move can lower the count of repeats.
        """
        best_cost, best = self.cost, [[t[:] for t in tables] for tables in self.rounds]
        movable = [r for r in range(self.first, len(self.rounds)) if len(self.rounds[r]) > 1 or self.partner_weight]
        if not movable or self.cost <= target:
            return best
        rng, rounds, meet = self.rng, self.rounds, self.meet
        random_, exp = rng.random, math.exp
        start, end = 1.0 * (REPEAT_WEIGHT + 1), 0.05 * (REPEAT_WEIGHT + 1)
        began = time.monotonic()
        temperature = start
        step = 0
        improved = began
        patience = max(PATIENCE, seconds / 8)
        while True:
            if step % 512 == 0:
                now = time.monotonic()
                done = (step / steps) if steps else (now - began) / seconds
                if done >= 1 or (not steps and now - improved > patience):
                    break
                temperature = start * (end / start) ** ((done * CYCLES) % 1)
            step += 1
            r = movable[int(random_() * len(movable))]
            tables = rounds[r]
            if self.partner_weight and (len(tables) == 1 or random_() < 0.2):
                table = tables[int(random_() * len(tables))]
                if len(table) != 4:
                    continue
                delta = self._partner_swap_delta(table)
                if delta <= 0 or random_() < exp(-delta / temperature):
                    self._count(table, -1)
                    table[0], table[1] = table[1], table[0]
                    self._count(table, 1)
                    self.cost += delta
            else:
                count = len(tables)
                t1 = int(random_() * count)
                first = tables[t1]
                i = int(random_() * len(first))
                if random_() < 0.8:  # prefer a player who meets someone again at this table
                    for _ in range(len(first)):
                        a = first[i]
                        if any(meet[a][x] > 1 for x in first if x != a):
                            break
                        i = (i + 1) % len(first)
                t2 = int(random_() * (count - 1))
                t2 += t2 >= t1
                second = tables[t2]
                j = int(random_() * len(second))
                changes_size = self.fair_sizes and (len(first) == 4) != (len(second) == 4)
                if changes_size and not self._fair_swap(first[i], second[j], r):
                    continue
                delta = self._swap_delta(first, i, second, j)
                if delta <= 0 or random_() < exp(-delta / temperature):
                    self._count(first, -1)
                    self._count(second, -1)
                    if changes_size:
                        self.odd[first[i]] ^= 1 << r
                        self.odd[second[j]] ^= 1 << r
                    first[i], second[j] = second[j], first[i]
                    self._count(first, 1)
                    self._count(second, 1)
                    self.cost += delta
            if self.cost < best_cost:
                best_cost, best = self.cost, [[t[:] for t in tables] for tables in rounds]
                improved = time.monotonic()
                if best_cost <= target:
                    break
        return best

    def _partner_swap_delta(self, table: list[int]) -> int:
        """The change in cost if seats 1 and 2 of a table of four swap: a c / b d become b c / a d."""
        a, b, c, d = table
        p = self.partners
        before = pair_cost(p[a][c]) + pair_cost(p[b][d]) + pair_cost(p[b][c]) + pair_cost(p[a][d])
        after = pair_cost(p[a][c] - 1) + pair_cost(p[b][d] - 1) + pair_cost(p[b][c] + 1) + pair_cost(p[a][d] + 1)
        return self.partner_weight * (after - before)
