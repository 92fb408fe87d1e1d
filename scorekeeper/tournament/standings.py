"""Event standings from every table's replayed game: per round and overall.

Two ways to rank, a setting of the event:
- ``total``: the lowest sum of a player's side totals over the rounds wins (Crates is won
  by the fewest points; in games where the highest total wins, the highest sum). Ties
  broken by more placement points, then more table wins.
- ``placement``: at each table a side earns a point for every side placed below it (as
  the game ranks them: totals, games won, outright wins) and half a point for every side
  tied with it; the most placement points win. Ties broken by the better total, then more
  table wins.
Players tied on every key share a place. In a partnership, both partners get the side's
total and points.

Like is compared with like: only **complete rounds** (every table of the round finished, or closed by the director)
count in the ranking. While a round is under way, each player's table in it is shown beside
the ranking (``playing``: hands played and the total so far, or finished), and counts
nothing yet. A complete round a player missed (sat out, arrived later, withdrawn) counts as
the event says (``SIT_OUT_RULES``): ``average``, the average of that player's complete rounds
(total and placement points; the default), or ``zero``, nothing at all (which in a game won
by the lowest total flatters whoever missed a round). A table the director closed before any
hand was complete counts for nobody: its players missed that round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..scoring import GameScore

TOTAL, PLACEMENT = "total", "placement"
SCORING_MODES = (TOTAL, PLACEMENT)
AVERAGE, ZERO = "average", "zero"
SIT_OUT_RULES = (AVERAGE, ZERO)


def tie_breaks(mode: str, lowest_wins: bool = True) -> str:
    """How a mode ranks, in words, for the standings pages."""
    best = "lowest" if lowest_wins else "highest"
    return {
        TOTAL: f"{best} total; ties: more placement points, then more table wins",
        PLACEMENT: f"most placement points; ties: {best} total, then more table wins",
    }[mode]


@dataclass(frozen=True)
class TableResult:
    round: int
    table: int
    score: GameScore
    #: Closed by the director (locked) before its game finished: its result counts as it stands.
    closed: bool = False

    @property
    def final(self) -> bool:
        return self.score.finished or self.closed


@dataclass
class PlayerStanding:
    name: str
    total: int = 0
    placement: float = 0.0
    wins: int = 0
    tables: int = 0
    in_progress: int = 0
    hands: int = 0
    by_round: dict[int, int] = field(default_factory=dict)
    place: int = 0
    #: Complete rounds this player missed, counted by the sit-out rule.
    missed: int = 0
    #: The player's table in a round not complete yet: "round 2, table 3: hand 7 of 15, 48 so far".
    playing: str = ""
    #: The round the player withdrew from (they rank below everyone still playing), or None.
    withdrawn_from: int | None = None
    #: A place while no round is complete yet, from the player's finished table alone (``shown.py``).
    provisional: bool = False

    @property
    def ranked(self) -> bool:
        """Whether the player has a place: not before they have played a complete round."""
        return self.tables > 0


def standings(
    results: Sequence[TableResult],
    players: Sequence[str],
    mode: str,
    round_: int | None = None,
    lowest_wins: bool = True,
    sit_out: str = AVERAGE,
    withdrawn: Mapping[str, int] | None = None,
) -> list[PlayerStanding]:
    """Every player with their place, over the complete rounds (only ``round_`` if given).

    ``withdrawn[name]`` is the round a player withdrew from: the rounds from it on are not
    theirs to count, and they rank below everyone still playing. A player without a complete
    round yet (arrived late) has no place yet (0) and is listed last.
    """
    if mode not in SCORING_MODES:
        raise ValueError(f"scoring must be one of {', '.join(SCORING_MODES)}")
    if sit_out not in SIT_OUT_RULES:
        raise ValueError(f"a sit-out counts as one of {', '.join(SIT_OUT_RULES)}")
    table_of = {name: PlayerStanding(name) for name in players}
    chosen = [result for result in results if round_ is None or result.round == round_]
    complete = set(complete_rounds(chosen))
    seated: dict[int, set[str]] = {}
    for result in chosen:
        if result.final and not result.score.finished and not result.score.hands:
            # Closed by the director before any hand was complete: nobody played it. Its
            # players missed the round (the sit-out rule), rather than scoring 0, the best total.
            continue
        places = {side.side.name: place for place, side in result.score.standings()}
        for side in result.score.sides:
            mine = places[side.side.name]
            worse = sum(1 for other in places.values() if other > mine)
            tied = sum(1 for other in places.values() if other == mine) - 1
            for member in side.side.members:
                row = table_of.setdefault(member, PlayerStanding(member))
                seated.setdefault(result.round, set()).add(member)
                row.hands += len(result.score.hands)
                if result.round not in complete:
                    row.in_progress += 0 if result.final else 1
                    # Two rounds may be under way at once (the next seated early): each is shown.
                    row.playing = "; ".join(filter(None, (row.playing, _playing(result, side.total))))
                    continue
                row.total += side.total
                row.placement += worse + tied / 2
                row.wins += 1 if mine == 1 and tied == 0 else 0
                row.tables += 1
                row.by_round[result.round] = row.by_round.get(result.round, 0) + side.total
    for row in table_of.values():
        row.withdrawn_from = (withdrawn or {}).get(row.name)
        gone = row.withdrawn_from or (max(complete, default=0) + 1)
        row.missed = sum(1 for n in complete if n < gone and row.name not in seated.get(n, set()))
        if row.missed and row.tables and sit_out == AVERAGE:
            row.total += round(row.total * row.missed / row.tables)
            row.placement += row.placement * row.missed / row.tables
    rows = list(table_of.values())
    sign = 1 if lowest_wins else -1
    rows.sort(key=lambda row: (*_key(row, mode, sign), row.name.casefold()))
    previous_key, place = None, 0
    for index, row in enumerate(rows, start=1):
        key = _key(row, mode, sign)
        if key != previous_key:
            place, previous_key = index, key
        row.place = place if row.ranked else 0
    return rows


def complete_rounds(results: Sequence[TableResult], round_: int | None = None) -> list[int]:
    """The rounds (of ``round_``, or all) whose every table has finished: those the ranking counts."""
    chosen = [result for result in results if round_ is None or result.round == round_]
    return sorted({r.round for r in chosen} - {r.round for r in chosen if not r.final})


def _playing(result: TableResult, total: int) -> str:
    where = f"round {result.round}, table {result.table}"
    if result.final:
        return f"{where}: {'finished' if result.score.finished else 'closed'}, {total}"
    most = result.score.game.rules.max_hands()
    return f"{where}: hand {len(result.score.hands) + 1}{f' of {most}' if most else ''}, {total} so far"


def _key(row: PlayerStanding, mode: str, sign: int) -> tuple[float, ...]:
    """Smaller is better; ``sign`` is -1 where the highest total wins. Players still in the
    event first, then those withdrawn, then those without a complete round."""
    order = (0 if row.ranked else 2) if row.withdrawn_from is None else (1 if row.ranked else 2)
    if mode == TOTAL:
        return (order, sign * row.total, -row.placement, -row.wins)
    return (order, -row.placement, sign * row.total, -row.wins)
