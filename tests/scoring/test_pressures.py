"""000 "pressure" and "Pressure penalties"; 003 "Shuffle pressure"."""

import pytest

from scorekeeper.scoring import InvalidOptions, pressure_ladder, pressure_value, score_game
from scorekeeper.scoring.errors import Refusal
from tests.support.helpers import crates, game, hand


def test_each_pressure_doubles_the_one_before():
    assert pressure_ladder(6) == [5, 10, 20, 40, 80, 160]


def test_capped_increase_of_twenty():
    # 000: "5 points, the second 10, the third 20, the fourth 40, the fifth 60 (not 80),
    # the sixth 80 (not 160), the seventh 100 (not 320) and so on."
    assert pressure_ladder(7, cap=20) == [5, 10, 20, 40, 60, 80, 100]


@pytest.mark.parametrize("cap, expected", [(5, [5, 10, 15, 20]), (1, [5, 6, 7, 8]), (1000, [5, 10, 20, 40])])
def test_other_caps(cap, expected):
    assert pressure_ladder(4, cap=cap) == expected


def test_pressure_value_is_the_nth_of_the_ladder():
    assert pressure_value(1) == 5 and pressure_value(5, 20) == 60


@pytest.mark.parametrize("cap", [None, 1, 5, 20])
def test_every_pressure_value_is_its_place_on_the_ladder_whatever_the_cap(cap):
    # A cap of 1, the smallest there is, is a cap like any other: 5, 6, 7, 8, ...
    assert [pressure_value(number, cap) for number in range(1, 8)] == pressure_ladder(7, cap)


@pytest.mark.parametrize("number", [0, -1])
def test_there_is_no_pressure_before_the_first(number):
    # Refused as every refusal is (a sentence a player reads), not a bare ValueError.
    with pytest.raises(Refusal, match="numbered from 1"):
        pressure_value(number)


def test_a_pressure_under_a_cap_below_one_is_refused_as_the_ladder_is():
    with pytest.raises(InvalidOptions, match="at least 1"):
        pressure_value(3, cap=0)


def test_no_pressures_is_an_empty_ladder():
    assert pressure_ladder(0) == []


@pytest.mark.parametrize(
    "count, cap, why",
    [(-1, None, "number of pressures cannot be negative"), (3, 0, "cap must be a whole number of at least 1")],
)
def test_nonsense_ladders_are_refused(count, cap, why):
    with pytest.raises(InvalidOptions, match=why):
        pressure_ladder(count, cap)


#: Three went out during the count; Di, who could not play on it, holds an ace (1 point).
THREE_OUT = {"Ann": "", "Bob": "", "Cy": "", "Di": "A"}


def test_pressures_accumulate_through_the_game_and_score_in_their_hand():
    # 000: "if a partnership gets the first pressure of the game on hand 2, then two
    # pressures on hand 3, the first pressure adds 5 points to the score for hand 2,
    # while the second and third pressures add 10 + 20 = 30 points to the score for
    # hand 3. The next pressure for that partnership will be worth 40 points."
    table = game(partnerships="Ann+Cy Bob+Di")
    hands = [hand(**THREE_OUT), hand(("Ann",), **THREE_OUT), hand(("Cy", "Ann"), **THREE_OUT)]
    result = score_game(table, hands)
    side = result.side("Ann & Cy")
    assert side.pressures == (0, 5, 30)
    assert side.next_pressure == 40
    assert result.side("Bob & Di").next_pressure == 5


def test_partners_share_one_ladder_and_opponents_have_their_own():
    table = game(partnerships="Ann+Cy Bob+Di")
    result = score_game(table, [hand(("Ann", "Bob", "Cy", "Di", "Cy"), **THREE_OUT)])
    assert [p.value for p in result.hands[0].pressures] == [5, 5, 10, 10, 20]
    assert result.side("Ann & Cy").hands == (35,)
    assert result.side("Bob & Di").hands == (15 + 1,)


def test_players_alone_each_have_their_own_ladder():
    table = game("Ann Bob Cy", rules=crates(pressure_increase_cap=20))
    hands = [hand(("Ann",) * 5 + ("Bob",), Ann="", Bob="", Cy="K")]
    result = score_game(table, hands)
    assert result.side("Ann").hands == (5 + 10 + 20 + 40 + 60,)
    assert result.side("Bob").hands == (5,)


def test_a_player_who_went_out_can_still_take_a_pressure():
    table = game("Ann Bob")
    result = score_game(table, [hand(("Ann",), Ann="", Bob="K")])
    assert result.side("Ann").hands == (5,)
    assert result.side("Bob").hands == (10,)
