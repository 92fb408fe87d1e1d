import pytest

from scorekeeper.scoring import Card, InvalidCard, Rank, Suit


@pytest.mark.parametrize(
    "token, rank, suit",
    [
        ("A", Rank.ACE, None),
        ("a", Rank.ACE, None),
        ("2", Rank.TWO, None),
        ("10", Rank.TEN, None),
        ("T", Rank.TEN, None),
        ("t", Rank.TEN, None),
        ("10h", Rank.TEN, Suit.HEARTS),
        ("TH", Rank.TEN, Suit.HEARTS),
        ("QS", Rank.QUEEN, Suit.SPADES),
        ("qs", Rank.QUEEN, Suit.SPADES),
        ("Kd", Rank.KING, Suit.DIAMONDS),
        ("3c", Rank.THREE, Suit.CLUBS),
        ("JK", Rank.JOKER, None),
        ("jk", Rank.JOKER, None),
        ("J", Rank.JACK, None),
        (" 8 ", Rank.EIGHT, None),
    ],
)
def test_card_tokens_are_read_case_insensitively(token, rank, suit):
    assert Card.parse(token) == Card(rank, suit)


@pytest.mark.parametrize("token", ["", "1", "11", "Z", "10x", "JKH", "KK", "S", "0", "3 3", "-"])
def test_unknown_card_tokens_are_refused_with_the_token_named(token):
    with pytest.raises(InvalidCard, match="card"):
        Card.parse(token)


def test_a_non_text_card_is_refused():
    with pytest.raises(InvalidCard):
        Card.parse(10)  # type: ignore[arg-type]


def test_a_joker_has_no_suit():
    with pytest.raises(InvalidCard):
        Card(Rank.JOKER, Suit.SPADES)


def test_canonical_token_and_label():
    assert Card.parse("TH").token == "10h"
    assert Card.parse("TH").label == "10♥"
    assert Card.parse("jk").token == "JK"
    assert Card.parse("q").label == "Q"


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        Card.parse("Z")
