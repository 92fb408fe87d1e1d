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

A **short table** (locked part-way: some hands complete, the game not finished) is compared
like with like by its treatment (``SHORT_TREATMENTS``), kept with its lock:
- ``prorated`` (the default, whatever locked it): each side's points scaled to the whole game
  by the cards dealt, ``start + points × cards of the game ÷ cards dealt so far``, rounded to
  the nearest whole point (halves away from zero). Crates deals 8 down to 1 and back to 8:
  71 cards a player; after 6 hands 33, so 168 points count as 168 × 71 ÷ 33 = 361.4 → 361.
  Its places at the table follow the prorated totals. A game with no fixed length (played to
  a score) cannot be prorated: its short table counts as missed.
- ``missed``: the table counts for nobody; its players missed the round (the event's rule).
- ``adjusted``: every player of the table is given the round's average (the mean total of
  the players at its tables that finished), average-plus or average-minus (a tenth better
  or worse: × 9/10 or × 11/10 where the lowest total wins), with the director's reason; and
  half, six tenths or four tenths of a table's placement points. With no finished table in
  the round to average, it counts as missed.

A **withdrawn** player's rounds after they left are missed rounds like any other, counted by
the event's rule; the event says whether they rank with the rest (the default) or below.

A place among the rest needs **half the complete rounds played** (or more): a player who
played fewer (withdrew early, arrived late) is placed after everyone who did, with the
reason under the name ("played 1 of 5 rounds: fewer than half, placed after those who
played half or more"). Otherwise one lucky round, counted five times by the average rule
(or, by the zero rule, four rounds of nothing where the lowest total wins), would win.
A director's **penalty** (``Penalty``: points added to a player's total in a round, with its
reason) counts once its round is complete, after the missed-round rule (never averaged).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..scoring import GameScore

TOTAL, PLACEMENT = "total", "placement"
SCORING_MODES = (TOTAL, PLACEMENT)
AVERAGE, ZERO = "average", "zero"
SIT_OUT_RULES = (AVERAGE, ZERO)
PRORATED, MISSED, ADJUSTED = "prorated", "missed", "adjusted"
#: What a table locked part-way counts as; the first is the default, which never rewards stopping.
SHORT_TREATMENTS = (PRORATED, MISSED, ADJUSTED)
AVERAGE_PLUS, AVERAGE_MINUS = "average-plus", "average-minus"
#: An adjusted table's level: (its share of a table's placement points, its factor on the average
#: total where the lowest wins, where the highest wins).
ADJUSTMENTS: dict[str, tuple[Fraction, Fraction, Fraction]] = {
    AVERAGE_PLUS: (Fraction(6, 10), Fraction(9, 10), Fraction(11, 10)),
    AVERAGE: (Fraction(1, 2), Fraction(1), Fraction(1)),
    AVERAGE_MINUS: (Fraction(4, 10), Fraction(11, 10), Fraction(9, 10)),
}
#: What an adjusted table with nothing to average falls back to, in every output's words.
NOTHING_TO_AVERAGE = "no finished table to average: counted as missed"
#: Whether withdrawn players rank with everyone else (the default) or below those still playing.
WITH_THE_REST, BELOW = "with-the-rest", "below"
WITHDRAWN_RANKINGS = (WITH_THE_REST, BELOW)
#: Why a withdrawn player stands after the rest, under the name, where the event ranks them below.
WITHDRAWN_BELOW = "withdrawn: this event places withdrawn players after the rest, whatever their total"


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
    #: Closed by the director (locked) before its game finished: it counts by its ``treatment``.
    closed: bool = False
    #: How it counts if closed part-way (``SHORT_TREATMENTS``), the adjusted level, the director's reason.
    treatment: str = PRORATED
    level: str = AVERAGE
    reason: str = ""

    @property
    def final(self) -> bool:
        return self.score.finished or self.closed

    @property
    def short(self) -> bool:
        """Closed (locked) with some hands complete but its game not finished."""
        return self.closed and not self.score.finished and bool(self.score.hands)

    def locked_after(self) -> str:
        """ "locked after hand 6 of 15", for the standings, sheets and history."""
        most = self.score.game.rules.max_hands()
        return f"locked after hand {len(self.score.hands)}{f' of {most}' if most else ''}"

    def counts_as(self, averaged: bool = True) -> str:
        """How a table locked unfinished counts, in the words every output uses: "prorated",
        "counted as missed", "adjusted (average-plus)"; what it falls back to is said with it
        ("adjusted (average-plus) — no finished table to average: counted as missed").
        ``averaged``: whether its round has a finished table to average. "" for a table counted
        as played."""
        if not self.closed or self.score.finished:
            return ""
        if not self.score.hands or self.treatment == MISSED:
            return "counted as missed"
        if self.treatment == ADJUSTED:
            named = f"adjusted ({self.level})"
            return named if averaged else f"{named} — {NOTHING_TO_AVERAGE}"
        if prorated(self.score) is None:
            return "prorated — a game with no fixed length has nothing to scale to: counted as missed"
        return "prorated"

    def lock_words(self, averaged: bool = True) -> str:
        """ "locked after hand 6 of 15, prorated", "locked before hand 1: counted as missed": the
        lock and how it counts, for the standings, the table's progress, sheets and exports."""
        if not self.closed or self.score.finished:
            return ""
        if not self.score.hands:
            return f"locked before hand 1: {self.counts_as(averaged)}"
        return f"{self.locked_after()}, {self.counts_as(averaged)}"


