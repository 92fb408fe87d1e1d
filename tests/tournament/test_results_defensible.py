"""Results a director can defend: short tables, withdrawals and penalties in the standings (pure).

Seen at a club evening (17 players, Crates, 5 rounds): round 3, table 1 was locked after 6 of
15 hands, its partial totals counted as a full result, and its players took places 1–4 of the
round; a player withdrawn after two good rounds ranked 19th with a total that beat 13 others.
"""

from dataclasses import FrozenInstanceError, replace
from fractions import Fraction

import pytest

from scorekeeper.scoring import Game, configure, score_game
from scorekeeper.tournament.standings import (
    ADJUSTED,
    AVERAGE_MINUS,
    AVERAGE_PLUS,
    BELOW,
    MISSED,
    Penalty,
    PlayerStanding,
    TableResult,
    adjusted,
    cards_share,
    penalty_kind,
    prorated,
    round_half_away,
    standings,
    tenths,
    tie_breaks,
)
from tests.support.helpers import hand

SHORT = ["Ann", "Bob", "Cy", "Di"]
FULL = [["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jo", "Kim", "Lu"]]
EVERYONE = SHORT + FULL[0] + FULL[1]


def table(round_, number, players, leftovers, hands, closed=False, finished=False, **lock):
    """A table where every hand goes the same; ``finished``: standing as a whole game."""
    game = Game(configure("crates"), tuple(players))
    score = score_game(game, [hand(**dict(zip(players, leftovers, strict=True)))] * hands)
    return TableResult(round_, number, replace(score, finished=True) if finished else score, closed=closed, **lock)


def round_three(**lock):
    """A short table (6 of 15 hands, 40 points a hand each: 240) against two full tables where every
    player has 30 a hand (450): by the cards, the short table played worse."""
    return [
        table(3, 1, SHORT, ["K 5"] * 4, 6, closed=True, **lock),
        table(3, 2, FULL[0], ["5"] * 4, 15),
        table(3, 3, FULL[1], ["5"] * 4, 15),
    ]


def test_crates_cards_dealt_are_71_a_player_33_after_six_hands():
    rules = configure("crates")
    assert (
        sum(rules.cards_dealt(n, 4) for n in range(1, 16)) == 8 + 7 + 6 + 5 + 4 + 3 + 2 + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8
    )
    assert sum(rules.cards_dealt(n, 4) for n in range(1, 7)) == 33


def test_a_table_locked_after_6_of_15_does_not_take_places_1_to_4_by_default():
    rows = standings(round_three(), EVERYONE, "total", round_=3)
    places = {row.name: row.place for row in rows}
    assert all(places[name] > 8 for name in SHORT), places
    ann = next(row for row in rows if row.name == "Ann")
    # 240 points over 33 of the game's 71 cards: 240 × 71 ÷ 33 = 516.36… → 516.
    assert ann.total == 516 == round_half_away(Fraction(240 * 71, 33))
    assert "round 3: locked after hand 6 of 15, prorated: 240 × 71 ÷ 33 cards = 516" in ann.notes


def test_prorating_keeps_the_starting_score_apart_and_rounds_halves_away_from_zero():
    assert round_half_away(Fraction(5, 2)) == 3 and round_half_away(Fraction(-5, 2)) == -3
    assert round_half_away(Fraction(7, 3)) == 2
    score = score_game(Game(configure("crates"), ("Ann", "Bob")), [hand(Ann="K", Bob="")] * 6)
    scaled = prorated(score)
    assert scaled is not None and scaled["Ann"][0] == round_half_away(Fraction(60 * 71, 33)) == 129
    assert scaled["Bob"] == (0, "0 × 71 ÷ 33 cards = 0")


def test_a_short_table_counted_as_missed_gives_its_players_the_missed_round_rule():
    earlier = [table(1, 1, SHORT[:2], ["K", "5"], 15), table(1, 2, SHORT[2:], ["5", "K"], 15)]
    rows = {row.name: row for row in standings(earlier + round_three(treatment=MISSED), EVERYONE, "total")}
    assert rows["Ann"].missed == 1 and rows["Ann"].tables == 1
    assert rows["Ann"].total == 2 * 150, "the average rule: her one round counted twice"
    assert "round 3: locked after hand 6 of 15, counted as missed" in rows["Ann"].notes


