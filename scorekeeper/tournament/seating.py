"""Seating a round of an event so that players meet as many different opponents as possible.

Pure: names in, tables (seats in clockwise order) out. Partnerships sit opposite, as the
scoring engine's ``partners_opposite`` says.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from ..scoring import Refusal
from ..scoring.game import partners_opposite, seated_opposite
from ..scoring.text import NAME_MAX_LENGTH as NAME_MAX_LENGTH  # every name's longest, kept where events read it
from ..scoring.text import name_key as name_key  # one key for every name, kept where events read it
from ..scoring.text import text_fault

ALONE, FIXED, ROTATE = "none", "fixed", "rotate"
PARTNERSHIP_MODES = (ALONE, FIXED, ROTATE)
TRIES = 400
#: The most players an event seats: a generous card club's evening (75 tables of four); a bigger
#: field is refused where its players are listed, so no page has to seat thousands.
MAX_EVENT_PLAYERS = 300


class SeatingError(Refusal):
    """The players cannot be seated as asked."""


#: A table is written with commas between its players ("Table 1: Ann, Bob, Cy, Di"), and the
#: new-event list with commas between a player's name, club and number.
COMMA_IN_NAME = "a name cannot hold a comma: the tables are written with commas between names"


def name_fault(name: str) -> str | None:
    """What no player's name may hold, in words (lower case, no full stop), or None: a control
    character (a tab, a NUL, a line break: no page, sheet or table line shows it), or a comma.

    One check for every way a name comes into an event: the new-event list, a late player and
    ``scorekeeper seat --players-file``. Its length is each caller's own check.
    """
    control = control_fault(name)
    if control is not None:
        return control
    if "," in name:
        return COMMA_IN_NAME
    return None


def control_fault(name: str) -> str | None:
    """What makes a name unreadable, in words, or None: the one rule for every text that comes in
    (``scoring.text.text_fault``: a lone surrogate, a control or invisible character, nothing
    visible). What no player's name may hold, an event's or a single game's."""
    return text_fault(name, "a name")


#: What takes up the players a field of tables of four leaves over: the usual mix (a five for
#: one over, threes for two or three over), tables of three, or tables of five.
USUAL, THREES, FIVES = "usual", "threes", "fives"
ODD_TABLES = (USUAL, THREES, FIVES)


