"""A season's ladder: its players ranked over its evenings by points, best N evenings or rating."""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.club.ladder import (
    BEST,
    LADDER_RULES,
    POINTS,
    RATING,
    Evening,
    LadderRefusal,
    evening_points,
    ladder,
    ladder_rule_words,
)


def season():
    """Three evenings, five players; E arrives too late to be placed on the second.

    11 (8 Jan): A 1st, B and C tied 2nd, D 4th    -> A 3, B 1.5, C 1.5, D 0
    12 (15 Jan): B 1st, D 2nd, A 3rd, E unranked  -> B 2, D 1, A 0
    13 (22 Jan): C 1st, A 2nd, D 3rd, E 4th       -> C 3, A 2, D 1, E 0
    """
    return [
        Evening(11, "January 8", "2026-01-08", {"A": 1, "B": 2, "C": 2, "D": 4}),
        Evening(12, "January 15", "2026-01-15", {"B": 1, "D": 2, "A": 3, "E": 0}),
        Evening(13, "January 22", "2026-01-22", {"C": 1, "A": 2, "D": 3, "E": 4}),
    ]


def table(rows):
    return [(row.player, row.place, row.tied, row.score) for row in rows]


def test_an_evening_gives_one_point_per_player_below_and_a_half_per_player_tied():
    assert evening_points({"A": 1, "B": 2, "C": 2, "D": 4}) == {"A": 3, "B": 1.5, "C": 1.5, "D": 0}


def test_twenty_players_alone_earn_nineteen_down_to_nothing_and_two_tied_first_earn_eighteen_and_a_half():
    assert sorted(evening_points({n: n for n in range(1, 21)}).values()) == list(range(20))
    tied = evening_points({0: 1, **{n: n for n in range(1, 20)}})
    assert tied[0] == tied[1] == 18.5


def test_an_unranked_player_earns_nothing_and_is_below_nobody():
    """B and C share last place among the ranked: E, unranked, does not lift them."""
    assert evening_points({"A": 1, "B": 2, "C": 2, "E": 0}) == {"A": 2, "B": 0.5, "C": 0.5}


def test_points_sum_every_evening():
    """A 3+0+2 = 5, C 1.5+3 = 4.5, B 1.5+2 = 3.5, D 0+1+1 = 2, E 0 (placed last on the 22nd)."""
    rows = ladder(season(), POINTS)
    assert table(rows) == [
        ("A", 1, False, 5),
        ("C", 2, False, 4.5),
        ("B", 3, False, 3.5),
        ("D", 4, False, 2),
        ("E", 5, False, 0),
    ]
    assert rows[0].counted == (11, 12, 13) and rows[0].by_evening == {11: 3, 12: 0, 13: 2}
    assert (rows[4].evenings, rows[4].counted, rows[4].unranked) == (2, (12, 13), (12,))


def test_best_one_counts_each_players_best_evening_and_ties_share_the_place():
    """Best 1 of 3: A 3 (the 8th) and C 3 (the 22nd) share 1st, so B's 2 is 3rd; D's 1 on the
    15th and the 22nd counts once, the earlier; E has only 0s."""
    rows = ladder(season(), BEST, best=1)
    assert table(rows) == [
        ("A", 1, True, 3),
        ("C", 1, True, 3),
        ("B", 3, False, 2),
        ("D", 4, False, 1),
        ("E", 5, False, 0),
    ]
    assert [row.counted for row in rows] == [(11,), (13,), (12,), (12,), (12,)]


def test_best_counts_exactly_n_evenings():
    """Best 2 of 3: A 3+2, C 1.5+3, B 1.5+2, D 1+1 (the 8th's 0 left out), E 0+0."""
    rows = ladder(season(), BEST, best=2)
    assert [(row.player, row.score, row.counted) for row in rows] == [
        ("A", 5, (11, 13)),
        ("C", 4.5, (11, 13)),
        ("B", 3.5, (11, 12)),
        ("D", 2, (12, 13)),
        ("E", 0, (12, 13)),
    ]


def test_best_with_fewer_evenings_than_n_sums_all_a_player_has():
    rows = {row.player: row for row in ladder(season(), BEST, best=5)}
    assert (rows["B"].score, rows["B"].counted) == (3.5, (11, 12))
    assert (rows["A"].score, rows["A"].counted) == (5, (11, 12, 13))