@pytest.mark.parametrize(
    "level, factor, share",
    [(AVERAGE_PLUS, Fraction(9, 10), 0.6 * 3), ("average", 1, 1.5), (AVERAGE_MINUS, Fraction(11, 10), 0.4 * 3)],
)
def test_an_adjusted_table_gets_the_rounds_average_plus_or_minus_with_the_reason(level, factor, share):
    results = round_three(treatment=ADJUSTED, level=level, reason="the room closed")
    rows = {row.name: row for row in standings(results, EVERYONE, "total", round_=3)}
    assert rows["Bob"].total == round_half_away(450 * Fraction(factor)) and rows["Bob"].placement == pytest.approx(
        share
    )
    assert any("adjusted (" + level in note and note.endswith(": the room closed") for note in rows["Bob"].notes)


@pytest.mark.parametrize(
    "level, factor", [(AVERAGE_PLUS, Fraction(11, 10)), ("average", Fraction(1)), (AVERAGE_MINUS, Fraction(9, 10))]
)
def test_where_the_highest_total_wins_average_plus_is_a_tenth_more_and_average_minus_a_tenth_less(level, factor):
    results = round_three(treatment=ADJUSTED, level=level)
    rows = {row.name: row for row in standings(results, EVERYONE, "total", round_=3, lowest_wins=False)}
    assert rows["Bob"].total == round_half_away(450 * factor)


def withdrawal_event():
    """Four complete rounds; Ann plays rounds 1 and 2 well (10 a round), then withdraws."""
    others = ["Bob", "Cy", "Di", "Eve"]
    results = [
        table(1, 1, ["Ann", "Bob"], ["K", "5 5"], 1, finished=True),
        table(1, 2, ["Cy", "Di"], ["5 5", "5 5"], 1, finished=True),
    ]
    results += [
        table(2, 1, ["Ann", "Cy"], ["K", "5 5"], 1, finished=True),
        table(2, 2, ["Bob", "Eve"], ["5 5", "5 5"], 1, finished=True),
    ]
    for round_ in (3, 4):
        results += [
            table(round_, 1, ["Bob", "Cy"], ["5 5", "5 5"], 1, finished=True),
            table(round_, 2, ["Di", "Eve"], ["5 5", "5 5"], 1, finished=True),
        ]
    return results, ["Ann", *others]


def test_a_withdrawn_players_missed_rounds_count_by_the_rule_and_they_rank_with_the_rest_by_default():
    results, players = withdrawal_event()
    rows = standings(results, players, "total", withdrawn={"Ann": 3})
    ann = next(row for row in rows if row.name == "Ann")
    assert ann.missed == 2 and ann.total == 4 * 10, "average: her two rounds' 20 counted for four"
    assert ann.place == 1 and ann.withdrew_after == "withdrew after round 2"
    zero = next(
        row for row in standings(results, players, "total", sit_out="zero", withdrawn={"Ann": 3}) if row.name == "Ann"
    )
    assert zero.missed == 2 and zero.total == 20


def test_an_event_may_rank_withdrawn_players_below_the_rest():
    results, players = withdrawal_event()
    rows = standings(results, players, "total", withdrawn={"Ann": 3}, withdrawn_ranked=BELOW)
    assert rows[-1].name == "Ann" and rows[-1].place == len(players)
    # Seen at an evening: the best total stood last, and nothing anywhere said why.
    assert rows[-1].total < min(row.total for row in rows[:-1])
    assert rows[-1].notes[0] == ("withdrawn: this event places withdrawn players after the rest, whatever their total")
    assert rows[-1].placed_after == "withdrawn: placed after the rest, as the event ranks them"
    assert not any(row.placed_after or any("withdrawn" in note for note in row.notes) for row in rows[:-1])


