"""Seating a whole event at once: every round not yet played, planned together.

A round seated on its own (``seating.seat_round``) cannot see the rounds after it, so over
an event players meet again where a plan need not make them. Here the rounds still to play
are planned together, and the rounds played are kept as they were:

1. **Who plays.** Each round's players are those arrived and not withdrawn. When they do not
   divide into the tables the game allows, some sit out: those who have sat out least, then
   those who sat out longest ago, so nobody sits out twice before everyone present has once.
2. **Who shares a table.** A stored schedule where one fits the event (``schedules``: no two
   players at a table twice, or a whist design for rotating partners); fixed partnerships
   meet as a round robin of pairs; otherwise a simulated annealing (``annealing``) over every
   round still to play. It starts from the event's previous plan (after a withdrawal, say)
   or from the round-by-round seating, and keeps the best it sees, so it is never worse.
   Plans are ranked by the most times any two players meet first ("I played Ned four times"
   is heard before any total), then by the total of repeated meetings. Tables of three or five
   (``odd``: as usual, threes or fives) are shared as sitting out is: nobody sits at one twice
   before everyone playing has once.
3. **Where each sits.** Seats turn so nobody is always in seat 1 (who deals the first hand)
   or any other; partners stay opposite.

Pure: names in, tables out. ``Quality`` (``plan_quality``) says how good a plan is against its
lower bound; ``names_list`` reads the players' names.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..scoring.game import partners_opposite
from .annealing import Annealer
from .plan_quality import Quality, judged, least_cost, most_times_bound, quality, repeats_bound
from .schedules import TABLES, WHIST, round_robin, schedule_for
from .seat_order import seat_orders
from .seating import (
    ALONE,
    FIVES,
    FIXED,
    PARTNERSHIP_MODES,
    ROTATE,
    THREES,
    USUAL,
    SeatingError,
    seat_round,
    table_sizes,
)
from .sit_outs import sit_outs, unit_sizes

#: The most rounds an event plans (a long day's play is a dozen).
MAX_ROUNDS = 30
#: How long a plan may search when no stored schedule fits (the issue's bound is 30 s on 2 cores).
SECONDS = 20.0
#: Above this many players a plan starts from a random seating: the round-by-round seating
#: takes seconds a round for a hundred players (and the search soon does better).
ROUND_BY_ROUND_MOST = 64
#: Partnering the same player again costs this many repeated table-mates.
PARTNER_WEIGHT = 4

Round = list[list[str]]


@dataclass(frozen=True)
class OddChoice:
    """How a plan with the other choice of tables beside the fours (``odd``) would do."""

    odd: str
    quality: Quality


@dataclass(frozen=True)
class Plan:
    rounds: list[Round]
    sitting_out: list[list[str]]
    source: str
    quality: Quality
    #: Before the event starts, where the players left over could sit at threes or at fives: the other choice.
    instead: OddChoice | None = None

    def described(self, partnerships: str = ALONE, started: bool = False) -> list[str]:
        """The plan's quality and where it comes from, in words: the command line, the event
        page and the round sheet say the same; until the event has ``started``, how the other
        choice of tables of three or five would do."""
        lines = [*self.quality.lines(partnerships), f"From {self.source}."]
        if self.instead is not None and not started:
            lines.append(odd_choice_line(self.instead.odd, self.instead.quality, partnerships) + ".")
        return lines


def odd_choice_line(odd: str, quality: Quality, partnerships: str = ALONE) -> str:
    """How the other choice of tables beside the fours would do, in a line: the command line
    and the event page say it under the plan."""
    who = "partnerships" if partnerships == FIXED else "players"
    kind = "three" if odd == THREES else "five"
    return (
        f"With tables of {kind} instead: most times two {who} meet {quality.most} (no plan can have fewer "
        f"than {quality.most_bound}); repeated meetings {quality.repeats} (no plan can have fewer than {quality.bound})"
    )


def other_odd(count: int, partnerships: str = ALONE, size: int = 4, odd: str = USUAL) -> str | None:
    """The other choice of tables beside the fours for ``count`` players (threes for fives,
    fives for threes), or None where it would seat the same tables (or none is possible)."""
    seated = table_sizes(count, partnerships, size, odd)
    for other in (THREES, FIVES):
        if sorted(table_sizes(count, partnerships, size, other)) != sorted(seated):
            return other
    return None


def plan_event(
    players: Sequence[str],
    rounds: int,
    partnerships: str = ALONE,
    *,
    played: Sequence[Sequence[Sequence[str]]] = (),
    arrives: Mapping[str, int] | None = None,
    leaves: Mapping[str, int] | None = None,
    previous: Sequence[Sequence[Sequence[str]]] = (),
    size: int = 4,
    odd: str = USUAL,
    seed: int = 0,
    seconds: float = SECONDS,
) -> Plan:
    """Every round of the event: ``played`` as played, the rest planned.

    ``arrives[name]`` is a late player's first round; ``leaves[name]`` the first round a
    withdrawn player misses. ``previous`` is an earlier plan to start from, so a change
    moves as few players as it can. With fixed partners, the partnerships are as first
    played, or else as listed (1st with 2nd, 3rd with 4th, ...), and a pair plays while both
    partners do.
    """
    if partnerships not in PARTNERSHIP_MODES:
        raise SeatingError(f"partnerships must be one of {', '.join(PARTNERSHIP_MODES)}", "partnerships")
    if len(set(players)) != len(players):
        raise SeatingError("two players have the same name", "players")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise SeatingError(f"an event has 1 to {MAX_ROUNDS} rounds, not {rounds}", "rounds")
    if len(played) > rounds:
        raise SeatingError(f"{len(played)} rounds are played already, more than {rounds}", "rounds")
    began = time.monotonic()
    arrives, leaves = arrives or {}, leaves or {}
    units, lone = _units(players, partnerships, played, arrives)
    number = {unit: index for index, unit in enumerate(units)}
    present = [
        [i for i, unit in enumerate(units) if all(arrives.get(p, 1) <= r < leaves.get(p, rounds + 1) for p in unit)]
        for r in range(1, rounds + 1)
    ]
    played_units = [_as_units(tables, number, partnerships) for tables in played]
    out = sit_outs(present, played_units, partnerships, size, odd)
    first = len(played)
    # A round played is as it was played: its tables, even one seated with a player who was
    # not to play it (a table written by hand, an older server), whose count fits no rule.
    sizes = [
        [len(table) for table in played_units[r]]
        if r < first
        else unit_sizes(len(present[r]) - len(out[r]), partnerships, size, odd)
        for r in range(rounds)
    ]
    candidates = _starts(units, partnerships, present, out, sizes, played_units, previous, number, seed, size)
    fair = partnerships == ALONE and size == 4
    if fair:
        candidates = [(where, _share_odd_tables(played_units, rest, len(units))) for where, rest in candidates]
    weight = PARTNER_WEIGHT if partnerships == ROTATE else 0
    source, start = min(candidates, key=lambda c: Annealer(len(units), played_units + c[1], first, weight).cost)
    annealer = Annealer(len(units), played_units + start, first, weight, seed, fair_sizes=fair)
    target = least_cost(played_units + start, len(units))
    if annealer.cost > target and first < rounds:
        searched = annealer.run(seconds, target)[first:]
        # The search lowers its cost; a plan is judged by the most times two meet, then by its
        # repeats, so it must beat its start on those too.
        if judged(played_units + searched, partnerships) < judged(played_units + start, partnerships):
            start = searched
            source = f"simulated annealing from {source} ({time.monotonic() - began:.1f} s)"
    seated = seat_orders(played, start, units, partnerships)
    named_out = [
        [name for i in out_r for name in units[i]]
        + [name for name in lone if arrives.get(name, 1) <= r + 1 < leaves.get(name, rounds + 1)]
        for r, out_r in enumerate(out)
    ]
    return Plan(seated, named_out, source, quality(seated, partnerships, len(units)))


def plan_with_choice(
    players: Sequence[str],
    rounds: int,
    partnerships: str = ALONE,
    *,
    played: Sequence[Sequence[Sequence[str]]] = (),
    arrives: Mapping[str, int] | None = None,
    leaves: Mapping[str, int] | None = None,
    previous: Sequence[Sequence[Sequence[str]]] = (),
    size: int = 4,
    odd: str = USUAL,
    seed: int = 0,
    seconds: float = SECONDS,
) -> Plan:
    """``plan_event``'s plan and, while no round is played, how the other choice of tables of
    three or five would do (``Plan.instead``), for the players of the first round: the director
    chooses before the event starts. Each search has ``seconds``."""
    plan = plan_event(
        players,
        rounds,
        partnerships,
        played=played,
        arrives=arrives,
        leaves=leaves,
        previous=previous,
        size=size,
        odd=odd,
        seed=seed,
        seconds=seconds,
    )
    if played:
        return plan
    first = sum(len(table) for table in plan.rounds[0]) if plan.rounds else 0
    other = other_odd(first, partnerships, size, odd) if first >= 2 else None
    if other is None:
        return plan
    instead = plan_event(
        players, rounds, partnerships, arrives=arrives, leaves=leaves, size=size, odd=other, seed=seed, seconds=seconds
    )
    return replace(plan, instead=OddChoice(other, instead.quality))


def _units(
    players: Sequence[str], partnerships: str, played: Sequence[Sequence[Sequence[str]]], arrives: Mapping[str, int]
) -> tuple[list[tuple[str, ...]], list[str]]:
    """Who is seated together as one: a player, or with fixed partners a pair; and with fixed
    partners, a late player who has no partner yet (the last to arrive of an odd number), who
    sits out until one is added. An event listed from the start with an odd number is refused."""
    if partnerships != FIXED:
        return [(player,) for player in players], []
    pairs: list[tuple[str, ...]] = []
    paired: set[str] = set()
    for tables in played:
        for table in tables:
            for pair in partners_opposite(table):
                if not paired & set(pair):
                    pairs.append(tuple(pair))
                    paired.update(pair)
    rest = [player for player in players if player not in paired]
    lone: list[str] = []
    if len(rest) % 2:
        latest = max(rest, key=lambda player: (arrives.get(player, 1), rest.index(player)))
        if arrives.get(latest, 1) == 1:
            raise SeatingError("fixed partnerships need an even number of players", "players")
        lone = [latest]
        rest.remove(latest)
    return pairs + [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)], lone


def _as_units(
    tables: Sequence[Sequence[str]], number: Mapping[tuple[str, ...], int], partnerships: str
) -> list[list[int]]:
    if partnerships == FIXED:
        lookup = {name: index for unit, index in number.items() for name in unit}
        return [[lookup[table[0]], lookup[table[1]]] for table in tables]
    return [[number[(name,)] for name in table] for table in tables]


def _starts(
    units: list[tuple[str, ...]],
    partnerships: str,
    present: list[list[int]],
    out: list[list[int]],
    sizes: list[list[int]],
    played: list[list[list[int]]],
    previous: Sequence[Sequence[Sequence[str]]],
    number: Mapping[tuple[str, ...], int],
    seed: int,
    size: int,
) -> list[tuple[str, list[list[list[int]]]]]:
    """Where the rounds still to play may start from, before the search: (where from, rounds).

    The previous plan, a stored schedule (or one for a few more players, without them) or a
    round robin; unless one of those has no more repeats than the bound, also the
    round-by-round seating (a random one for big fields), so a plan is never worse than it.
    """
    first, rounds = len(played), len(present)
    playing = [sorted(set(present[r]) - set(out[r])) for r in range(rounds)]
    found: list[tuple[str, list[list[list[int]]]]] = []
    if previous:
        hints = [_as_hint(previous[r], number) if r < len(previous) else [] for r in range(first, rounds)]
        fitted = [_fit(hints[i], playing[first + i], sizes[first + i]) for i in range(rounds - first)]
        found.append(("the previous plan", fitted))
    elif not played and all(len(playing[r]) == len(units) for r in range(rounds)):
        if partnerships == FIXED and len(units) - 1 >= rounds:
            matches = round_robin(len(units))[:rounds]
            found.append(("a round robin of partnerships (circle method)", [[list(m) for m in r] for r in matches]))
        fours = sizes[0] == [4] * (len(units) // 4)
        for kind in (WHIST, TABLES) if partnerships == ROTATE else (TABLES,):
            stored = schedule_for(len(units), rounds, kind)
            if stored is not None and partnerships != FIXED and fours:
                found.append(
                    (f"the stored schedule: {stored.name}", [[t[:] for t in r] for r in stored.rounds[:rounds]])
                )
            shorter = schedule_for(len(units), 1, kind)
            if stored is None and shorter is not None and partnerships != FIXED and fours:
                # More rounds than the schedule has: its rounds, then round by round for the rest.
                prefix = [[t[:] for t in r] for r in shorter.rounds]
                rest = _round_by_round(units, partnerships, playing, prefix, sizes, seed, size)
                found.append((f"the stored schedule: {shorter.name}, then round by round", prefix + rest))
        if partnerships == ALONE and size == 4:  # a bigger stored schedule without its last players: 3s
            for more in (1, 2, 3):
                bigger = schedule_for(len(units) + more, rounds, TABLES)
                if bigger is not None:
                    fitted = _fairest_rounds(bigger.rounds, rounds, len(units), more, playing, sizes, seed)
                    found.append((f"the stored schedule: {bigger.name}, without {more} of its players", fitted))
    perfect = [
        c
        for c in found
        if judged(played + c[1], partnerships)[1:3]
        == (most_times_bound(played + c[1], len(units)), repeats_bound(played + c[1], len(units)))
    ]
    if perfect:
        return perfect
    if len(units) > ROUND_BY_ROUND_MOST:
        rng = random.Random(seed)
        shuffled = [rng.sample(playing[r], len(playing[r])) for r in range(first, rounds)]
        found.append(("a random seating", [_fit([], shuffled[i], sizes[first + i]) for i in range(rounds - first)]))
    else:
        found.append(
            ("round-by-round seating", _round_by_round(units, partnerships, playing, played, sizes, seed, size))
        )
    return found


def _share_odd_tables(
    played: list[list[list[int]]], planned: list[list[list[int]]], count: int
) -> list[list[list[int]]]:
    """``planned`` with its tables of three or five shared as sitting out is: in each round the
    seats at them go to those who have sat at one least, and among those to whom ``planned``
    gives them, so nobody sits at one twice before everyone playing has once. A round whose
    tables are all of one kind gives nobody a choice (and counts for everyone)."""
    at_odd = [0] * count
    for tables in played:
        for table in tables:
            if len(table) != 4:
                for unit in table:
                    at_odd[unit] += 1
    result: list[list[list[int]]] = []
    for r, tables in enumerate(planned):
        tables = [table[:] for table in tables]
        odd = [table for table in tables if len(table) != 4]
        if odd and len(odd) < len(tables):
            given = {unit for table in odd for unit in table}
            seated = sorted(
                (unit for table in tables for unit in table),
                key=lambda unit: (at_odd[unit], unit not in given, (unit - len(played) - r) % count),
            )
            chosen = set(seated[: len(given)])
            leaving = [(table, i) for table in odd for i, unit in enumerate(table) if unit not in chosen]
            coming = [
                (table, i) for table in tables if len(table) == 4 for i, unit in enumerate(table) if unit in chosen
            ]
            for (odd_table, i), (four, j) in zip(leaving, coming, strict=True):
                odd_table[i], four[j] = four[j], odd_table[i]
        for table in tables:
            if len(table) != 4:
                for unit in table:
                    at_odd[unit] += 1
        result.append(tables)
    return result


#: How many orders (and choices) of a stored schedule's rounds are tried when some of its players
#: are left out: whichever shares the tables of three most fairly with the fewest repeats is used.
ORDERS = 300


def _fairest_rounds(
    stored_rounds: Sequence[Sequence[Sequence[int]]],
    rounds: int,
    count: int,
    more: int,
    playing: list[list[int]],
    sizes: list[list[int]],
    seed: int,
) -> list[list[list[int]]]:
    """``rounds`` of a stored schedule for ``count + more`` players, without ``more`` of them.
    A resolvable design's rounds may come in any order and any of them may be left out: the
    order whose tables of three need the fewest changes to be shared fairly (nobody at one twice
    before everyone has once) is kept, so a schedule without repeats keeps as few as it can."""
    rng = random.Random(seed)
    orders = [list(range(rounds))]
    for _ in range(ORDERS if len(stored_rounds) > 1 else 0):
        orders.append(rng.sample(range(len(stored_rounds)), rounds))
    best: tuple[tuple[int, int, int, int], list[list[list[int]]]] | None = None
    for order in orders:
        kept = _without([stored_rounds[r] for r in order], count + more, more)
        fitted = [_fit(kept[r], playing[r], sizes[r]) for r in range(rounds)]
        this = judged(_share_odd_tables([], fitted, count), ALONE)
        if best is None or this < best[0]:
            best = (this, fitted)
        if this[2] == 0:
            break
    assert best is not None
    return best[1]


def _without(rounds: Sequence[Sequence[Sequence[int]]], count: int, more: int) -> list[list[list[int]]]:
    """``rounds`` of ``count`` players without ``more`` of them, the others numbered from 0: the
    ones that met each other least in these rounds (none, where some never met), so no two of the
    players left are seated as a table of the removed players' table-mates twice."""
    met: Counter[tuple[int, int]] = Counter()
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(sorted(table), 2):
                met[(a, b)] += 1
    removed = min(
        itertools.combinations(range(count - 1, -1, -1), more),
        key=lambda group: sum(met[(a, b)] for b, a in itertools.combinations(group, 2)),
    )
    number = {player: i for i, player in enumerate(p for p in range(count) if p not in removed)}
    return [[[number[p] for p in table if p in number] for table in tables] for tables in rounds]


