"""An event seen whole: every table's progress, standings, and the event's exports."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sqlite_utils

from ..gamelog import GameState
from ..scoring import GameRecord, GameScore, score_game
from ..tournament.shown import Stage, shown_standings, stage
from ..tournament.standings import (
    ADJUSTED,
    MISSED,
    PRORATED,
    PlayerStanding,
    TableResult,
    adjusted,
    cards_share,
    prorated,
    round_averages,
    standings,
    tenths,
    tie_breaks,
)
from .event_penalties import GivenPenalty, given_penalties, penalties
from .events import (
    BY_DIRECTOR,
    BY_TIME,
    Event,
    EventTable,
    event_players,
    event_tables,
    game_versions,
    get_event,
    table_filing,
    tables_named,
)
from .exchange import export_record, record_extra
from .games import load_state

EVENT_FORMAT = "scorekeeper-event/1"


@dataclass(frozen=True)
class TableProgress:
    table: EventTable
    state: GameState
    #: Whether the table's round has a finished table, whose average an adjusted table is given.
    averaged: bool = True
    #: That average (the mean player total at the round's finished tables), where ``progress`` knows it.
    average: Fraction | None = None

    @property
    def hands_done(self) -> int:
        return self.state.complete_hands

    @property
    def last_change(self) -> str:
        return self.state.entries[-1].created_at if self.state.entries else ""

    @property
    def status(self) -> str:
        """Where the table is, for the director's event page: the hand in play, or finished; a table
        the director locked says so, and after which hand its result stands (closed) if not finished."""
        if self.state.finished:
            return "finished, locked" if self.table.locked else "finished"
        most = self.state.game.rules.max_hands()
        of = f" of {most}" if most else ""
        if self.table.locked:
            return self.result.lock_words(self.averaged)
        return f"hand {self.hands_done + 1}{of}"

    @property
    def result(self) -> TableResult:
        """What the standings read of it: its score, whether it is closed, how it counts if short."""
        table = self.table
        return TableResult(
            table.round, table.number, self.final_score, table.locked, table.treatment, table.level, table.reason
        )

    @property
    def lock_line(self) -> str:
        """Who locked a table not finished, when, and how it counts, for its sheet (alone or in
        the booklet) and the published pages: "locked by the director after hand 6 of 15,
        prorated", "locked at time after hand 9 of 15, prorated", "locked by the director before
        hand 1: counted as missed"; "" for a table finished or still playing."""
        words = self.result.lock_words(self.averaged)
        if not words:
            return ""
        who = {BY_DIRECTOR: " by the director", BY_TIME: " at time"}.get(self.table.locked_by, "")
        return "locked" + who + words.removeprefix("locked")

    @property
    def final(self) -> bool:
        """Its result stands: the game finished, or the director locked (closed) it."""
        return self.final_score.finished or self.table.locked

    @property
    def unconfirmed(self) -> list[int]:
        return self.state.unconfirmed_hands if self.table.game.verify else []

    def record(self, event: Event) -> GameRecord:
        """The table's record as its sheet prints it: filed under the event, round and table."""
        return self.state.record(record_extra(self.table.game, table_filing(event, self.table)))

    def verification_code(self, event: Event) -> str:
        return self.record(event).verification_code

    @property
    def final_score(self) -> GameScore:
        """What counts in the standings: with verification on, only hands confirmed so far."""
        if not self.table.game.verify:
            return self.state.score
        return score_game(self.state.game, self.state.hands[: self.state.final_hands])


def prorated_preview(row: TableProgress) -> str:
    """What prorating makes of a table still playing, for the lock question: "each player's points
    × 71 ÷ 33 cards: Ann 168 → 361, Bob 253 → 544"; "" where the game has no fixed length."""
    share, scaled = cards_share(row.final_score), prorated(row.final_score)
    if share is None or scaled is None:
        return ""
    sides = ", ".join(f"{side.side.name} {side.total} → {scaled[side.side.name][0]}" for side in row.final_score.sides)
    return f"each player's points × {share[0]} ÷ {share[1]} cards: {sides}"