def test_a_penalty_is_added_to_the_players_total_once_its_round_is_complete_with_its_reason():
    results, players = withdrawal_event()
    revoke = Penalty(4, "Bob", 25, "a revoke", table=1)
    later = Penalty(5, "Cy", 10, "slow play")
    plain = {row.name: row for row in standings(results, players, "total")}
    rows = {row.name: row for row in standings(results, players, "total", penalties=[revoke, later])}
    assert rows["Bob"].total == plain["Bob"].total + 25 and rows["Bob"].penalties == 25
    assert "penalty +25 in round 4, table 1: a revoke" in rows["Bob"].notes
    assert rows["Cy"].total == plain["Cy"].total, "round 5 is not complete: its penalty waits"


def one_round_where_the_total_and_the_placements_disagree():
    """The tables' placements (each table's own winner) and the totals rank the four otherwise."""
    return [
        table(1, 1, ["Ann", "Cy"], ["5", "8"], 1, finished=True),
        table(1, 2, ["Bob", "Di"], ["A", ""], 1, finished=True),
    ], ["Ann", "Bob", "Cy", "Di"]


def test_where_the_highest_total_wins_the_total_ranks_first_and_placements_only_break_ties():
    results, players = one_round_where_the_total_and_the_placements_disagree()
    rows = standings(results, players, "total", lowest_wins=False)
    totals = {row.name: row.total for row in rows}
    assert totals["Cy"] > totals["Ann"] > totals["Bob"] > totals["Di"]
    assert [row.name for row in rows] == ["Cy", "Ann", "Bob", "Di"]
    by_placement = standings(results, players, "placement", lowest_wins=False)
    assert [row.name for row in by_placement] != [row.name for row in rows], "the placements rank otherwise"


def test_a_missed_round_adds_the_players_own_average_placement_points_too():
    results, players = withdrawal_event()
    rows = {row.name: row for row in standings(results, players, "placement", withdrawn={"Ann": 3})}
    ann = rows["Ann"]
    own = {row.name: row for row in standings(results[:4], ["Ann"], "placement")}["Ann"].placement
    assert ann.missed == 2 and ann.tables == 2
    assert ann.placement == own + own * 2 / 2, "her two rounds' placement points counted for four"
    assert ann.placement > own


@pytest.mark.parametrize(
    "option, value, words",
    [
        ("mode", "fastest", "scoring must be one of"),
        ("sit_out", "skip", "a sit-out counts as one of"),
        ("withdrawn_ranked", "first", "withdrawn players rank one of"),
    ],
)
def test_an_unknown_rule_of_the_event_is_refused_by_name(option, value, words):
    results, players = withdrawal_event()
    chosen = {"mode": "total", option: value}
    with pytest.raises(ValueError, match=words):
        standings(results, players, **chosen)


def five_rounds_one_played_brilliantly():
    """Ann plays round 1 alone brilliantly (5 a table) and withdraws; the rest play all five at 10."""
    others = ["Bob", "Cy", "Di", "Eve"]
    results = [
        table(1, 1, ["Ann", "Bob"], ["5", "5 5"], 1, finished=True),
        table(1, 2, ["Cy", "Di"], ["5 5"] * 2, 1, finished=True),
    ]
    for round_ in range(2, 6):
        results += [
            table(round_, 1, ["Bob", "Cy"], ["5 5", "5 5"], 1, finished=True),
            table(round_, 2, ["Di", "Eve"], ["5 5", "5 5"], 1, finished=True),
        ]
    return results, ["Ann", *others]


@pytest.mark.parametrize("sit_out", ["average", "zero"])
def test_one_round_of_five_then_a_withdrawal_never_wins_whatever_the_missed_round_rule(sit_out):
    results, players = five_rounds_one_played_brilliantly()
    rows = standings(results, players, "total", sit_out=sit_out, withdrawn={"Ann": 2})
    ann = next(row for row in rows if row.name == "Ann")
    assert rows[-1] is ann and ann.place == len(players) and ann.below
    assert "played 1 of 5 rounds: fewer than half, placed after those who played half or more" in ann.notes
    others = [row for row in rows if row is not ann]
    assert all(row.total > ann.total for row in others), "her total alone would have won"