def penalty_kind(points: int, lowest_wins: bool = True) -> str:
    """What a director's points are called: a "penalty" when they count against the player (above
    0 where the lowest total wins, below 0 where the highest wins), else an "adjustment" in the
    player's favour."""
    return "penalty" if (points > 0) == lowest_wins else "adjustment"


@dataclass(frozen=True)
class Penalty:
    """A director's penalty or adjustment: ``points`` added to ``player``'s total in ``round``."""

    round: int
    player: str
    points: int
    reason: str
    #: The table it was given at (0: given to the player alone).
    table: int = 0

    def words(self, lowest_wins: bool = True) -> str:
        """ "penalty +25 in round 2, table 1: a revoke", "adjustment -10 in round 3: …"."""
        where = f"round {self.round}{f', table {self.table}' if self.table else ''}"
        return f"{penalty_kind(self.points, lowest_wins)} {self.points:+d} in {where}: {self.reason}"


def round_half_away(value: Fraction) -> int:
    """The nearest whole number, halves away from zero (168 × 71 ÷ 33 = 361.45… → 361)."""
    whole = int(abs(value) + Fraction(1, 2))
    return whole if value >= 0 else -whole


def cards_share(score: GameScore) -> tuple[int, int] | None:
    """(cards a player is dealt in the whole game, cards dealt in its complete hands); None for a
    game with no fixed length or no complete hand."""
    rules, most = score.game.rules, score.game.rules.max_hands()
    if not most or not score.hands:
        return None
    seats = len(score.game.players)
    full = sum(rules.cards_dealt(number, seats) for number in range(1, most + 1))
    return full, sum(rules.cards_dealt(number, seats) for number in range(1, len(score.hands) + 1))


def prorated(score: GameScore) -> dict[str, tuple[int, str]] | None:
    """Each side's total scaled to the whole game by the cards dealt, with how it was reached;
    None for a game with no fixed length (nothing to scale to)."""
    share = cards_share(score)
    if share is None:
        return None
    full, dealt = share
    out = {}
    for side in score.sides:
        points = side.total - side.start
        total = side.start + round_half_away(Fraction(points * full, dealt))
        start = f"{side.start} + " if side.start else ""
        out[side.side.name] = (total, f"{start}{points} × {full} ÷ {dealt} cards = {total}")
    return out


