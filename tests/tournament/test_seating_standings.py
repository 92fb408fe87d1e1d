"""Seating rounds and ranking players: the event's rules, stated and tested."""

from collections import Counter
from dataclasses import replace

import pytest

from scorekeeper.scoring import Game, configure, score_game
from scorekeeper.tournament.seating import SeatingError, meetings, parse_tables, seat_round, table_sizes
from scorekeeper.tournament.standings import TableResult, complete_rounds, standings
from tests.support.helpers import hand


@pytest.mark.parametrize(
    "count, sizes",
    [(2, [2]), (5, [5]), (6, [3, 3]), (8, [4, 4]), (9, [5, 4]), (10, [4, 3, 3]), (11, [4, 4, 3]), (20, [4] * 5)],
)
def test_tables_of_four_where_possible(count, sizes):
    assert sorted(table_sizes(count)) == sorted(sizes)


def test_partnership_events_need_a_multiple_of_four():
    with pytest.raises(SeatingError, match="multiple of 4"):
        table_sizes(10, "fixed")


def test_twenty_players_meet_only_new_opponents_for_three_rounds():
    players = [f"P{i}" for i in range(20)]
    rounds: list = []
    for number in range(3):
        rounds.append(seat_round(players, rounds, seed=number))
    opponents, _ = meetings(rounds)
    assert max(opponents.values()) == 1
    assert all(sorted(p for t in tables for p in t) == sorted(players) for tables in rounds)


def test_fixed_partners_stay_together_and_sit_opposite():
    players = [f"P{i}" for i in range(8)]
    rounds: list = []
    for number in range(3):
        rounds.append(seat_round(players, rounds, "fixed", seed=number))
    pairs = {frozenset((t[0], t[2])) for tables in rounds for t in tables} | {
        frozenset((t[1], t[3])) for tables in rounds for t in tables
    }
    assert pairs == {frozenset(("P0", "P1")), frozenset(("P2", "P3")), frozenset(("P4", "P5")), frozenset(("P6", "P7"))}


def test_rotating_partners_change_every_round():
    players = [f"P{i}" for i in range(16)]
    rounds: list = []
    for number in range(3):
        rounds.append(seat_round(players, rounds, "rotate", seed=number))
    _, partners = meetings(rounds, "rotate")
    assert max(partners.values()) == 1


def result(round_, table, players, leftovers, closed=True):
    """A table's one-hand game, standing as a finished one (so its round can be complete) unless
    said otherwise (a table locked part-way is prorated: tests/tournament/test_results_defensible.py)."""
    game = Game(configure("crates"), tuple(players))
    score = score_game(game, [hand(**dict(zip(players, leftovers, strict=True)))])
    return TableResult(round_, table, replace(score, finished=True) if closed else score, closed=closed)


def test_total_points_lowest_wins_and_ties_share_a_place():
    results = [result(1, 1, ["Ann", "Bob"], ["K", "Q"]), result(1, 2, ["Cy", "Di"], ["A", "8"])]
    rows = {row.name: row for row in standings(results, ["Ann", "Bob", "Cy", "Di"], "total")}
    assert rows["Cy"].place == 1 and rows["Cy"].total == 1
    # Ann and Bob both have 10 and half a placement point each: tied on every key.
    assert rows["Ann"].place == rows["Bob"].place == 2
    assert rows["Di"].place == 4


def test_placement_points_rank_by_places_won_then_total():
    results = [
        result(1, 1, ["Ann", "Bob", "Cy"], ["K", "8", "A"]),  # Cy 1st (2 pts), Ann 2nd (1), Bob 3rd (0)
        result(2, 1, ["Ann", "Bob", "Cy"], ["A", "8", "K"]),  # Ann 1st (2), Cy 2nd (1), Bob 3rd (0)
    ]
    rows = standings(results, ["Ann", "Bob", "Cy"], "placement")
    # Ann and Cy: 3 placement points, total 11, one table win each: tied, they share 1st.
    assert [(row.name, row.placement, row.total, row.wins, row.place) for row in rows] == [
        ("Ann", 3, 11, 1, 1),
        ("Cy", 3, 11, 1, 1),
        ("Bob", 0, 100, 0, 3),
    ]
    assert standings(results, ["Ann", "Bob", "Cy"], "placement", round_=1)[0].name == "Cy"


