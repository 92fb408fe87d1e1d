import dataclasses

import pytest

from scorekeeper.scoring import Card, InvalidCard, Rank, Suit, parse_cards
from scorekeeper.scoring.cards import STANDARD_RANKS


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


def test_ranks_are_ordered_ace_to_king_then_the_joker():
    ranks = "A 2 3 4 5 6 7 8 9 10 J Q K JK".split()
    assert [rank.value for rank in sorted(Rank, key=lambda rank: rank.order)] == ranks
    assert [rank.order for rank in (Rank.ACE, Rank.TEN, Rank.KING, Rank.JOKER)] == [0, 9, 12, 13]


def test_a_standard_deck_holds_every_rank_but_the_joker():
    assert STANDARD_RANKS == tuple(Rank(value) for value in "A 2 3 4 5 6 7 8 9 10 J Q K".split())


@pytest.mark.parametrize(
    "token, label", [("As", "A♠"), ("10h", "10♥"), ("Qd", "Q♦"), ("2c", "2♣"), ("K", "K"), ("JK", "Joker")]
)
def test_a_card_is_shown_with_its_suits_symbol(token, label):
    assert Card.parse(token).label == label


@pytest.mark.parametrize("token, written", [("AS", "As"), ("th", "10h"), ("qD", "Qd"), ("2C", "2c"), ("k", "K")])
def test_a_card_is_written_as_its_rank_and_lower_case_suit(token, written):
    assert Card.parse(token).token == written
    assert str(Card.parse(token)) == written


def test_cards_sort_by_rank_then_without_a_suit_first_then_spades_hearts_diamonds_clubs():
    hand = parse_cards(["Kc", "Ks", "3h", "Kh", "K", "Kd", "A", "JK", "3s"])
    in_order = sorted(hand, key=lambda card: card.sort_key)
    assert [card.token for card in in_order] == ["A", "3s", "3h", "K", "Ks", "Kh", "Kd", "Kc", "JK"]


def test_parse_cards_keeps_the_order_given():
    assert parse_cards(["K", "3h", "A"]) == (Card(Rank.KING), Card(Rank.THREE, Suit.HEARTS), Card(Rank.ACE))
    assert parse_cards(("JK",)) == (Card(Rank.JOKER),)


def test_a_joker_alias_and_a_suit_after_the_joker():
    assert Card.parse("joker") == Card(Rank.JOKER)
    with pytest.raises(InvalidCard, match="unknown card 'JKs'"):
        Card.parse("JKs")


def test_a_joker_with_a_suit_is_refused_in_words():
    with pytest.raises(InvalidCard, match=r"^a joker has no suit\.$"):
        Card(Rank.JOKER, Suit.SPADES)


def test_a_card_is_a_value_that_cannot_change():
    card = Card.parse("Kh")
    assert hash(card) == hash(Card(Rank.KING, Suit.HEARTS))
    assert len({card, Card.parse("KH"), Card.parse("k")}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = Rank.ACE  # type: ignore[misc]
