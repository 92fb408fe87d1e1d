"""The standings as shown: after which round, in words, and round 1's provisional places."""

import pytest

from scorekeeper.scoring import Game, configure, score_game
from scorekeeper.tournament.shown import shown_standings, stage
from scorekeeper.tournament.standings import Penalty, TableResult, standings
from tests.tournament.test_seating_standings import result

NAMES = [f"P{n:02d}" for n in range(1, 18)]


def round_one(finished: int) -> list:
    """Seventeen players, round 1 at tables of 4, 4, 4 and 5: the first ``finished`` tables done."""
    seats = [NAMES[0:4], NAMES[4:8], NAMES[8:12], NAMES[12:17]]
    hands = [["K", "8", "A", "2"], ["", "Q", "3", "9"], ["A", "A", "", "K"], ["2", "", "J", "Q", "8"]]
    return [result(1, n, seats[n - 1], hands[n - 1], closed=n <= finished) for n in range(1, 5)]


def test_while_no_round_is_complete_finished_tables_rank_provisionally_and_players_still_playing_follow():
    results = round_one(finished=2)
    rows = shown_standings(results, NAMES, "total")
    placed = [row for row in rows if row.place]
    # The players of the two finished tables, ranked as a complete round would rank them, marked provisional.
    expected = [row.name for row in standings(results[:2], NAMES[:8], "total")]
    assert [row.name for row in placed] == expected and len(placed) == 8
    assert all(row.provisional and row.tables == 1 for row in placed)
    assert [row.place for row in placed] == [row.place for row in standings(results[:2], NAMES[:8], "total")]
    assert placed[0].playing.startswith("round 1, table ") and ": finished," in placed[0].playing
    # Then the nine still playing, by name, with no place, no points and their hand beside them.
    rest = rows[8:]
    assert [row.name for row in rest] == sorted(NAMES[8:])
    assert all(row.place == 0 and not row.provisional and row.placement == 0 and row.tables == 0 for row in rest)
    assert all("hand 2 of 15" in row.playing for row in rest)
    # Placement points come from a finished table only: at most 3 at a table of four.
    assert max(row.placement for row in placed) == 3


def test_a_penalty_given_at_a_finished_table_shows_in_the_provisional_standings_at_once():
    """Seen at an evening: +25 for a revoke at a finished round-1 table, and the provisional standings
    said 270 with no word of it until the round was complete."""
    results = round_one(finished=2)
    plain = {row.name: row for row in shown_standings(results, NAMES, "total")}
    revoke, later = Penalty(1, "P05", 25, "a revoke", table=2), Penalty(1, "P13", 10, "slow play", table=4)
    rows = {row.name: row for row in shown_standings(results, NAMES, "total", penalties=[revoke, later])}
    assert (
        rows["P05"].total == plain["P05"].total + 25
        and "penalty +25 in round 1, table 2: a revoke" in rows["P05"].notes
    )
    assert rows["P13"].total == plain["P13"].total == 0, "P13's table still plays: nothing counts yet"


@pytest.mark.parametrize("mode", ["total", "placement"])
def test_once_a_round_is_complete_the_standings_are_the_rankings_own(mode):
    results = round_one(finished=4) + [result(2, 1, NAMES[0:4], ["K", "", "A", "2"], closed=False)]
    shown = shown_standings(results, NAMES, mode)
    assert [(r.name, r.place, r.total) for r in shown] == [
        (r.name, r.place, r.total) for r in standings(results, NAMES, mode)
    ]
    assert not any(row.provisional for row in shown)


def test_a_round_asked_for_alone_while_it_plays_ranks_its_finished_tables_provisionally():
    results = round_one(finished=4) + [
        result(2, 1, NAMES[0:4], ["K", "", "A", "2"], closed=False),
        result(2, 2, NAMES[4:8], ["K", "", "A", "2"]),
    ]
    rows = shown_standings(results, NAMES, "total", round_=2)
    assert {row.name for row in rows if row.provisional} == set(NAMES[4:8])
    assert [row.name for row in rows[4:8]] == NAMES[0:4]  # still playing: after, by name


def test_a_table_closed_before_any_hand_places_nobody():
    results = round_one(finished=1)
    game = Game(configure("crates"), tuple(NAMES[4:8]))
    results[1] = TableResult(1, 2, score_game(game, []), closed=True)
    rows = shown_standings(results, NAMES, "total")
    assert {row.name for row in rows if row.place} == set(NAMES[0:4])
    assert [row.name for row in rows[4:]] == NAMES[8:] + NAMES[4:8]  # playing, then the closed empty table's


@pytest.mark.parametrize(
    "finished_rounds, under_way, planned, heading",
    [
        ([], (1, 0, 4), 5, "Standings during round 1 of 5, provisional: 0 of 4 tables finished"),
        ([], (1, 3, 4), 5, "Standings during round 1 of 5, provisional: 3 of 4 tables finished"),
        ([1, 2, 3], None, 5, "Standings after round 3 of 5"),
        ([1, 2], (3, 1, 4), 5, "Standings after round 2 of 5"),
        ([1, 2, 3, 4, 5], None, 5, "Final standings"),
        ([1, 2, 3], None, None, "Standings after round 3"),  # planned round by round: never "final"
        ([1, 2, 3], None, 2, "Final standings"),  # seated beyond the plan: the rounds seated count
    ],
)
def test_every_heading_says_after_which_round_until_the_last_is_complete(finished_rounds, under_way, planned, heading):
    results = [r for number in finished_rounds for r in [result(number, 1, NAMES[:4], ["K", "8", "A", "2"])]]
    if under_way:
        number, done, tables = under_way
        results += [result(number, n, NAMES[:4], ["K", "8", "A", "2"], closed=n <= done) for n in range(1, tables + 1)]
    assert stage(results, planned).heading == heading


def test_a_rounds_own_standings_say_which_round_of_how_many():
    results = round_one(finished=4) + [result(2, 1, NAMES[:4], ["K", "8", "A", "2"], closed=False)]
    assert stage(results, 5, round_=1).heading == "Standings of round 1 of 5"
    assert stage(results, 5, round_=2).heading == "Standings of round 2 of 5, provisional: 0 of 1 table finished"