def counting_lines(row: TableProgress, given: Sequence[GivenPenalty]) -> list[str]:
    """How a table counts in the event's standings where it is not simply as played, for its sheet:
    a short table's treatment and how its number is reached, and the penalties given at it."""
    lines = []
    words = row.result.lock_words(row.averaged)
    if words:
        if row.table.treatment == PRORATED and row.final_score.hands and prorated_preview(row):
            lines.append(f"{words.capitalize()}: {prorated_preview(row)}.")
        elif row.table.treatment == ADJUSTED and row.final_score.hands and row.average is not None:
            how = adjusted(row.result, row.average, row.state.game.rules.lowest_wins)[1]
            lines.append(f"{how[0].upper()}{how[1:]}.")
        else:
            lines.append(f"{words.capitalize()}: its players have the event's rule for a missed round.")
    for penalty in given:
        if (penalty.round, penalty.table) == (row.table.round, row.table.number):
            lines.append(f"{penalty.said(row.table.game.game.rules.lowest_wins)}: {penalty.reason}.")
    return lines


def game_counting(db: sqlite_utils.Database, game_id: int) -> tuple[str, list[str]]:
    """The event's table this game is, for its sheet: its ``lock_line`` and ``counting_lines``,
    read as the booklet reads them (its round beside it); ("", []) for a game at no event's table."""
    found = db.execute("SELECT event_id FROM event_tables WHERE game_id = ?", [game_id]).fetchone()
    event = get_event(db, int(found[0]), deleted=True) if found is not None else None
    if event is None:
        return "", []
    tables = event_tables(db, event.id)
    mine = next((table for table in tables if table.game.id == game_id), None)
    if mine is None:
        return "", []
    for row in progress(db, event, [table for table in tables if table.round == mine.round]):
        if row.table.game.id == game_id:
            return row.lock_line, counting_lines(row, given_penalties(db, event.id))
    return "", []


def progress(db: sqlite_utils.Database, event: Event, tables: list[EventTable] | None = None) -> list[TableProgress]:
    """Every table (of ``tables`` if given) with its game's state: two statements, then the
    entries of the games that moved since this process last read them (a game not moved is not
    folded again); each knows whether its round has a finished table to average."""
    tables = event_tables(db, event.id) if tables is None else tables
    versions = game_versions(db, event.id)
    rows = [TableProgress(table, load_state(db, table.game, versions.get(table.game.id))) for table in tables]
    averages = round_averages([row.result for row in rows])
    return [
        dataclasses.replace(row, averaged=row.table.round in averages, average=averages.get(row.table.round))
        for row in rows
    ]


def rounds_played(tables: list[TableProgress]) -> list[list[list[str]]]:
    rounds: dict[int, list[list[str]]] = {}
    for row in tables:
        rounds.setdefault(row.table.round, []).append(list(row.table.game.game.players))
    return [rounds[number] for number in sorted(rounds)]


def unfinished_tables(tables: list[TableProgress], round_: int | None = None) -> int:
    """Tables (of ``round_``, or of every round) still playing: neither finished nor closed (locked)."""
    return sum(1 for row in tables if (round_ is None or row.table.round == round_) and not row.final)


def seated_by_hand(tables: Iterable[EventTable], round_: int | None = None) -> str:
    """The tables (of ``round_``, or of every round) the director seated otherwise than the
    event's plan, in words for the standings and the booklet; "" when none."""
    rounds: dict[int, list[EventTable]] = {}
    for table in tables:
        if round_ is None or table.round == round_:
            rounds.setdefault(table.round, []).append(table)
    parts = []
    for number, seated in sorted(rounds.items()):
        by_hand = [table.number for table in seated if table.by_hand]
        if by_hand:
            parts.append(f"round {number} ({tables_named(by_hand, len(seated))})")
    return f"Seated by hand, not as the plan had it: {', '.join(parts)}." if parts else ""


