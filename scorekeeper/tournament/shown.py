"""The standings as every output shows them: how far the event is, in words, and round 1's
provisional places.

The ranking itself (``standings.py``) counts complete rounds only, and the club's record keeps
it so. What is *shown* says more, and says it is provisional:

- **After which round.** Every heading says "after round N of M" (N the last complete round, M
  the rounds the event has: planned, or seated if more) until every round is complete; only then
  "Final standings". An event planned round by round (no M) never says "final": nothing says
  its last round was the last.
- **While no round is complete** (round 1, or the round asked for), the players of each table
  that has finished (or that the director closed after a hand) are ranked by what they have:
  their table's total, placement points and win, as a complete round would rank them, each
  place marked provisional. The players still playing follow without a place (their table's
  hand and total so far beside them), then those without a table in that round, each group by
  name. Nobody earns a placement point at a table still playing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .standings import AVERAGE, WITH_THE_REST, Penalty, PlayerStanding, TableResult, complete_rounds, standings


@dataclass(frozen=True)
class Stage:
    """Where the event (or one of its rounds, ``round_``) stands, for the words of every heading."""

    #: The rounds the event has: planned, or seated if more; None for an event planned round by round.
    planned: int | None
    #: The complete rounds (every table finished or closed), in order.
    complete: tuple[int, ...] = ()
    #: The round asked for alone, or None for the whole event.
    round_: int | None = None
    #: The first round seated and not complete, or None.
    under_way: int | None = None
    #: Of the round under way: its tables finished (or closed), and all its tables.
    finished: int = 0
    tables: int = 0
    #: Rounds seated and not complete before the last complete one (a table of round 1 unlocked
    #: after round 5): the ranking leaves them out until they are complete again.
    open_earlier: tuple[int, ...] = ()

    @property
    def last(self) -> int:
        """The last complete round (0 before any)."""
        return max(self.complete, default=0)

    @property
    def final(self) -> bool:
        """Whether every round is complete: only then are the standings final."""
        if self.round_ is not None:
            return self.round_ in self.complete
        return (
            self.planned is not None
            and self.under_way is None
            and set(range(1, self.planned + 1)) <= set(self.complete)
        )

    @property
    def provisional(self) -> bool:
        """No round (of those asked for) is complete yet: the places shown are round 1's provisional ones."""
        return not self.complete and self.finished > 0

    def of(self, number: int) -> str:
        """ "round 3 of 5" (or "round 3" when the event has no number of rounds)."""
        return f"round {number} of {self.planned}" if self.planned else f"round {number}"

    @property
    def words(self) -> str:
        """After which round, for a heading: "final", "after round 2 of 5", "during round 1 of 5"."""
        if self.round_ is not None:
            return self.of(self.round_) + ("" if self.final else f", provisional: {self.tables_finished}")
        if self.final:
            return "final"
        if self.last and self.open_earlier:
            counted = _rounds(self.complete) + (f" of {self.planned}" if self.planned else "")
            open_ = _rounds(self.open_earlier)
            return f"counting {counted}, provisional while {open_} {'has a table' if len(self.open_earlier) == 1 else 'have tables'} open"
        if self.last:
            return "after " + self.of(self.last)
        if self.under_way is not None:
            return f"during {self.of(self.under_way)}, provisional: {self.tables_finished}"
        return f"before {self.of(1)}"

    @property
    def heading(self) -> str:
        """The standings' title: "Final standings", "Standings after round 2 of 5", …"""
        if self.round_ is not None:
            return f"Standings of {self.words}"
        return "Final standings" if self.final else f"Standings {self.words}"

    @property
    def tables_finished(self) -> str:
        """ "3 of 4 tables finished" in the round under way."""
        return f"{self.finished} of {self.tables} table{'s' if self.tables != 1 else ''} finished"

    @property
    def note(self) -> str:
        """What the provisional places mean, when they are shown (after "Provisional: ")."""
        if not self.provisional:
            return ""
        return (
            f"{self.tables_finished} in {self.of(self.under_way or 1)}. The players of finished "
            "tables are ranked by what they have; the players still playing follow without a place, and "
            "nobody earns placement points at a table still playing."
        )


def stage(results: Sequence[TableResult], planned: int | None, round_: int | None = None) -> Stage:
    """Where the event stands from its tables' results (only ``round_``'s if given)."""
    chosen = [result for result in results if round_ is None or result.round == round_]
    complete = tuple(complete_rounds(chosen))
    seated = {result.round for result in chosen}
    under_way = min(seated - set(complete), default=None)
    in_round = [result for result in chosen if result.round == under_way]
    return Stage(
        planned=max(planned, max(seated, default=0)) if planned else None,
        complete=complete,
        round_=round_,
        under_way=under_way,
        finished=sum(1 for result in in_round if result.final),
        tables=len(in_round),
        open_earlier=tuple(sorted(n for n in seated - set(complete) if n < max(complete, default=0))),
    )


def _rounds(numbers: Sequence[int]) -> str:
    """ "round 3", "rounds 2–5", "rounds 1–2 and 4–5": rounds in words, runs joined by a dash."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    named = [f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs]
    if len(named) == 1 and len(runs[0]) == 1:
        return f"round {named[0]}"
    return "rounds " + (named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1])


def shown_standings(
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
    """The standings as shown: ``standings`` itself once a round (of those asked for) is complete;
    before, the players of the first round's finished tables ranked, provisionally, by what they
    have, then those still playing, then the rest (the module's docstring says how)."""
    rows = standings(results, players, mode, round_, lowest_wins, sit_out, withdrawn, withdrawn_ranked, penalties)
    chosen = [result for result in results if round_ is None or result.round == round_]
    if complete_rounds(chosen) or not chosen:
        return rows
    first = min(result.round for result in chosen)
    done = [r for r in chosen if r.round == first and r.final and (r.score.finished or r.score.hands)]
    at_done = {member for result in done for side in result.score.sides for member in side.side.members}
    if not at_done:
        return rows
    gone = {name: number for name, number in (withdrawn or {}).items() if name in at_done}
    ranked = standings(
        done,
        [row.name for row in rows if row.name in at_done],
        mode,
        None,
        lowest_wins,
        sit_out,
        gone,
        withdrawn_ranked,
        [penalty for penalty in penalties if penalty.round == first],  # given at a finished table: shown at once
    )
    now = {row.name: row for row in rows}
    # A player whose closed table counts for nobody (locked before hand 1, or short and counted
    # as missed) has no place yet: "—" with the reason, never a provisional mark on no place.
    placed = [dataclasses.replace(row, playing=now[row.name].playing, provisional=row.ranked) for row in ranked]
    playing = [row for row in rows if row.name not in at_done and row.in_progress]
    others = [row for row in rows if row.name not in at_done and not row.in_progress]
    return [*placed, *playing, *others]