def test_half_the_rounds_played_keeps_a_place_among_the_rest_and_a_late_arrival_is_held_to_the_same():
    results, players = five_rounds_one_played_brilliantly()
    # Eve arrived for round 2: four of five rounds played, placed with the rest.
    rows = {row.name: row for row in standings(results, players, "total")}
    assert not rows["Eve"].below and rows["Eve"].tables == 4
    # Three rounds complete: Ann's one of three is fewer than half; after two, one of two is half.
    assert standings(results[:6], players, "total")[-1].name == "Ann"
    assert not {row.name: row for row in standings(results[:4], players, "total")}["Ann"].below


def test_a_missed_round_at_the_average_rounds_halves_away_from_zero_and_says_how():
    """Ann keeps two aces and then three (an ace counts 1) and misses round 3: her average 2.5
    counts 3, as every number the app rounds (Python's round() would make it 2), and the
    standings say how it was reached."""
    results = [
        table(1, 1, ["Ann", "Bob"], ["A A", "5 5"], 1, finished=True),
        table(2, 1, ["Ann", "Bob"], ["A A A", "5 5"], 1, finished=True),
        table(3, 1, ["Bob", "Cy"], ["5 5", "5 5"], 1, finished=True),
    ]
    ann = next(row for row in standings(results, ["Ann", "Bob", "Cy"], "total") if row.name == "Ann")
    assert ann.missed == 1 and ann.total == 5 + 3
    assert "1 missed round at the average of the 2 played: 5 × 1 ÷ 2 = 3 (2.5, halves away from zero)" in ann.notes


def test_the_settings_are_stored_and_posted_by_these_words():
    # An event's settings are kept in the database and sent by the forms by these words: a new
    # word would leave every stored event unreadable.
    from scorekeeper.tournament import standings as module

    assert module.SCORING_MODES == ("total", "placement")
    assert module.SIT_OUT_RULES == ("average", "zero")
    assert module.SHORT_TREATMENTS == ("prorated", "missed", "adjusted")
    assert tuple(module.ADJUSTMENTS) == ("average-plus", "average", "average-minus")
    assert module.WITHDRAWN_RANKINGS == ("with-the-rest", "below")


@pytest.mark.parametrize(
    "mode, lowest_wins, words",
    [
        ("total", True, "lowest total; ties: more placement points, then more table wins"),
        ("total", False, "highest total; ties: more placement points, then more table wins"),
        ("placement", True, "most placement points; ties: lowest total, then more table wins"),
        ("placement", False, "most placement points; ties: highest total, then more table wins"),
    ],
)
def test_how_the_standings_rank_in_words(mode, lowest_wins, words):
    assert tie_breaks(mode, lowest_wins) == words
    if lowest_wins:
        assert tie_breaks(mode) == words, "Crates: the lowest total wins unless the event says otherwise"


def test_a_table_result_is_a_table_still_playing_unless_said_otherwise():
    # Given its round, number and game alone: not closed, and its game plays on.
    playing = TableResult(1, 1, score_game(Game(configure("crates"), ("Ann", "Bob")), [hand(Ann="K", Bob="")]))
    assert not playing.closed and not playing.final and (playing.treatment, playing.level) == ("prorated", "average")
    rows = {row.name: row for row in standings([playing], ["Ann", "Bob"], "total")}
    assert rows["Ann"].playing == "round 1, table 1: hand 2 of 15, 10 so far" and rows["Ann"].place == 0
    with pytest.raises(FrozenInstanceError):
        playing.closed = True  # a result is read from its game, never changed by hand


def test_a_short_table_locked_without_a_reason_says_none():
    short = table(1, 1, SHORT, ["K 5"] * 4, 6, closed=True, treatment=ADJUSTED)
    full = table(1, 2, FULL[0], ["5"] * 4, 15)
    rows = {row.name: row for row in standings([short, full], SHORT + FULL[0], "total")}
    assert rows["Ann"].notes == [
        "round 1: locked after hand 6 of 15, adjusted (average: the round's average 450 → 450)"
    ]