def table_sizes(count: int, partnerships: str = ALONE, size: int = 4, odd: str = USUAL) -> list[int]:
    """Tables of four where possible; alone, a five or threes take up the rest (``odd``: as
    usual, threes, or fives where the count allows them, else as usual).
    A game for exactly ``size`` players (Hollywood Eights' two) seats only tables of that size."""
    if odd not in ODD_TABLES:
        raise SeatingError(f"the tables beside the fours must be one of {', '.join(ODD_TABLES)}, not {odd}", "odd")
    if size != 4:
        if count < size or count % size:
            raise SeatingError(f"tables of {size}: the number of players must be a multiple of {size}, not {count}")
        return [size] * (count // size)
    if partnerships != ALONE:
        if count < 4 or count % 4:
            raise SeatingError(f"partnership tables need a multiple of 4 players, not {count}")
        return [4] * (count // 4)
    if count < 2:
        raise SeatingError("an event needs at least two players")
    if count <= 5:
        return [count]
    fours, rest = divmod(count, 4)
    if odd == THREES and rest and count >= 3 * (4 - rest):
        return [4] * (fours - 3 + rest) + [3] * (4 - rest)
    if odd == FIVES and rest and count >= 5 * rest:
        return [4] * (fours - rest) + [5] * rest
    return {0: [4] * fours, 1: [4] * (fours - 1) + [5], 2: [4] * (fours - 1) + [3, 3], 3: [4] * fours + [3]}[rest]


def meetings(
    rounds: Sequence[Sequence[Sequence[str]]], partnerships: str = ALONE
) -> tuple[Counter[frozenset[str]], Counter[frozenset[str]]]:
    """How often each pair of players met as opponents, and as partners, in earlier rounds."""
    opponents: Counter[frozenset[str]] = Counter()
    partners: Counter[frozenset[str]] = Counter()
    for tables in rounds:
        for table in tables:
            teams = _teams(table, partnerships)
            for a, b in combinations(table, 2):
                pair = frozenset((a, b))
                if any(a in team and b in team for team in teams):
                    partners[pair] += 1
                else:
                    opponents[pair] += 1
    return opponents, partners


def seat_round(
    players: Sequence[str],
    previous: Sequence[Sequence[Sequence[str]]] = (),
    partnerships: str = ALONE,
    seed: int = 0,
    size: int = 4,
) -> list[list[str]]:
    """The tables of the next round: fewest repeated opponents (and, rotating, repeated partners)."""
    if partnerships not in PARTNERSHIP_MODES:
        raise SeatingError(f"partnerships must be one of {', '.join(PARTNERSHIP_MODES)}")
    if len(set(players)) != len(players):
        raise SeatingError("two players have the same name")
    sizes = table_sizes(len(players), partnerships, size)
    opponents, partners = meetings(previous, partnerships)
    rng = random.Random(seed)
    fixed_pairs = _fixed_pairs(players, previous) if partnerships == FIXED else []
    best: tuple[int, list[list[str]]] | None = None
    for _ in range(TRIES):
        if partnerships == FIXED:
            units = fixed_pairs[:]
            rng.shuffle(units)
            tables = [seated_opposite(a, b) for a, b in zip(units[::2], units[1::2], strict=True)]
        else:
            order = list(players)
            rng.shuffle(order)
            tables, start = [], 0
            for size in sizes:
                tables.append(order[start : start + size])
                start += size
            if partnerships == ROTATE:
                tables = [_best_split(table, partners) for table in tables]
        cost = sum(_cost(table, partnerships, opponents, partners) for table in tables)
        if best is None or cost < best[0]:
            best = (cost, tables)
        if cost == 0:
            break
    assert best is not None
    if partnerships == FIXED:
        return best[1]
    return _improve_by_swaps(best[1], partnerships, opponents, partners)


#: How far down the standings a table looks for a player its players have not met yet.
STANDINGS_WINDOW = 4


def seat_by_standings(
    ranked: Sequence[str], previous: Sequence[Sequence[Sequence[str]]] = (), sizes: Sequence[int] | None = None
) -> list[list[str]]:
    """The next round seated by the standings so far, as Swiss and "top table" events do: the
    leaders together at table 1, the next at table 2, and so on (``ranked``: best first; tables of
    ``sizes``, the fours first). Repeats are still avoided as far as they can be: each seat goes
    to the best-placed player left, looking no more than ``STANDINGS_WINDOW`` places further
    down, who would meet the table's players the fewest times at most (no pair a third time
    where another can take the seat: what a plan is ranked by first), then who has met the
    fewest of the table so far, then the standings decide. Seats in standings order: the
    leader deals the first hand."""
    sizes = sorted(sizes if sizes is not None else table_sizes(len(ranked)), key=lambda size: (size != 4, -size))
    if sum(sizes) != len(ranked):
        raise SeatingError(f"{len(ranked)} players do not fill tables of {', '.join(map(str, sizes))}")
    met, _ = meetings(previous)
    left = list(ranked)
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            window = left[: STANDINGS_WINDOW + 1]
            chosen = min(window, key=lambda player: _standing_cost(player, table, window, met))
            left.remove(chosen)
            table.append(chosen)
        tables.append(table)
    return tables


def meeting_again(
    tables: Sequence[Sequence[str]], previous: Sequence[Sequence[Sequence[str]]], more_than: int = 2
) -> list[tuple[str, str, int]]:
    """The pairs ``tables`` would seat together for more than ``more_than`` times in all (with
    ``previous`` rounds), each with that count, in seating order: what a director is warned of
    before seating a round proposed by the standings."""
    met, _ = meetings(previous)
    again = []
    for table in tables:
        for a, b in combinations(table, 2):
            times = met[frozenset((a, b))] + 1
            if times > more_than:
                again.append((a, b, times))
    return again


def _standing_cost(
    player: str, table: list[str], window: list[str], met: Counter[frozenset[str]]
) -> tuple[int, int, int]:
    """Who takes the next seat at ``table``: who has met its players the fewest times at most,
    then the fewest of them, then the best placed."""
    times = [met[frozenset((player, other))] for other in table]
    return max(times), sum(1 for t in times if t), window.index(player)


def _improve_by_swaps(
    tables: list[list[str]], partnerships: str, opponents: Counter[frozenset[str]], partners: Counter[frozenset[str]]
) -> list[list[str]]:
    """Swap players between tables while that lowers the cost (bounded passes)."""

    def cost(table: list[str]) -> int:
        return _cost(table, partnerships, opponents, partners)

    def arranged(table: list[str]) -> list[str]:
        return _best_split(table, partners) if partnerships == ROTATE and len(table) == 4 else table

    tables = [table[:] for table in tables]
    for _ in range(20):
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            for a in range(len(tables[i])):
                for b in range(len(tables[j])):
                    first, second = tables[i][:], tables[j][:]
                    first[a], second[b] = second[b], first[a]
                    first, second = arranged(first), arranged(second)
                    if cost(first) + cost(second) < cost(tables[i]) + cost(tables[j]):
                        tables[i], tables[j] = first, second
                        improved = True
        if not improved:
            break
    return tables


def _teams(table: Sequence[str], partnerships: str) -> list[set[str]]:
    if partnerships == ALONE or len(table) != 4:
        return [{player} for player in table]
    pair, other = partners_opposite(table)
    return [set(pair), set(other)]


def _cost(
    table: list[str], partnerships: str, opponents: Counter[frozenset[str]], partners: Counter[frozenset[str]]
) -> int:
    teams = _teams(table, partnerships)
    cost = 0
    for a, b in combinations(table, 2):
        pair = frozenset((a, b))
        together = any(a in team and b in team for team in teams)
        cost += 2 * partners[pair] if together else opponents[pair]
    return cost


def _best_split(table: list[str], partners: Counter[frozenset[str]]) -> list[str]:
    """Of the three ways to pair four players, the one that repeats the fewest partnerships."""
    a, b, c, d = table
    pairings = [((a, c), (b, d)), ((a, b), (c, d)), ((a, d), (b, c))]
    pair, other = min(pairings, key=lambda p: partners[frozenset(p[0])] + partners[frozenset(p[1])])
    return seated_opposite(pair, other)


def _fixed_pairs(players: Sequence[str], previous: Sequence[Sequence[Sequence[str]]]) -> list[tuple[str, str]]:
    """Fixed partnerships: as first seated, or else as listed (1st with 2nd, 3rd with 4th, ...)."""
    if previous:
        teams = [partners_opposite(table) for table in previous[0]]
        return [first for first, _ in teams] + [second for _, second in teams]
    return [(players[i], players[i + 1]) for i in range(0, len(players), 2)]


#: The optional "Table 3:" before a table's names (a name may hold a colon of its own).
TABLE_LABEL = re.compile(r"^\s*table\s*\d+\s*:", re.IGNORECASE)


def parse_tables(
    text: str, players: Sequence[str], partnerships: str, away: Mapping[str, str] | None = None
) -> list[list[str]]:
    """Tables written one a line ("Ann, Bob, Cy, Di", optionally after "Table 1:"), checked.

    Every name must be a player of the event, playing this round (``away`` names those who do
    not, with why: "is withdrawn from round 2"), and seated at most once; partnership tables
    seat four. Whether the rule set takes a table of that size is the game's own check. A name
    may be typed in any case and with any spaces between its words: it is seated as listed.
    """
    known = {name_key(name): name for name in players}
    seated: set[str] = set()
    tables = []
    away = away or {}
    for number, line in enumerate(text.splitlines(), start=1):
        typed = [name.strip() for name in TABLE_LABEL.sub("", line).split(",") if name.strip()]
        if not typed:
            continue
        seats = []
        for written in typed:
            name = known.get(name_key(written))
            if name is None:
                raise SeatingError(f"Line {number}: {written} is not a player of this event.")
            if name in away:
                raise SeatingError(f"Line {number}: {name} {away[name]}.")
            seats.append(name)
            if name in seated:
                raise SeatingError(f"Line {number}: {name} is seated twice.")
            seated.add(name)
        if partnerships != ALONE and len(seats) != 4:
            raise SeatingError(f"Line {number}: partnership tables seat four.")
        tables.append(seats)
    if not tables:
        raise SeatingError("Write at least one table.")
    return tables


def partners_of(seats: Sequence[str], partnerships: str) -> tuple[tuple[str, ...], ...]:
    """The partnerships of a table as the event plays them: none, or partners opposite."""
    if partnerships == ALONE:
        return ()
    return partners_opposite(seats)