def _as_hint(tables: Sequence[Sequence[str]], number: Mapping[tuple[str, ...], int]) -> list[list[int]]:
    """An earlier plan's round in today's units. With fixed partners the pairs may have changed
    since (a round seated by hand re-pairs them): a pair whose two players sat at two tables
    of the old round is hinted at the first only, so no unit is in two tables."""
    lookup = {name: index for unit, index in number.items() for name in unit}
    hint: list[list[int]] = []
    used: set[int] = set()
    for table in tables:
        units = []
        for name in table:
            unit = lookup.get(name)
            if unit is not None and unit not in used:
                units.append(unit)
                used.add(unit)
        hint.append(units)
    return hint


def _fit(hint: list[list[int]], playing: list[int], sizes: list[int]) -> list[list[int]]:
    """Tables of ``sizes`` for ``playing``, keeping as much of ``hint`` (an earlier plan) as fits."""
    here = set(playing)
    kept = sorted(([u for u in table if u in here] for table in hint), key=len, reverse=True)
    placed = {u for table in kept for u in table}
    spare = [u for u in playing if u not in placed]
    tables: list[list[int]] = []
    for want in sorted(sizes, reverse=True):
        table = kept.pop(0) if kept else []
        while len(table) > want:
            spare.append(table.pop())
        tables.append(table)
    spare += [u for table in kept for u in table]
    for table, want in zip(tables, sorted(sizes, reverse=True), strict=True):
        while len(table) < want:
            table.append(spare.pop())
    return tables


def _round_by_round(
    units: list[tuple[str, ...]],
    partnerships: str,
    playing: list[list[int]],
    played: list[list[list[int]]],
    sizes: list[list[int]],
    seed: int,
    size: int,
) -> list[list[list[int]]]:
    """Each round seated on its own after the ones before it, as events were seated before plans."""
    first = len(played)
    if partnerships == FIXED:
        rng = random.Random(seed)
        result = []
        for r in range(first, len(playing)):
            order = playing[r][:]
            rng.shuffle(order)
            result.append([order[i : i + 2] for i in range(0, len(order), 2)])
        return result
    names = [unit[0] for unit in units]
    number = {name: i for i, name in enumerate(names)}
    history: list[list[list[str]]] = [[[names[u] for u in table] for table in tables] for tables in played]
    result = []
    for r in range(first, len(playing)):
        tables = seat_round([names[u] for u in playing[r]], history, partnerships, seed=seed + r + 1, size=size)
        if sorted(map(len, tables)) != sorted(sizes[r]):
            tables = [[names[u] for u in t] for t in _fit([], playing[r], sizes[r])]
        history.append(tables)
        result.append([[number[name] for name in table] for table in tables])
    return result