def test_an_adjusted_table_with_no_finished_table_to_average_counts_as_missed_and_says_so():
    short = table(1, 1, SHORT, ["K 5"] * 4, 6, closed=True, treatment=ADJUSTED, level=AVERAGE_PLUS, reason="x")
    rows = standings([short], SHORT, "total")
    assert [row.notes for row in rows] == [
        [
            "round 1: locked after hand 6 of 15, adjusted (average-plus) — no finished table to average: counted as missed"
        ]
    ] * 4


def eights_locked_after(hands: int) -> TableResult:
    """Crazy Eights to a score (no fixed length), locked after ``hands`` hands of 5 points each."""
    game = Game(configure("crazy-eights"), ("Ann", "Bob"))
    return TableResult(1, 1, score_game(game, [hand(Ann="", Bob="5")] * hands), closed=True)


NO_LENGTH = "prorated — a game with no fixed length has nothing to scale to: counted as missed"
NOTHING = "adjusted (average-plus) — no finished table to average: counted as missed"


@pytest.mark.parametrize(
    "result, averaged, counts_as, lock_words, short",
    [
        (table(1, 1, SHORT, ["K 5"] * 4, 6), True, "", "", False),
        (table(1, 1, SHORT, ["5"] * 4, 15, closed=True, finished=True), True, "", "", False),
        (
            table(1, 1, SHORT, ["5"] * 4, 0, closed=True),
            True,
            "counted as missed",
            "locked before hand 1: counted as missed",
            False,
        ),
        (
            table(1, 1, SHORT, ["5"] * 4, 6, closed=True, treatment=MISSED),
            True,
            "counted as missed",
            "locked after hand 6 of 15, counted as missed",
            True,
        ),
        (
            table(1, 1, SHORT, ["5"] * 4, 6, closed=True, treatment=ADJUSTED, level=AVERAGE_PLUS),
            True,
            "adjusted (average-plus)",
            "locked after hand 6 of 15, adjusted (average-plus)",
            True,
        ),
        (
            table(1, 1, SHORT, ["5"] * 4, 6, closed=True, treatment=ADJUSTED, level=AVERAGE_PLUS),
            False,
            NOTHING,
            f"locked after hand 6 of 15, {NOTHING}",
            True,
        ),
        (table(1, 1, SHORT, ["5"] * 4, 6, closed=True), True, "prorated", "locked after hand 6 of 15, prorated", True),
        (eights_locked_after(2), True, NO_LENGTH, f"locked after hand 2, {NO_LENGTH}", True),
    ],
    ids=[
        "playing",
        "finished",
        "before hand 1",
        "missed",
        "adjusted",
        "nothing to average",
        "prorated",
        "no fixed length",
    ],
)
def test_how_a_table_locked_unfinished_counts_in_every_outputs_words(result, averaged, counts_as, lock_words, short):
    assert result.counts_as(averaged) == counts_as and result.lock_words(averaged) == lock_words
    assert result.short is short
    if averaged:
        assert (result.counts_as(), result.lock_words()) == (counts_as, lock_words), "averaged unless said otherwise"


@pytest.mark.parametrize(
    "points, lowest_wins, kind",
    [
        (25, True, "penalty"),
        (1, True, "penalty"),
        (-10, True, "adjustment"),
        (0, True, "adjustment"),
        (-25, False, "penalty"),
        (10, False, "adjustment"),
    ],
)
def test_points_against_the_player_are_a_penalty_and_for_them_an_adjustment(points, lowest_wins, kind):
    assert penalty_kind(points, lowest_wins) == kind
    if lowest_wins:
        assert penalty_kind(points) == kind, "the lowest total wins unless said otherwise"
    assert Penalty(2, "Ann", points, "a revoke").words(lowest_wins) == f"{kind} {points:+d} in round 2: a revoke"


def test_a_penalty_says_its_table_where_it_was_given_at_one():
    assert Penalty(2, "Ann", 25, "a revoke", table=3).words() == "penalty +25 in round 2, table 3: a revoke"
    assert Penalty(2, "Ann", 25, "a revoke").words() == "penalty +25 in round 2: a revoke"
    with pytest.raises(FrozenInstanceError):
        Penalty(2, "Ann", 25, "a revoke").points = 0