def test_of_evenings_with_equal_points_the_earlier_counts_by_date_then_event():
    """A wins 30 (5 Feb) and 20 (1 Feb) and 10 (1 Feb): the 1st of February is the earlier, and
    of its two evenings, event 10 is the earlier."""
    evenings = [
        Evening(30, "late", "2026-02-05", {"A": 1, "B": 2}),
        Evening(20, "early", "2026-02-01", {"A": 1, "B": 2}),
        Evening(10, "early too", "2026-02-01", {"A": 1, "B": 2}),
    ]
    assert ladder(evenings, BEST, best=1)[0].counted == (10,)
    assert ladder(evenings, BEST, best=2)[0].counted == (10, 20)


def test_ties_share_a_place_and_the_next_place_is_skipped():
    """One evening: A 4, B 3, C and D 1.5 each, E 0: C and D are both 3rd, E is 5th."""
    rows = ladder([Evening(1, "one", "2026-03-01", {"A": 1, "B": 2, "C": 3, "D": 3, "E": 5})], POINTS)
    assert [(row.player, row.place, row.tied) for row in rows] == [
        ("A", 1, False),
        ("B", 2, False),
        ("C", 3, True),
        ("D", 3, True),
        ("E", 5, False),
    ]


def test_a_player_never_placed_is_on_the_ladder_last_with_no_place():
    """F came once and finished no round: listed, with no place, below G's 0 points."""
    rows = ladder([Evening(1, "one", "2026-03-01", {"G": 1, "H": 1, "F": 0})], POINTS)
    assert [(row.player, row.place, row.score) for row in rows] == [("G", 1, 0.5), ("H", 1, 0.5), ("F", 0, 0)]
    assert (rows[2].evenings, rows[2].unranked, rows[2].by_evening) == (1, (1,), {1: 0})


def test_tied_rows_read_in_name_order_casefolded_and_otherwise_by_key():
    evening = Evening(1, "one", "2026-03-01", {3: 1, 1: 1, 2: 1, 10: 1})
    by_name = ladder([evening], POINTS, names={1: "zed", 2: "Alf", 3: "bea", 10: "alf"})
    assert [row.player for row in by_name] == [2, 10, 3, 1]
    assert [row.player for row in ladder([evening], POINTS)] == [1, 10, 2, 3]


def test_rating_ranks_the_seasons_players_and_lists_the_unrated_last():
    """E played but has no rating: listed last with no place, not above D's negative rating.
    Z is rated but played no evening of this season: not on its ladder."""
    ratings = {"A": 25.0, "B": 20.0, "C": 25.0, "D": -3.0, "Z": 40.0}
    rows = ladder(season(), RATING, ratings=ratings)
    assert table(rows) == [
        ("A", 1, True, 25.0),
        ("C", 1, True, 25.0),
        ("B", 3, False, 20.0),
        ("D", 4, False, -3.0),
        ("E", 0, False, 0.0),
    ]
    assert all(row.counted == () for row in rows)
    assert rows[0].by_evening == {11: 3, 12: 0, 13: 2} and rows[4].evenings == 2


@pytest.mark.parametrize(
    "rule, options, field",
    [
        ("elo", {}, "rule"),
        (BEST, {}, "best"),
        (BEST, {"best": 0}, "best"),
        (RATING, {}, "rule"),
    ],
)
def test_a_ladder_is_refused_a_rule_it_cannot_follow(rule, options, field):
    with pytest.raises(LadderRefusal) as refused:
        ladder(season(), rule, **options)
    assert refused.value.field == field


@pytest.mark.parametrize("rule, best, field", [("elo", None, "rule"), (BEST, None, "best"), (BEST, 0, "best")])
def test_a_rule_without_its_choices_has_no_words(rule, best, field):
    with pytest.raises(LadderRefusal) as refused:
        ladder_rule_words(rule, best, 3)
    assert refused.value.field == field


