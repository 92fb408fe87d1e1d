"""000 "Scoring threes" and 003 "Scoring threes", rule by rule."""

import pytest

from scorekeeper.scoring import RefereeError
from scorekeeper.scoring.cards import Rank
from scorekeeper.scoring.threes import not_an_eight, score_with_threes
from tests.support.helpers import cards, crates


def total(text: str, **options) -> int:
    return crates(**options).score_leftovers(cards(text)).total


def test_worked_example_one_three_covers_the_six_and_the_other_the_two():
    # 000: "A, 2, 3, 3, 6, 8, K. One three should cover the 6, and the other should
    # cover the 2 ... The total score would then be 50 + 10 + 3 + 3 + 1 = 67 points"
    scored = crates().score_leftovers(cards("A 2 3 3 6 8 K"))
    assert scored.total == 67
    assert sorted(pile.base.label for pile in scored.covers) == ["2", "6"]


def test_worked_example_three_covers_three_beside_an_eight():
    # 000: "a player is left with just 3, 3, 8. The threes are themselves eligible
    # cards, so one of them covers the other, resulting in a score of 53."
    assert total("3 3 8") == 53


def test_worked_example_from_craits():
    # 003: "A, 3, 3, 6, 7, 9, K ... the threes may be used to cancel out the point
    # values of the 6 and 9 ... 1 + 3 + 3 + 20 + 10, or 37 points."
    scored = crates().score_leftovers(cards("A 3 3 6 7 9 K"))
    assert scored.total == 37
    assert sorted(pile.base.label for pile in scored.covers) == ["6", "9"]


@pytest.mark.parametrize("text, expected", [("3", -50), ("3 3", -100), ("3 3 3 3", -200)])
def test_only_threes_count_minus_fifty_each(text, expected):
    assert total(text) == expected


def test_only_threes_with_two_decks():
    assert total("3 3 3 3 3 3", decks=2) == -300


def test_threes_beside_eights_only_cover_each_other():
    assert total("3 8") == 53
    assert total("3 8 8") == 103
    assert total("3 3 3 8") == 53


def test_an_eight_is_never_covered():
    scored = crates().score_leftovers(cards("3 8 A"))
    assert [pile.base.label for pile in scored.covers] == ["A"]
    assert scored.total == 53


def test_a_lone_three_beside_other_cards_scores_three():
    assert total("3 K 8") == 3 + 50


def test_more_threes_than_other_cards_stack_on_a_pair():
    # One three covers the 6; the other two cover the pair and each other: one pile of 3.
    assert total("3 3 3 6") == 3
    scored = crates().score_leftovers(cards("3 3 3 6"))
    assert len(scored.piles) == 1 and scored.piles[0].compact == "3→3→3→6"


def test_threes_beside_aces_cover_one_ace_and_stack_the_rest():
    # Covering a second ace would make a second pile (+3) to save 1: stacking is better.
    assert total("3 A") == 3
    assert total("3 A A") == 4
    assert total("3 3 A A") == 4


def test_threes_prefer_the_highest_cards():
    assert total("3 5 A K") == 3 + 1 + 10
    assert total("3 3 2 4 9 10") == 3 + 3 + 20 + 15


def test_a_joker_counts_forty_and_can_be_covered():
    assert total("JK K", jokers=True) == 50
    assert total("3 JK K", jokers=True) == 13
    assert total("3 JK 8", jokers=True) == 53


def test_a_joker_is_refused_when_jokers_are_off():
    with pytest.raises(RefereeError, match="jokers are off"):
        total("3 JK")


def test_going_out_scores_nothing():
    scored = crates().score_leftovers(())
    assert scored.total == 0 and scored.went_out


@pytest.mark.parametrize(
    "text, expected",
    [
        ("A", 1),
        ("2", 20),
        ("4", 15),
        ("5", 30),
        ("6", 30),
        ("7", 20),
        ("8", 50),
        ("9", 30),
        ("10", 25),
        ("J", 10),
        ("Q", 10),
        ("K", 10),
    ],
)
def test_card_points_table(text, expected):
    # 000 "Card Points Table"
    assert total(text) == expected


def test_the_breakdown_adds_up_and_shows_each_cover():
    scored = crates().score_leftovers(cards("A 2 3 3 6 8 K"))
    lines = scored.breakdown()
    assert sum(points for _, points in lines) == scored.total
    assert ("3 covers 6", 3) in lines and ("3 covers 2", 3) in lines
    assert scored.compact == "3→6 3→2"


def test_cards_left_uncovered_are_listed_highest_first():
    # The explanation a player reads lists what the threes did not cover, the costliest first.
    scored = crates().score_leftovers(cards("A 3 K 8 5"))
    assert [pile.base.label for pile in scored.covers] == ["5"]
    assert [(item.card.label, item.points) for item in scored.uncovered] == [("8", 50), ("K", 10), ("A", 1)]


def test_a_card_worth_exactly_three_is_left_bare_and_the_spare_three_joins_a_pile():
    # Covering a card worth 3 makes a pile worth 3: nothing saved. Only cards worth more than 3
    # take a three of their own; here the second three goes on the king's pile (3→3→K).
    def points(card):
        return 3 if card.rank is Rank.QUEEN else 10

    scored = score_with_threes(cards("3 3 K Q"), points, not_an_eight)
    assert [(len(pile.threes), pile.base.label) for pile in scored.covers] == [(2, "K")]
    assert [item.card.label for item in scored.uncovered] == ["Q"]
    assert scored.total == 3 + 3