def event_tie_breaks(event: Event) -> str:
    return tie_breaks(event.scoring, event.ruleset().lowest_wins)


def table_results(tables: list[TableProgress]) -> list[TableResult]:
    """What the standings read: each table's score, whether the director closed (locked) it, and how
    it counts if closed part-way."""
    return [row.result for row in tables]


def event_standings(
    db: sqlite_utils.Database, event: Event, round_: int | None = None, tables: list[TableProgress] | None = None
) -> list[PlayerStanding]:
    """The event's standings (of ``round_``, or overall), from its ``tables`` if read already."""
    return _ranked(standings, db, event, round_, table_results(progress(db, event) if tables is None else tables))


@dataclass(frozen=True)
class ShownStandings:
    """The standings as every output shows them: the rows (round 1's provisional places while no
    round is complete) and where the event stands (the words "after round N of M")."""

    rows: list[PlayerStanding]
    stage: Stage


def standings_shown(
    db: sqlite_utils.Database, event: Event, round_: int | None = None, tables: list[TableProgress] | None = None
) -> ShownStandings:
    """The event's standings as shown (of ``round_``, or overall), from its ``tables`` if read already."""
    results = table_results(progress(db, event) if tables is None else tables)
    rows = _ranked(shown_standings, db, event, round_, results)
    return ShownStandings(rows, stage(results, event.rounds, round_))


def _ranked(
    rank: Callable[..., list[PlayerStanding]],
    db: sqlite_utils.Database,
    event: Event,
    round_: int | None,
    results: list[TableResult],
) -> list[PlayerStanding]:
    """``rank`` (the standings, or as shown) over the event's players by the event's rules."""
    members = event_players(db, event.id)
    return rank(
        results,
        [player.name for player in members],
        event.scoring,
        round_,
        event.ruleset().lowest_wins,
        event.sit_out,
        {p.name: p.leaves for p in members if p.leaves is not None},
        event.withdrawn_ranked,
        penalties(db, event.id),
    )


def event_stage(tables: list[TableProgress], event: Event, round_: int | None = None) -> Stage:
    """Where the event stands (after which round), from its tables."""
    return stage(table_results(tables), event.rounds, round_)


def export_json(db: sqlite_utils.Database, event: Event) -> dict[str, object]:
    """The whole event as the evening held it: its settings (how a missed round counts, how
    withdrawn players rank), players (arrived late, withdrawn), every table's game record (filed
    under the event, round and table) with its verification code and, if locked part-way, after
    which hand and how it counts; the director's penalties; and the standings with how each
    number was reached."""
    tables = progress(db, event)
    players = event_players(db, event.id)
    ranking = event_standings(db, event, tables=tables)
    shown = event_stage(tables, event)
    return {
        "format": EVENT_FORMAT,
        "name": event.name,
        "held_on": event.held_on,
        "rules": event.rules,
        "options": event.options,
        "scoring": event.scoring,
        "partnerships": event.partnerships,
        "missed_round_counts": event.sit_out,
        "withdrawn_ranked": event.withdrawn_ranked,
        "players": [
            {
                "name": p.name,
                "club": p.club,
                "number": p.number,
                "arrives": p.arrives,
                "withdrawn_from": p.leaves,
            }
            for p in players
        ],
        "tables": [
            {
                "round": row.table.round,
                "table": row.table.number,
                "locked": row.table.locked,
                **_short(row),
                "verification_code": row.verification_code(event),
                "record": export_record(row.table.game, row.state, table_filing(event, row.table)),
            }
            for row in tables
        ],
        "penalties": [
            {
                "round": given.round,
                "table": given.table,
                "player": given.player or None,
                "points": given.points,
                "kind": given.kind(event.ruleset().lowest_wins),
                "reason": given.reason,
                "given_at": given.given_at,
            }
            for given in given_penalties(db, event.id)
        ],
        "standings_heading": shown.heading,
        "standings_provisional": not shown.final and bool(shown.open_earlier or shown.under_way),
        "counted_rounds": list(shown.complete),
        "standings": [
            {
                "place": row.place or None,
                "player": row.name,
                "total": row.total if row.ranked else None,
                "placement": tenths(row.placement) if row.ranked else None,
                "wins": row.wins,
                "tables": row.tables,
                "missed": row.missed,
                "penalties": row.penalties,
                "withdrew": row.withdrew_after or None,
                "how": row.notes,
            }
            for row in ranking
        ],
    }