def test_a_partnership_gives_both_partners_the_sides_total():
    game = Game(configure("crates"), ("Ann", "Bob", "Cy", "Di"), (("Ann", "Cy"), ("Bob", "Di")))
    score = score_game(game, [hand(Ann="K", Bob="", Cy="Q", Di="8")])
    rows = {
        row.name: row
        for row in standings([TableResult(1, 1, replace(score, finished=True))], ["Ann", "Bob", "Cy", "Di"], "total")
    }
    assert rows["Ann"].total == rows["Cy"].total == 20 and rows["Bob"].total == rows["Di"].total == 50
    assert Counter(row.place for row in rows.values()) == Counter({1: 2, 3: 2})


def test_where_the_highest_total_wins_the_event_ranks_it_first():
    rules = configure("crazy-eights")
    game = Game(rules, ("Ann", "Bob", "Cy"))
    score = score_game(game, [hand(Ann="", Bob="K", Cy="9")])
    rows = standings(
        [TableResult(1, 1, replace(score, finished=True))], ["Ann", "Bob", "Cy"], "total", lowest_wins=False
    )
    assert [(row.place, row.name, row.total) for row in rows] == [(1, "Ann", 19), (2, "Bob", 0), (2, "Cy", 0)]
    assert rows[0].wins == 1 and rows[0].placement == 2


def test_placement_follows_the_games_own_ranking_of_games_won():
    game = Game(configure("hollywood-eights"), ("Ann", "Bob"))
    big, small = "8 8 8 8 K Q", "5"  # 100 and 5
    ann_190 = "8 8 8 8 K K K K Q Q Q Q J J J"
    score = score_game(
        game, [hand(Ann="", Bob=ann_190), hand(Ann=small, Bob=""), hand(Ann=small, Bob=""), hand(Ann=big, Bob="")]
    )
    assert score.finished and score.leader == ("Bob",)  # two games to one, with fewer points
    rows = standings([TableResult(1, 1, score, closed=True)], ["Ann", "Bob"], "placement", lowest_wins=False)
    assert [(row.name, row.placement) for row in rows] == [("Bob", 1), ("Ann", 0)]


def test_a_game_for_two_seats_pairs():
    assert table_sizes(6, size=2) == [2, 2, 2]
    with pytest.raises(SeatingError, match="multiple of 2, not 5"):
        table_sizes(5, size=2)


def test_a_name_with_a_colon_is_seated_whole_with_or_without_the_table_label():
    players = ["Ann: the elder", "Bob", "Cy", "Di"]
    text = "Table 1: Ann: the elder, Bob\nCy, Di"
    assert parse_tables(text, players, "none") == [["Ann: the elder", "Bob"], ["Cy", "Di"]]
    assert parse_tables("Ann: the elder, Bob, Cy, Di", players, "none") == [players]


# -- Standings mid-round: like with like -----------------------------------------------------------