def tenths(value: float) -> float:
    """A number to one place of decimals, halves away from zero: how placement points are shown
    and exported (two rounds' 5 points averaged over three missed: 8.333… → 8.3)."""
    return float(Fraction(round_half_away(Fraction(value) * 10), 10))


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
    #: The round the player withdrew from, or None.
    withdrawn_from: int | None = None
    #: A place while no round is complete yet, from the player's finished table alone (``shown.py``).
    provisional: bool = False
    #: How the numbers were reached where a table did not count as played: "round 3: locked
    #: after hand 6 of 15, prorated: 168 × 71 ÷ 33 cards = 361"; penalties with their reasons.
    notes: list[str] = field(default_factory=list)
    #: Points of the director's penalties counted in ``total``.
    penalties: int = 0
    #: Placed after the rest: withdrawn in an event that ranks them below, or fewer than half
    #: the complete rounds played; and why in a few words ("played 1 of 5 rounds: placed after
    #: the rest"), said beside the name on the wall, which shows no notes.
    below: bool = False
    placed_after: str = ""

    @property
    def withdrew_after(self) -> str:
        """ "withdrew after round 2" ("withdrew before round 1"), "" for a player still playing."""
        if self.withdrawn_from is None:
            return ""
        if self.withdrawn_from <= 1:
            return "withdrew before round 1"
        return f"withdrew after round {self.withdrawn_from - 1}"

    @property
    def placement_shown(self) -> str:
        """Placement points as every output shows them: one place of decimals, ".0" dropped
        ("8.3", "6", "2.5"); the ranking itself compares the exact points."""
        return f"{tenths(self.placement):g}"

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
    withdrawn_ranked: str = WITH_THE_REST,
    penalties: Sequence[Penalty] = (),
) -> list[PlayerStanding]:
    """Every player with their place, over the complete rounds (only ``round_`` if given).

    ``withdrawn[name]`` is the round a player withdrew from: the complete rounds from it on
    are missed rounds, counted by ``sit_out``; ``withdrawn_ranked`` says whether they rank
    with the rest or below everyone still playing. A player without a complete round yet
    (arrived late) has no place yet (0) and is listed last. ``penalties`` are added to totals.
    """
    if mode not in SCORING_MODES:
        raise ValueError(f"scoring must be one of {', '.join(SCORING_MODES)}")
    if sit_out not in SIT_OUT_RULES:
        raise ValueError(f"a sit-out counts as one of {', '.join(SIT_OUT_RULES)}")
    if withdrawn_ranked not in WITHDRAWN_RANKINGS:
        raise ValueError(f"withdrawn players rank one of {', '.join(WITHDRAWN_RANKINGS)}")
    table_of = {name: PlayerStanding(name) for name in players}
    chosen = [result for result in results if round_ is None or result.round == round_]
    complete = set(complete_rounds(chosen))
    averages = round_averages(chosen)
    seated: dict[int, set[str]] = {}
    for result in chosen:
        counted = _counted(result, averages.get(result.round), lowest_wins)
        if result.final and not result.score.finished and counted is None:
            # Closed by the director before any hand was complete, or short and counted as
            # missed: nobody played it. Its players missed the round (the sit-out rule), rather
            # than scoring what they had, which in Crates rewards stopping.
            if result.round in complete:
                words = result.lock_words(averaged=result.round in averages)
                for member in (m for side in result.score.sides for m in side.side.members):
                    row = table_of.setdefault(member, PlayerStanding(member))
                    row.notes.append(f"round {result.round}: {words}")
            continue
        for side in result.score.sides:
            total, points, win, how = counted[side.side.name] if counted else _as_played(result, side.side.name)
            for member in side.side.members:
                row = table_of.setdefault(member, PlayerStanding(member))
                seated.setdefault(result.round, set()).add(member)
                row.hands += len(result.score.hands)
                if result.round not in complete:
                    row.in_progress += 0 if result.final else 1
                    # Two rounds may be under way at once (the next seated early): each is shown.
                    row.playing = "; ".join(filter(None, (row.playing, _playing(result, side.total, total))))
                    continue
                row.total += total
                row.placement += points
                row.wins += win
                row.tables += 1
                row.by_round[result.round] = row.by_round.get(result.round, 0) + total
                if how:
                    row.notes.append(f"round {result.round}: {how}")
    for row in table_of.values():
        row.withdrawn_from = (withdrawn or {}).get(row.name)
        row.below = row.withdrawn_from is not None and withdrawn_ranked == BELOW
        if row.below and row.ranked:
            row.placed_after = "withdrawn: placed after the rest, as the event ranks them"
            row.notes.append(WITHDRAWN_BELOW)
        row.missed = sum(1 for n in complete if row.name not in seated.get(n, set()))
        if row.tables and row.tables * 2 < len(complete):
            row.below = True
            row.placed_after = f"played {row.tables} of {len(complete)} rounds: placed after the rest"
            row.notes.append(too_few_rounds(row.tables, len(complete)))
        if row.missed and row.tables and sit_out == AVERAGE:
            added = round_half_away(Fraction(row.total * row.missed, row.tables))
            row.notes.append(_averaged(row, added))
            row.total += added
            row.placement += row.placement * row.missed / row.tables
    for penalty in penalties:
        if penalty.round in complete and penalty.player in table_of:
            row = table_of[penalty.player]
            row.total += penalty.points
            row.penalties += penalty.points
            row.notes.append(penalty.words(lowest_wins))
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


def _averaged(row: PlayerStanding, added: int) -> str:
    """How missed rounds were counted by the average rule, in every output's words: "3 missed
    rounds at the average of the 2 played: 987 × 3 ÷ 2 = 1481 (1480.5, halves away from zero)"."""
    rounds = f"{row.missed} missed round{'s' if row.missed != 1 else ''}"
    exact = Fraction(row.total * row.missed, row.tables)
    shown = f" ({float(exact):g}, halves away from zero)" if exact.denominator == 2 else ""
    return f"{rounds} at the average of the {row.tables} played: {row.total} × {row.missed} ÷ {row.tables} = {added}{shown}"


def too_few_rounds(played: int, complete: int) -> str:
    """Why a player is placed after the rest, in every output's words."""
    return f"played {played} of {complete} rounds: fewer than half, placed after those who played half or more"