def _short(row: TableProgress) -> dict[str, object]:
    """A table locked unfinished: after which hand (0: before hand 1), how the director chose it
    to count (before hand 1 it is missed, whatever the choice) and what that makes of it in words
    (``how``: "locked after hand 6 of 15, adjusted (average-plus) — no finished table to average:
    counted as missed")."""
    if not row.table.locked or row.final_score.finished:
        return {}
    hands = len(row.final_score.hands)
    short: dict[str, object] = {"locked_after_hand": hands, "counts_as": row.table.treatment if hands else MISSED}
    if hands and row.table.treatment == ADJUSTED:
        short.update(adjusted=row.table.level, reason=row.table.reason)
    short["how"] = row.result.lock_words(row.averaged)
    return short


EXPORT_HEADER = [
    "round",
    "table",
    "seat",
    "player",
    "club",
    "number",
    "side",
    "side_total",
    "hands_played",
    "finished",
    "locked_after_hand",
    "counts_as",
]


def export_rows(db: sqlite_utils.Database, event: Event) -> list[list[object]]:
    """One row per player and table (``EXPORT_HEADER``): round, table, seat, side, the side's total,
    finished or not, and for a table locked part-way after which hand and how it counts."""
    rows: list[list[object]] = [list(EXPORT_HEADER)]
    clubs = {p.name: p for p in event_players(db, event.id)}
    for row in progress(db, event):
        score = row.state.score
        short = _short(row)
        counts = row.result.counts_as(row.averaged)
        for seat, name in enumerate(row.table.game.game.players, start=1):
            side = next(s for s in score.sides if name in s.side.members)
            member = clubs.get(name)
            rows.append(
                [
                    row.table.round,
                    row.table.number,
                    seat,
                    name,
                    member.club if member else "",
                    member.number if member else "",
                    side.side.name,
                    side.total,
                    len(score.hands),
                    score.finished,
                    short.get("locked_after_hand", ""),
                    counts,
                ]
            )
    return rows


STANDINGS_HEADER = [
    "place",
    "player",
    "club",
    "number",
    "total",
    "placement_points",
    "wins",
    "tables",
    "missed_rounds",
    "missed_round_counts",
    "plays_from_round",
    "withdrew",
    "penalties",
    "how",
    "standings",
]


def standings_rows(db: sqlite_utils.Database, event: Event) -> list[list[object]]:
    """The overall standings, one row a player (``STANDINGS_HEADER``): place, total and points, the
    rounds missed and the event's rule for them, late arrival and withdrawal, penalties, and how
    the numbers were reached (short tables, penalties with their reasons)."""
    members = {p.name: p for p in event_players(db, event.id)}
    rows: list[list[object]] = [list(STANDINGS_HEADER)]
    tables = progress(db, event)
    heading = event_stage(tables, event).heading
    for row in event_standings(db, event, tables=tables):
        member = members.get(row.name)
        rows.append(
            [
                row.place or "",
                row.name,
                member.club if member else "",
                member.number if member else "",
                row.total if row.ranked else "",
                row.placement_shown if row.ranked else "",
                row.wins if row.ranked else "",
                row.tables,
                row.missed,
                event.sit_out,
                member.arrives if member else 1,
                row.withdrew_after,
                row.penalties,
                "; ".join(row.notes),
                heading,
            ]
        )
    return rows