@pytest.mark.parametrize(
    "value, whole",
    [(Fraction(1, 2), 1), (Fraction(1, 3), 0), (Fraction(-1, 2), -1), (Fraction(0), 0), (Fraction(3, 2), 2)],
)
def test_halves_round_away_from_zero(value, whole):
    assert round_half_away(value) == whole


@pytest.mark.parametrize("value, shown", [(25 / 3, 8.3), (2.25, 2.3), (-2.25, -2.3), (6.0, 6.0), (0.04, 0.0)])
def test_placement_points_are_shown_to_a_tenth_halves_away_from_zero(value, shown):
    assert tenths(value) == shown


def test_a_game_with_no_complete_hand_has_nothing_to_prorate():
    score = score_game(Game(configure("crates"), ("Ann", "Bob")), [])
    assert cards_share(score) is None and prorated(score) is None


def test_prorating_scales_the_points_and_keeps_the_dummys_start_apart():
    # The World Series: 4 hands of 2, 1, 1, 2 cards; Figgy starts at -50. After two hands (3 of
    # the game's 6 cards) Figgy's 2 points × 6 ÷ 3 = 4, on top of the -50 start.
    game = Game(configure("crates-world-series"), ("Ann", "Figgy", "Bob"))
    score = score_game(game, [hand(Ann="", Figgy="2", Bob="K")] * 2)
    scaled = prorated(score)
    assert scaled is not None and scaled["Figgy"][0] == -50 + round_half_away(Fraction(40 * 6, 3))
    assert scaled["Figgy"][1] == f"-50 + 40 × 6 ÷ 3 cards = {scaled['Figgy'][0]}"


def test_a_players_line_counts_the_hands_played_and_says_when_they_withdrew():
    rows = {row.name: row for row in standings(round_three(), EVERYONE, "total", withdrawn={"Eve": 1, "Ivy": 3})}
    assert rows["Ann"].hands == 6 and rows["Eve"].hands == 15 and not rows["Ann"].provisional
    assert rows["Eve"].by_round == {3: 450} and rows["Ann"].by_round == {3: 516}
    assert (rows["Eve"].withdrew_after, rows["Ivy"].withdrew_after, rows["Ann"].withdrew_after) == (
        "withdrew before round 1",
        "withdrew after round 2",
        "",
    )
    assert PlayerStanding("Zed").hands == 0
    assert PlayerStanding("Zed", withdrawn_from=2).withdrew_after == "withdrew after round 1"


@pytest.mark.parametrize("points, shown", [(25 / 3, "8.3"), (6.0, "6"), (2.5, "2.5")])
def test_placement_points_are_shown_with_one_decimal_and_no_trailing_zero(points, shown):
    assert PlayerStanding("Ann", placement=points).placement_shown == shown


@pytest.mark.parametrize("lowest_wins, first, last", [(True, "Cy", "Di"), (False, "Di", "Cy")])
def test_a_prorated_short_table_gives_placement_points_and_a_win_by_its_prorated_totals(lowest_wins, first, last):
    # 6 of 15 hands at 10, 10, 1 and 30 points a hand: 129, 129, 13 and 387 once prorated.
    short = table(1, 1, SHORT, ["K", "Q", "A", "5"], 6, closed=True)
    rows = {row.name: row for row in standings([short], SHORT, "placement", lowest_wins=lowest_wins)}
    assert [(rows[name].total, rows[name].placement, rows[name].wins) for name in (first, "Ann", "Bob", last)] == [
        (rows[first].total, 3, 1),
        (129, 1.5, 0),
        (129, 1.5, 0),
        (rows[last].total, 0, 0),
    ]
    assert {rows[first].total, rows[last].total} == {13, 387}


def test_an_adjusted_table_wins_nobody_a_table_and_shows_the_average_to_a_tenth():
    rows = {row.name: row for row in standings(round_three(treatment=ADJUSTED), EVERYONE, "total", round_=3)}
    assert rows["Ann"].wins == 0
    short = table(3, 1, SHORT, ["K 5"] * 4, 6, closed=True, treatment=ADJUSTED, reason="a fire alarm")
    total, how = adjusted(short, Fraction(11047, 30), lowest_wins=True)
    assert (total, how) == (
        368,
        "locked after hand 6 of 15, adjusted (average: the round's average 368.2 → 368): a fire alarm",
    )


