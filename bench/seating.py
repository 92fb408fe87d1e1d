"""Seating quality: repeated table-mates when each round is seated on its own (as events were
seated before plans) against the whole event planned at once, beside the lower bound, with
the time each plan took (the aim: within 30 s on two cores); then the most times two players
meet (ranked first) where tables of three or five take up the rest, for each choice.

    .venv/bin/python -m bench.seating          # the full table (minutes: searches run 20 s)
"""

from __future__ import annotations

import time

from scorekeeper.scoring.game import partners_opposite
from scorekeeper.tournament.names_list import numbered_players
from scorekeeper.tournament.plan import SECONDS, other_odd, plan_event
from scorekeeper.tournament.plan_quality import quality
from scorekeeper.tournament.seating import FIVES, THREES, seat_round

from . import QUICK

SIZES = [(8, 3)] if QUICK else [(n, r) for n in (12, 16, 20, 24, 32) for r in range(5, 11)]
WHIST = [(8, 7)] if QUICK else [(8, 7), (12, 11), (16, 15)]
SEARCH = 0.2 if QUICK else SECONDS
#: Where repeats alone let a pair meet in every round (13 x 4: three pairs; 12 x 5: one).
MOST_FIRST = [(9, 3)] if QUICK else [(13, 4), (12, 5), (17, 5), (9, 4), (14, 5), (38, 13)]


def round_by_round(players: list[str], rounds: int, partnerships: str = "none") -> list[list[list[str]]]:
    seated: list[list[list[str]]] = []
    for number in range(rounds):
        seated.append(seat_round(players, seated, partnerships, seed=number + 1))
    return seated


def opposed_most(rounds: list[list[list[str]]]) -> int:
    counts: dict[frozenset[str], int] = {}
    for tables in rounds:
        for table in tables:
            first, second = partners_opposite(table)
            for a in first:
                for b in second:
                    counts[frozenset((a, b))] = counts.get(frozenset((a, b)), 0) + 1
    return max(counts.values())


def main() -> None:
    print("\nSeating: repeated table-mates, round by round (before) and planned whole (after)")
    print(
        f"{'players':>7} {'rounds':>6} {'before':>6} {'after':>5} {'bound':>5} {'most':>4} {'seats':>5} {'time':>6}  from"
    )
    for players, rounds in SIZES:
        names = numbered_players(players)
        before = quality(round_by_round(names, rounds), "none", players)
        started = time.monotonic()
        plan = plan_event(names, rounds, seconds=SEARCH)
        took = time.monotonic() - started
        q = plan.quality
        print(
            f"{players:>7} {rounds:>6} {before.repeats:>6} {q.repeats:>5} {q.bound:>5} {q.most:>4} "
            f"{q.seat_spread:>5} {took:>5.1f}s  {plan.source}"
        )
    print(
        "\nMost times two players meet first; tables of three or five shared fairly (odd: at one, fewest-most rounds)"
    )
    print(
        f"{'players':>7} {'rounds':>6} {'odd':>6} {'most':>4} {'bound':>5} {'repeats':>7} {'bound':>5} {'odd':>5} {'time':>6}"
    )
    for players, rounds in MOST_FIRST:
        for odd in (THREES, FIVES):
            if odd != THREES and other_odd(players, odd=THREES) is None:
                continue
            started = time.monotonic()
            q = plan_event(numbered_players(players), rounds, odd=odd, seconds=SEARCH).quality
            took = time.monotonic() - started
            print(
                f"{players:>7} {rounds:>6} {odd:>6} {q.most:>4} {q.most_bound:>5} {q.repeats:>7} {q.bound:>5} "
                f"{q.odd_least:>2}-{q.odd_most:<2} {took:>5.1f}s"
            )
    print("\nRotating partners: partners again / most times two players oppose (a whist design: 0 / 2)")
    for players, rounds in WHIST:
        names = numbered_players(players)
        before_rounds = round_by_round(names, rounds, "rotate")
        before = quality(before_rounds, "rotate", players)
        plan = plan_event(names, rounds, "rotate", seconds=SEARCH)
        print(
            f"{players:>7} {rounds:>6}  before {before.partner_repeats} / {opposed_most(before_rounds)}"
            f"  after {plan.quality.partner_repeats} / {opposed_most(plan.rounds)}  from {plan.source}"
        )


if __name__ == "__main__":
    main()