def test_while_a_round_is_under_way_only_complete_rounds_rank_and_each_table_is_shown_as_it_stands():
    results = [
        result(1, 1, ["Ann", "Bob", "Cy", "Di"], ["K", "8", "A", "2"]),
        result(1, 2, ["Ed", "Flo", "Gus", "Hal"], ["K", "K", "K", "K"]),
        result(2, 1, ["Ann", "Ed", "Cy", "Gus"], ["8", "A", "2", "3"], closed=False),
        result(2, 2, ["Bob", "Flo", "Di", "Hal"], ["A", "A", "A", "A"]),
    ]
    rows = {row.name: row for row in standings(results, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"], "total")}
    # Round 2 is not complete: nothing of it counts yet, for any table.
    assert rows["Ann"].total == 10 and rows["Bob"].total == 50 and rows["Flo"].total == 10
    assert rows["Ann"].playing == "round 2, table 1: hand 2 of 15, 50 so far"
    assert rows["Bob"].playing == "round 2, table 2: finished, 1"
    assert rows["Ann"].in_progress == 1 and rows["Bob"].in_progress == 0
    assert rows["Cy"].place == 1 and rows["Ann"].place == 2  # Ann 10 and 2nd at her table; Ed, Flo, Gus, Hal 10 tied


def test_thirteen_players_one_table_finished_nobody_earns_placement_points_for_a_table_still_playing():
    names = [f"P{n}" for n in range(1, 14)]
    results = [
        result(1, 1, names[0:4], ["K", "8", "A", "2"]),
        result(1, 2, names[4:8], ["", "K", "Q", "2"], closed=False),
        result(1, 3, names[8:13], ["", "K", "Q", "2", "9"], closed=False),
    ]
    rows = standings(results, names, "placement")
    assert all(row.placement == 0 and row.total == 0 for row in rows), "no round is complete: nothing ranks yet"
    assert {row.place for row in rows} == {0}, "no complete round: nobody has a place yet"
    assert next(row for row in rows if row.name == "P1").playing.startswith("round 1, table 1: finished")


@pytest.mark.parametrize("rule, ann", [("average", 2 * 10), ("zero", 10)])
def test_a_complete_round_missed_counts_as_the_event_says(rule, ann):
    results = [
        result(1, 1, ["Ann", "Bob"], ["K", "A"]),
        result(2, 1, ["Bob", "Cy"], ["A", "K"]),  # Ann sits out round 2
        result(1, 2, ["Cy", "Di"], ["8", "A"]),
        result(2, 2, ["Di", "Ann2"], ["A", "A"]),
    ]
    rows = {r.name: r for r in standings(results, ["Ann", "Bob", "Cy", "Di", "Ann2"], "total", sit_out=rule)}
    assert rows["Ann"].missed == 1 and rows["Ann"].tables == 1
    assert rows["Ann"].total == ann


def test_where_the_event_says_so_a_withdrawn_player_ranks_below_and_a_late_one_without_a_round_has_no_place():
    results = [
        result(1, 1, ["Ann", "Bob"], ["K", ""]),  # Bob goes out: 0, the best total of round 1
        result(1, 2, ["Cy", "Di"], ["Q", "A"]),
        result(2, 1, ["Ann", "Cy"], ["A", "K"]),
        result(2, 2, ["Di", "Eve"], ["K", "A"], closed=False),  # Eve arrived for round 2; still playing
    ]
    rows = standings(
        results, ["Ann", "Bob", "Cy", "Di", "Eve"], "total", withdrawn={"Bob": 2}, withdrawn_ranked="below"
    )
    by_name = {row.name: row for row in rows}
    assert [row.name for row in rows][-2:] == ["Bob", "Eve"]
    assert by_name["Bob"].place == 4 and by_name["Bob"].missed == 0, "round 2 is not complete yet"
    assert by_name["Eve"].place == 0 and by_name["Eve"].playing.startswith("round 2, table 2")
    assert not by_name["Eve"].ranked and by_name["Bob"].ranked, "unranked: the pages show — for place, total and points"
    assert by_name["Di"].playing and by_name["Di"].total == 1, "round 2 is not complete: Di's 10 there waits"


def test_a_player_at_tables_of_two_rounds_under_way_shows_both():
    results = [
        result(1, 1, ["Ann", "Bob"], ["K", "A"], closed=False),  # round 1 still playing at table 1
        result(1, 2, ["Cy", "Di"], ["Q", "A"]),
        result(2, 1, ["Ann", "Cy"], ["A", "K"], closed=False),  # round 2 seated early
        result(2, 2, ["Bob", "Di"], ["K", "A"], closed=False),
    ]
    ann = next(row for row in standings(results, ["Ann", "Bob", "Cy", "Di"], "total") if row.name == "Ann")
    assert ann.playing.startswith("round 1, table 1: hand 2") and "; round 2, table 1: hand 2" in ann.playing


@pytest.mark.parametrize("rule", ["average", "zero"])
def test_a_table_closed_before_any_hand_counts_for_nobody_its_players_missed_the_round(rule):
    """Seen at a fresh event: a table locked with no hand played gave its players 0 for the
    round, the best total in Crates, and they ranked first."""
    empty = TableResult(2, 2, score_game(Game(configure("crates"), ("Cy", "Di")), []), closed=True)
    results = [
        result(1, 1, ["Ann", "Bob"], ["K", "A"]),
        result(1, 2, ["Cy", "Di"], ["Q", "8"]),
        result(2, 1, ["Ann", "Bob"], ["A", "K"]),
        empty,
    ]
    rows = {row.name: row for row in standings(results, ["Ann", "Bob", "Cy", "Di"], "total", sit_out=rule)}
    assert rows["Cy"].tables == 1 and rows["Cy"].missed == 1, "round 2 is complete, and Cy did not play it"
    assert rows["Cy"].total == (2 * 10 if rule == "average" else 10)
    assert rows["Di"].total == (2 * 50 if rule == "average" else 50)
    assert rows["Ann"].total == 11 and rows["Ann"].tables == 2
    if rule == "average":
        assert rows["Cy"].place > rows["Ann"].place, "a table nobody played ranks nobody first"


def test_a_name_typed_in_another_case_or_with_more_spaces_is_seated_as_the_event_lists_it():
    players = ["Ann Smith", "Bob", "Cy", "Di"]
    assert parse_tables("ann  SMITH, bob, Cy ,DI", players, "none") == [players]
    with pytest.raises(SeatingError, match="Line 1: Annie is not a player of this event"):
        parse_tables("Annie, Bob, Cy, Di", players, "none")
    with pytest.raises(SeatingError, match="Line 2: Bob is seated twice"):
        parse_tables("Ann Smith, Bob\nBOB, Cy, Di", players, "none")


@pytest.mark.parametrize(
    "name, fault",
    [
        ("Ann", None),
        ("Zoë O'Brien", None),
        ("李明", None),
        ("👨\u200d👩\u200d👧", None),  # a family emoji: joined by zero-width joiners
        ("\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", None),  # Scotland's flag
        ("\u2764\ufe0f Ann", None),  # an emoji's variation selector
        ("Ann\tSmith", "control character (a tab)"),
        ("Ann\u202eSmith", "invisible character (U+202E)"),  # printed 'Ann' then 'htimS'
        ("Bo\u200bb", "invisible character (U+200B)"),
        ("\u200d", "invisible character (U+200D)"),  # a joiner alone: a name that shows nothing
        ("A\u200dnn", "invisible character (U+200D)"),  # looks like Ann
        ("Ann\ufe0f", "invisible character (U+FE0F)"),
        ("An\u034fn", "invisible character (U+034F)"),
        ("\u3164", "invisible character (U+3164)"),  # a Hangul filler: a letter that prints blank
        ("\u2800", "invisible character (U+2800)"),  # the blank Braille pattern
    ],
)
def test_a_name_must_be_seen_as_it_is(name, fault):
    from scorekeeper.tournament.seating import control_fault

    found = control_fault(name)
    assert (found is None) if fault is None else (found is not None and fault in found), found


def test_names_that_differ_only_in_case_or_spacing_are_one_name():
    from scorekeeper.tournament.seating import name_key

    assert name_key("Ann  Smith") == name_key("ann smith") == name_key("ANN\u00a0SMITH")
    assert name_key("Ann Smith") != name_key("Anne Smith")


def eights_table(round_, players, leftovers):
    """A finished one-hand game of Crazy Eights: whoever goes out takes the others' points."""
    game = Game(configure("crazy-eights"), tuple(players))
    score = score_game(game, [hand(**dict(zip(players, leftovers, strict=True)))])
    return TableResult(round_, 1, replace(score, finished=True), closed=True)


def test_where_the_highest_total_wins_the_total_ranks_before_placement_points():
    # Ann takes 19 in round 1; Bob wins rounds 2 and 3 with 4 each: Bob has more placement points
    # (4.5 to Ann's 3), Ann the higher total (19 to 8). By total Ann is first; by placement, Bob.
    results = [
        eights_table(1, ["Ann", "Bob", "Cy"], ["", "K", "9"]),
        eights_table(2, ["Ann", "Bob", "Cy"], ["2", "", "2"]),
        eights_table(3, ["Ann", "Bob", "Cy"], ["2", "", "2"]),
    ]
    by_total = standings(results, ["Ann", "Bob", "Cy"], "total", lowest_wins=False)
    assert [(row.name, row.total, row.placement, row.place) for row in by_total] == [
        ("Ann", 19, 3, 1),
        ("Bob", 8, 4.5, 2),
        ("Cy", 0, 1.5, 3),
    ]
    by_placement = standings(results, ["Ann", "Bob", "Cy"], "placement", lowest_wins=False)
    assert [row.name for row in by_placement] == ["Bob", "Ann", "Cy"]


def test_a_missed_round_counts_the_average_of_the_placement_points_too():
    results = [
        result(1, 1, ["Ann", "Bob"], ["A", "K"]),  # Ann 1st: 1 placement point
        result(2, 1, ["Bob", "Cy"], ["A", "K"]),  # Ann sits out round 2
        result(1, 2, ["Cy", "Di"], ["8", "A"]),
        result(2, 2, ["Di", "Ed"], ["A", "A"]),
    ]
    rows = {r.name: r for r in standings(results, ["Ann", "Bob", "Cy", "Di", "Ed"], "placement")}
    assert (rows["Ann"].placement, rows["Ann"].total) == (2, 2)
    zero = {r.name: r for r in standings(results, ["Ann", "Bob", "Cy", "Di", "Ed"], "placement", sit_out="zero")}
    assert (zero["Ann"].placement, zero["Ann"].total) == (1, 1)


@pytest.mark.parametrize(
    "setting, why",
    [
        ({"mode": "points"}, "scoring must be one of total, placement"),
        ({"sit_out": "half"}, "a sit-out counts as one of average, zero"),
        ({"withdrawn_ranked": "first"}, "withdrawn players rank one of with-the-rest, below"),
    ],
)
def test_a_setting_the_standings_do_not_know_is_refused(setting, why):
    arguments = {"mode": "total", **setting}
    with pytest.raises(ValueError, match=why):
        standings([result(1, 1, ["Ann", "Bob"], ["A", "K"])], ["Ann", "Bob"], **arguments)


def test_missed_rounds_counted_at_the_average_say_how_in_words():
    results = [
        result(1, 1, ["Ann", "Bob"], ["K", "A"]),  # Ann 10
        result(2, 1, ["Bob", "Cy"], ["A", "K"]),
        result(3, 1, ["Bob", "Cy"], ["A", "K"]),
        result(1, 2, ["Cy", "Di"], ["A", "A"]),
        result(2, 2, ["Di", "Ann"], ["A", "A"]),  # Ann 1
        result(3, 2, ["Di", "Ed"], ["A", "A"]),
    ]
    rows = {row.name: row for row in standings(results, ["Ann", "Bob", "Cy", "Di", "Ed"], "total")}
    assert (
        "1 missed round at the average of the 2 played: 11 × 1 ÷ 2 = 6 (5.5, halves away from zero)"
        in rows["Ann"].notes
    )
    assert rows["Ann"].total == 11 + 6
    assert "2 missed rounds at the average of the 1 played: 1 × 2 ÷ 1 = 2" in rows["Ed"].notes


def test_a_rounds_completeness_is_its_own_tables_alone():
    results = [result(1, 1, ["Ann", "Bob"], ["K", "A"]), result(2, 1, ["Ann", "Bob"], ["K", "A"], closed=False)]
    assert complete_rounds(results) == [1]
    assert complete_rounds(results, 1) == [1] and complete_rounds(results, 2) == []