def test_while_a_round_plays_on_a_locked_table_says_what_it_counts_and_a_game_to_a_score_its_hand():
    eights = Game(configure("crazy-eights"), ("Eve", "Fay"))
    playing = TableResult(1, 2, score_game(eights, [hand(Eve="", Fay="5")] * 2))
    rows = {
        row.name: row
        for row in standings(
            [table(1, 1, SHORT, ["K 5"] * 4, 6, closed=True), playing], SHORT + ["Eve", "Fay"], "total"
        )
    }
    assert rows["Ann"].playing == "round 1, table 1: locked after hand 6 of 15, counts 516"
    assert rows["Eve"].playing == "round 1, table 2: hand 3, 10 so far"


def test_by_total_a_tie_goes_to_more_placement_points():
    # Ann and Bob both total 11; Bob drew his second table (half a point), Ann lost hers.
    results = [
        table(1, 1, ["Ann", "Cy"], ["A", "K"], 1, finished=True),
        table(1, 2, ["Bob", "Di"], ["A", "2"], 1, finished=True),
        table(2, 1, ["Ann", "Di"], ["K", "A"], 1, finished=True),
        table(2, 2, ["Bob", "Cy"], ["K", "Q"], 1, finished=True),
    ]
    rows = standings(results, ["Ann", "Bob", "Cy", "Di"], "total")
    assert [(row.name, row.total, row.placement) for row in rows][:2] == [("Bob", 11, 1.5), ("Ann", 11, 1)]


def test_a_tie_on_points_and_total_goes_to_more_table_wins():
    # Ann and Bob: 1 point and 11 each; Ann won a table outright, Bob shared both of his.
    results = [
        table(1, 1, ["Ann", "Cy"], ["A", "K"], 1, finished=True),
        table(1, 2, ["Bob", "Di"], ["A", "A"], 1, finished=True),
        table(2, 1, ["Ann", "Di"], ["K", "A"], 1, finished=True),
        table(2, 2, ["Bob", "Cy"], ["K", "K"], 1, finished=True),
    ]
    rows = standings(results, ["Ann", "Bob", "Cy", "Di"], "placement")
    assert [(row.name, row.placement, row.total, row.wins, row.place) for row in rows][1:3] == [
        ("Ann", 1, 11, 1, 2),
        ("Bob", 1, 11, 0, 3),
    ]
    by_total = standings(results, ["Ann", "Bob", "Cy", "Di"], "total")
    assert [(row.name, row.total, row.placement, row.wins) for row in by_total][1:3] == [
        ("Ann", 11, 1, 1),
        ("Bob", 11, 1, 0),
    ]


def test_a_player_placed_below_still_stands_before_those_without_a_complete_round():
    results = [
        table(1, 1, ["Ann", "Bob"], ["A", "8"], 1, finished=True),  # Bob 50, and withdrawn: below
        table(2, 1, ["Ann", "Eve"], ["A", "A"], 1),  # Eve, late, still playing round 2
    ]
    rows = standings(results, ["Ann", "Bob", "Eve"], "total", withdrawn={"Bob": 2}, withdrawn_ranked=BELOW)
    assert [(row.name, row.place) for row in rows] == [("Ann", 1), ("Bob", 2), ("Eve", 0)]


def test_three_missed_rounds_at_the_average_of_two_say_the_exact_half():
    results = [
        result
        for number in range(1, 6)
        for result in (
            table(number, 1, ["Bob", "Cy"], ["A", "K"], 1, finished=True),
            table(
                number,
                2,
                ["Ann", "Di"] if number <= 2 else ["Di", "Ed"],
                ["A" if number == 1 else "A A A A", "K"] if number <= 2 else ["A", "K"],
                1,
                finished=True,
            ),
        )
    ]
    ann = next(row for row in standings(results, ["Ann", "Bob", "Cy", "Di", "Ed"], "total") if row.name == "Ann")
    assert "3 missed rounds at the average of the 2 played: 5 × 3 ÷ 2 = 8 (7.5, halves away from zero)" in ann.notes
