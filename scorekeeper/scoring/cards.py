"""Cards as players name them: ``A``, ``2``..``10`` (or ``T``), ``J``, ``Q``, ``K``, ``JK``.

A suit letter may follow (``10h``, ``QS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from .errors import InvalidCard


class Rank(Enum):
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    JOKER = "JK"

    @property
    def order(self) -> int:
        """Position in the order A, 2, ..., 10, J, Q, K, JK (for sorting and display)."""
        return _RANK_ORDER[self]


_RANK_ORDER = {rank: index for index, rank in enumerate(Rank)}
_RANK_ALIASES = {"T": Rank.TEN, "JOKER": Rank.JOKER}

#: The ranks a standard deck holds four of, in order (no joker).
STANDARD_RANKS = tuple(rank for rank in Rank if rank is not Rank.JOKER)


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


@dataclass(frozen=True)
class Card:
    """A card left in a hand. The suit is optional: Crates scoring never needs it."""

    rank: Rank
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if self.rank is Rank.JOKER and self.suit is not None:
            raise InvalidCard("a joker has no suit")

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read a card token, case-insensitive: ``10h``, ``QS``, ``T``, ``a``, ``JK``."""
        if not isinstance(token, str):
            raise InvalidCard(f"a card must be written as text, not {token!r}")
        return _parsed(token)

    @classmethod
    def _read(cls, token: str) -> Card:
        text = token.strip().upper()
        rank = _parse_rank(text)
        if rank is not None:
            return cls(rank)
        if len(text) >= 2 and text[-1] in _SUIT_LETTERS:
            rank = _parse_rank(text[:-1])
            if rank is not None and rank is not Rank.JOKER:
                return cls(rank, Suit(text[-1]))
        raise InvalidCard(
            f"unknown card {token!r}: use A, 2-10, J, Q, K or JK, optionally with a suit S, H, D or C (e.g. 10h, QS)"
        )

    @property
    def token(self) -> str:
        """The canonical written form, as in a game record: ``10h``, ``Q``, ``JK``."""
        return self.rank.value + (self.suit.value.lower() if self.suit else "")

    @property
    def label(self) -> str:
        """The form to show a player: ``10♥``, ``Q``, ``Joker``."""
        if self.rank is Rank.JOKER:
            return "Joker"
        return str(self.rank.value) + (self.suit.symbol if self.suit else "")

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.rank.order, _SUIT_ORDER[self.suit])

    def __str__(self) -> str:
        return self.token


_SUIT_LETTERS = {suit.value for suit in Suit}
_SUIT_ORDER: dict[Suit | None, int] = {None: 0, **{suit: i + 1 for i, suit in enumerate(Suit)}}


def _parse_rank(text: str) -> Rank | None:
    if text in _RANK_ALIASES:
        return _RANK_ALIASES[text]
    try:
        return Rank(text)
    except ValueError:
        return None


@lru_cache(maxsize=1024)
def _parsed(token: str) -> Card:
    """A card token read (the same few dozen tokens are read at every fold of every log)."""
    return Card._read(token)


def parse_cards(tokens: list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """Parse several card tokens, keeping their order."""
    return tuple(Card.parse(token) for token in tokens)
