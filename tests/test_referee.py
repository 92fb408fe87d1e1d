"""The referee's checks: each refusal names the hand, the player and the problem."""

import pytest

from scorekeeper.scoring import Game, Hand, RefereeError, score_game
from scorekeeper.scoring.rulesets import SINGLE_HAND

from .helpers import cards, crates, game, hand


def refusal(hands, table=None) -> str:
    with pytest.raises(RefereeError) as caught:
        score_game(table or game("Ann Bob Cy Di"), hands)
    return str(caught.value)


def test_five_kings_with_one_deck_names_who_holds_them():
    message = refusal([hand(Ann="", Bob="K K K", Cy="", Di="K K")])
    assert message == ("Hand 1: 5 × K in the leftovers, but one deck has only 4. Check Bob's and Di's cards.")


def test_the_count_is_per_hand_not_per_game():
    hands = [hand(Ann="K K", Bob="K K", Cy="", Di="")] * 2
    assert score_game(game(), hands).side("Ann").total == 40


def test_two_decks_hold_eight_of_a_rank():
    table = game(rules=crates(decks=2))
    score_game(table, [hand(Ann="K K K K", Bob="K K K K", Cy="", Di="")])
    assert "2 decks have only 8" in refusal([hand(Ann="K K K K K", Bob="K K K K", Cy="", Di="")], table)


def test_the_same_suited_card_twice_in_one_deck():
    message = refusal([hand(Ann="Qs", Bob="", Cy="QS", Di="")])
    assert message.startswith("Hand 1: 2 × Q♠ in the leftovers, but one deck has only 1")


def test_jokers_only_when_they_are_on():
    message = refusal([hand(Ann="", Bob="JK", Cy="", Di="")])
    assert message == "Hand 1: Bob has a joker, but jokers are off in this game"


def test_two_jokers_per_deck():
    table = game(rules=crates(jokers=True))
    assert score_game(table, [hand(Ann="JK", Bob="JK", Cy="", Di="")]).side("Ann").total == 40
    assert "3 × JK" in refusal([hand(Ann="JK JK", Bob="JK", Cy="", Di="")], table)


def test_every_player_needs_leftovers():
    message = refusal([hand(Ann="", Bob="K", Cy="")])
    assert message == "Hand 1, Di: no leftovers given (an empty list if Di went out)"


def test_leftovers_for_someone_not_at_the_table():
    message = refusal([hand(Ann="", Bob="K", Cy="", Di="", Zed="A")])
    assert message == "Hand 1: 'Zed' is not a player of this game"


def test_a_pressure_to_someone_not_at_the_table():
    message = refusal([hand(("Zed",), Ann="", Bob="K", Cy="", Di="")])
    assert message == "Hand 1: pressure to 'Zed', who is not a player of this game"


def test_a_later_hand_is_named():
    hands = [hand(Ann="", Bob="", Cy="", Di="")] * 5 + [hand(Ann="8 8 8", Bob="8 8", Cy="", Di="")]
    assert refusal(hands).startswith("Hand 6: 5 × 8")


def test_check_leftovers_for_a_single_hand_speaks_of_one_hand():
    with pytest.raises(RefereeError, match="5 × K in one hand, but one deck has only 4"):
        crates().check_leftovers({SINGLE_HAND: cards("K K K K K")})


def test_game_and_hand_objects_are_plain_data():
    table = Game(crates(), ("Ann", "Bob"))
    assert Hand({"Ann": (), "Bob": ()}) == Hand({"Ann": (), "Bob": ()}, ())
    assert table.sides[0].name == "Ann"