def complete_rounds(results: Sequence[TableResult], round_: int | None = None) -> list[int]:
    """The rounds (of ``round_``, or all) whose every table has finished: those the ranking counts."""
    chosen = [result for result in results if round_ is None or result.round == round_]
    return sorted({r.round for r in chosen} - {r.round for r in chosen if not r.final})


Counted = dict[str, tuple[int, float, int, str]]


def _as_played(result: TableResult, side: str) -> tuple[int, float, int, str]:
    """A side's total, placement points, win and note (none) at a table counted as played."""
    places = {entry.side.name: place for place, entry in result.score.standings()}
    mine = places[side]
    worse = sum(1 for other in places.values() if other > mine)
    tied = sum(1 for other in places.values() if other == mine) - 1
    return result.score.side(side).total, worse + tied / 2, 1 if mine == 1 and tied == 0 else 0, ""


def round_averages(results: Sequence[TableResult]) -> dict[int, Fraction]:
    """Each round's mean player total at its tables that finished: what an adjusted table is given."""
    totals: dict[int, list[int]] = {}
    for result in results:
        if result.score.finished:
            for side in result.score.sides:
                totals.setdefault(result.round, []).extend([side.total] * len(side.side.members))
    return {number: Fraction(sum(values), len(values)) for number, values in totals.items() if values}


def adjusted(result: TableResult, average: Fraction, lowest_wins: bool) -> tuple[int, str]:
    """The total an adjusted table gives each of its players, and how it was reached, in the
    words of the standings and the sheet: "locked after hand 6 of 15, adjusted (average: the
    round's average 368.2 → 368): a fire alarm"."""
    low, high = ADJUSTMENTS.get(result.level, ADJUSTMENTS[AVERAGE])[1:]
    total = round_half_away(average * (low if lowest_wins else high))
    why = f": {result.reason}" if result.reason else ""
    level = f"{result.level}: the round's average {round(float(average), 1):g} → {total}"
    return total, f"{result.locked_after()}, adjusted ({level}){why}"


def _counted(result: TableResult, average: Fraction | None, lowest_wins: bool) -> Counted | None:
    """How a closed table counts: {} as played (finished, or still playing); None for nobody
    (closed before hand 1, or short and counted as missed); else each side's total, placement
    points, win and how the number was reached."""
    if not result.closed or result.score.finished:
        return {}
    if not result.short or result.treatment == MISSED:
        return None
    sides = len(result.score.sides)
    if result.treatment == ADJUSTED:
        if average is None:
            return None
        total, how = adjusted(result, average, lowest_wins)
        share = ADJUSTMENTS.get(result.level, ADJUSTMENTS[AVERAGE])[0]
        return {side.side.name: (total, float(share * (sides - 1)), 0, how) for side in result.score.sides}
    scaled = prorated(result.score)
    if scaled is None:
        return None
    sign = 1 if lowest_wins else -1
    counted: Counted = {}
    for side in result.score.sides:
        total, how = scaled[side.side.name]
        others = [scaled[other.side.name][0] * sign for other in result.score.sides if other is not side]
        better = sum(1 for other in others if other < total * sign)
        worse = sum(1 for other in others if other > total * sign)
        tied = len(others) - better - worse
        counted[side.side.name] = (
            total,
            worse + tied / 2,
            int(better == 0 and tied == 0),
            f"{result.locked_after()}, prorated: {how}",
        )
    return counted


def _playing(result: TableResult, played: int, counted: int) -> str:
    """A player's table in a round not complete yet: "hand 7 of 15, 48 so far" while it plays
    (its raw total, said to be so far); once final, the total it counts, as the total column
    ranks it ("locked after hand 6 of 15, counts 904" for a short table prorated)."""
    where = f"round {result.round}, table {result.table}"
    if result.final:
        if result.score.finished:
            return f"{where}: finished, {counted}"
        return f"{where}: {result.locked_after()}, counts {counted}"
    most = result.score.game.rules.max_hands()
    return f"{where}: hand {len(result.score.hands) + 1}{f' of {most}' if most else ''}, {played} so far"


def _key(row: PlayerStanding, mode: str, sign: int) -> tuple[float, ...]:
    """Smaller is better; ``sign`` is -1 where the highest total wins. Players ranked first
    (withdrawn ones among them unless the event ranks them below), then those placed below
    (withdrawn where the event says so, or with fewer than half the rounds played), then
    those without a complete round."""
    order = (1 if row.below else 0) if row.ranked else 2
    if mode == TOTAL:
        return (order, sign * row.total, -row.placement, -row.wins)
    return (order, -row.placement, sign * row.total, -row.wins)