def test_the_rule_reads_in_words_a_club_player_reads():
    assert ladder_rule_words(POINTS, None, 12) == (
        "Sum of each evening's placement points "
        "(1 for every player placed below you that evening, ½ for every player tied with you)"
    )
    assert ladder_rule_words(BEST, 8, 12).startswith("Best 8 of 12 evenings' placement points (1 for every")
    assert ladder_rule_words(RATING, None, 12) == "Rating at the season's end (the cautious rating: mu − 3 sigma)"


@pytest.mark.parametrize(
    "evenings, says",
    [
        (8, "so far every evening counts (8 evenings held)"),
        (1, "so far every evening counts (1 evening held)"),
        (0, "no evening held yet"),
    ],
)
def test_best_n_of_no_more_than_n_evenings_says_every_evening_counts_so_far(evenings, says):
    assert ladder_rule_words(BEST, 8, evenings).startswith("Best 8 evenings' placement points (1 for every")
    assert ladder_rule_words(BEST, 8, evenings).endswith("; " + says)


PLAYERS = "ABCDEF"


@st.composite
def evenings(draw):
    """A season of evenings placed as standings place them: by a score, ties shared, some unranked."""
    held = []
    for event_id in range(1, draw(st.integers(0, 6)) + 1):
        scores = draw(st.dictionaries(st.sampled_from(PLAYERS), st.one_of(st.none(), st.integers(0, 3)), min_size=1))
        placed = [score for score in scores.values() if score is not None]
        places = {player: 0 if s is None else 1 + sum(1 for o in placed if o > s) for player, s in scores.items()}
        held_on = draw(st.sampled_from(["2026-01-08", "2026-01-15"]))
        held.append(Evening(event_id, f"evening {event_id}", held_on, places))
    return held


ratings = st.dictionaries(st.sampled_from(PLAYERS), st.sampled_from([-2.5, 0.0, 12.25, 25.0]))


@settings(max_examples=300, deadline=None)
@given(evenings(), st.integers(0, 3))
def test_points_are_best_n_when_n_is_at_least_the_seasons_evenings(season_, extra):
    assert ladder(season_, POINTS) == ladder(season_, BEST, best=max(1, len(season_) + extra))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.integers(0, 30), st.integers(0, 8)))
def test_an_evenings_points_add_up_to_one_for_every_pair_of_ranked_players(places):
    ranked = sum(1 for place in places.values() if place >= 1)
    points = evening_points(places)
    assert set(points) == {player for player, place in places.items() if place >= 1}
    assert sum(points.values()) == ranked * (ranked - 1) / 2


@settings(max_examples=300, deadline=None)
@given(evenings(), st.sampled_from(LADDER_RULES), st.integers(1, 4), ratings)
def test_places_are_shared_by_equal_scores_and_the_next_place_counts_the_rows_above(season_, rule, best, rated):
    rows = ladder(season_, rule, best=best, ratings=rated)
    assert {row.player for row in rows} == {player for evening in season_ for player in evening.places}
    ranked = [row for row in rows if row.place]
    assert rows[: len(ranked)] == ranked, "the unranked come last"
    assert [row.place for row in ranked] == sorted(row.place for row in ranked)
    for row in ranked:
        assert row.place == 1 + sum(1 for other in ranked if other.score > row.score)
        equal = [other for other in ranked if other.score == row.score]
        assert equal == [other for other in ranked if other.place == row.place]
        assert row.tied == (len(equal) > 1)


@settings(max_examples=300, deadline=None)
@given(evenings(), st.integers(1, 4))
def test_best_n_is_the_most_any_n_of_a_players_evenings_add_up_to(season_, best):
    rows = ladder(season_, BEST, best=best)
    for row in rows:
        points = [evening_points(e.places).get(row.player, 0) for e in season_ if row.player in e.places]
        most = max(sum(chosen) for chosen in combinations(points, min(best, len(points))))
        assert row.score == most
        assert len(row.counted) == min(best, row.evenings)
        assert sum(row.by_evening[event] for event in row.counted) == most


@settings(max_examples=200, deadline=None)
@given(evenings(), st.sampled_from(LADDER_RULES), ratings, st.randoms())
def test_the_ladder_does_not_depend_on_the_order_the_evenings_are_handed_in(season_, rule, rated, random):
    shuffled = list(season_)
    random.shuffle(shuffled)
    assert ladder(shuffled, rule, best=2, ratings=rated) == ladder(season_, rule, best=2, ratings=rated)
