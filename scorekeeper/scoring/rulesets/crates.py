"""Crates as played around Boston (000), and the Skill-hand World Series with Figgy (000)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import Card, Rank
from ..errors import InvalidSeating, RefereeError
from ..pressures import pressure_value
from ..threes import ONLY_THREES_POINTS, THREE_POINTS, CoverPile, LeftoverScore, ScoredCard, score_with_threes
from .base import SINGLE_HAND, CardAction, RuleSet, option

if TYPE_CHECKING:
    from ..game import Game

#: 000 "Card Points Table"; the joker's 40 is the Standig Joker adjunct.
#: Threes are scored by the covering rule in ``threes``.
CARD_POINTS = {
    Rank.ACE: 1,
    Rank.TWO: 20,
    Rank.FOUR: 15,
    Rank.FIVE: 30,
    Rank.SIX: 30,
    Rank.SEVEN: 20,
    Rank.EIGHT: 50,
    Rank.NINE: 30,
    Rank.TEN: 25,
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
    Rank.JOKER: 40,
}

#: 000 "The Deal": 8 cards down to 1, then back up to 8.
CRATES_SCHEDULE = (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)

CARDS_PER_RANK = 4
JOKERS_PER_DECK = 2

_ACTIONS = (
    ("A", "used in a 2-sequence (the count): adds 1"),
    ("2", "starts the count, or adds 2 to it"),
    ("3", "none (covers a card when scoring)"),
    ("4", "skip the next player"),
    ("5", "cards for everyone: each other player draws one, in turn order"),
    ("6", "same player plays again (draws if unable)"),
    ("7", "next player but one takes a card"),
    ("8", "wild: change to any suit"),
    ("9", "wild: change to the other suit of the same colour"),
    ("10", "reverse the direction of play"),
    ("J", "none"),
    ("Q", "none"),
    ("K", "none"),
)
_FEW_PLAYER_ACTIONS = {
    "7": "next player takes a card",
    "J": "previous player takes a card",
}
_JOKER_ACTION = (
    "JK",
    "previous player plays again, direction unchanged; transparent to suit and rank; adds 0 to the count",
)


@dataclass(frozen=True)
class Crates(RuleSet):
    id = "crates"
    name = "Crates"
    summary = (
        "15 hands dealt 8 down to 1 and back to 8; 2 to 5 players alone, or 4 in two partnerships; lowest total wins."
    )

    jokers: bool = option(
        False,
        "bool",
        "Jokers (Standig adjunct)",
        "Two jokers per deck, worth 40 when left in hand; a three can cover one.",
    )
    pressure_increase_cap: int | None = option(
        None,
        "optional_int",
        "Pressure increase cap",
        "Blank: each pressure doubles (5, 10, 20, 40, 80). 20: the increase stops at 20 (5, 10, 20, 40, 60, 80).",
        minimum=1,
    )
    decks: int = option(1, "int", "Decks", "One deck, or two shuffled together.", choices=(1, 2))

    def check_seating(self, game: Game) -> None:
        count = len(game.players)
        if not 2 <= count <= 5:
            raise InvalidSeating(f"{self.name} is for 2 to 5 players, not {count}")
        if game.has_partnerships:
            check_opposite_partners(game)

    def schedule(self) -> tuple[int, ...]:
        return CRATES_SCHEDULE

    def card_points(self, card: Card) -> int:
        """000's table; threes are scored by the covering rule, not by this table."""
        if card.rank is Rank.JOKER and not self.jokers:
            raise RefereeError("a joker is not in the deck: jokers are off")
        return CARD_POINTS[card.rank]

    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        return score_with_threes(cards, self.card_points, _coverable)

    def pressure_value(self, number: int) -> int:
        return pressure_value(number, self.pressure_increase_cap)

    def check_leftovers(self, leftovers: Mapping[str, Sequence[Card]]) -> None:
        """No joker unless jokers are on; no more copies of a card than the decks hold."""
        for player, cards in leftovers.items():
            if not self.jokers and any(card.rank is Rank.JOKER for card in cards):
                who = "there is" if player == SINGLE_HAND else f"{player} has"
                raise RefereeError(f"{who} a joker, but jokers are off in this game")
        by_rank = Counter(card.rank for cards in leftovers.values() for card in cards)
        for rank, count in by_rank.items():
            limit = self.decks * (JOKERS_PER_DECK if rank is Rank.JOKER else CARDS_PER_RANK)
            if count > limit:
                holders = [p for p, cards in leftovers.items() if any(c.rank is rank for c in cards)]
                raise RefereeError(_too_many(f"{count} × {rank.value}", limit, self.decks, holders))
        by_card = Counter(card for cards in leftovers.values() for card in cards if card.suit is not None)
        for card, count in by_card.items():
            if count > self.decks:
                holders = [p for p, cards in leftovers.items() if card in cards]
                raise RefereeError(_too_many(f"{count} × {card.label}", self.decks, self.decks, holders))

    def card_actions(self, players: int) -> tuple[CardAction, ...]:
        """000's table of card actions; with two or three players 7 and J change (000)."""
        few = players <= 3
        actions = [
            CardAction(card, _FEW_PLAYER_ACTIONS.get(card, action) if few else action) for card, action in _ACTIONS
        ]
        if self.jokers:
            actions.append(CardAction(*_JOKER_ACTION))
        return tuple(actions)

    def card_values(self) -> tuple[tuple[str, str], ...]:
        values = [
            (rank.value, "3, or covers a card (not an 8); only threes: −50 each")
            if rank is Rank.THREE
            else (rank.value, str(CARD_POINTS[rank]))
            for rank in Rank
            if rank is not Rank.JOKER
        ]
        if self.jokers:
            values.append(("JK", str(CARD_POINTS[Rank.JOKER])))
        return tuple(values)


@dataclass(frozen=True)
class CratesWorldSeries(Crates):
    """000 "Skill-hand World Series": two players and the dummy, hands of 2, 1, 1, 2 cards.

    The rules are those of three-handed Crates; Figgy never deals, starts at -50 and
    never takes a pressure (it goes to the next player to play).
    """

    id = "crates-world-series"
    name = "Crates: Skill-hand World Series"
    #: Every table would need its own dummy: events seat the other games.
    in_events = False
    summary = (
        "Two players and the dummy Figgy; 4 hands of 2, 1, 1, 2 cards; Figgy starts at "
        "-50, never deals and never takes a pressure."
    )

    dummy: str = option("Figgy", "str", "Dummy's name", "The dummy player, conventionally Figgy.")

    def check_seating(self, game: Game) -> None:
        if len(game.players) != 3 or self.dummy not in game.players:
            raise InvalidSeating(
                f"the World Series is two players and the dummy {self.dummy}: "
                f"list three players, {self.dummy} among them"
            )
        if game.has_partnerships:
            raise InvalidSeating("the World Series has no partnerships")
        if game.first_dealer == self.dummy:
            raise InvalidSeating(f"{self.dummy} never deals: choose another first dealer")

    def schedule(self) -> tuple[int, ...]:
        return (2, 1, 1, 2)

    def dealers(self, game: Game) -> tuple[str, ...]:
        return tuple(player for player in game.players if player != self.dummy)

    def starting_score(self, game: Game, player: str) -> int:
        return -50 if player == self.dummy else 0

    def check_pressure(self, game: Game, number: int, player: str) -> None:
        if player == self.dummy:
            raise RefereeError(
                f"Hand {number}: {self.dummy} never takes a pressure: it goes to the next player to play"
            )


def _coverable(card: Card) -> bool:
    """A three covers any card but an eight (000)."""
    return card.rank is not Rank.EIGHT


def check_opposite_partners(game: Game) -> None:
    players = game.players
    if len(players) != 4 or len(game.partnerships) != 2 or any(len(t) != 2 for t in game.partnerships):
        raise InvalidSeating("partnerships are for four players, in two pairs")
    for first, second in game.partnerships:
        if (players.index(first) - players.index(second)) % 4 != 2:
            raise InvalidSeating(f"partners sit opposite: {first} and {second} are seated next to each other")


def _too_many(what: str, limit: int, decks: int, holders: list[str]) -> str:
    """E.g. "5 × K in the leftovers, but one deck has only 4. Check Bob's and Di's cards."

    ``holders`` are the players holding the card; a single hand (from the calculator) is
    named as such.
    """
    held = "one deck has" if decks == 1 else f"{decks} decks have"
    if len(holders) == 1 and holders[0] == SINGLE_HAND:
        return f"{what} in one hand, but {held} only {limit}"
    names = " and ".join(f"{player}'s" for player in holders)
    return f"{what} in the leftovers, but {held} only {limit}. Check {names} cards."


@dataclass(frozen=True)
class Creights(Crates):
    """002 "Creights": Crates' cards and 15 hands, with two differences.

    Its 7 makes every other player except the next one draw a card. Its threes "nullify":
    each three scores 3 and cancels one other card that is not an eight; a three may cancel
    another three, and a cancelled card (a three too) cancels nothing. Only threes: −50 each.
    """

    id = "creights"
    name = "Creights"
    summary = "Crates as 002 tells it: a 7 makes all but the next player draw; each three cancels one card."

    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        return nullify_with_threes(cards, self.card_points)

    def card_actions(self, players: int) -> tuple[CardAction, ...]:
        seven = "every other player except the next one draws a card, in turn"
        return tuple(
            CardAction(action.card, seven) if action.card == "7" else action for action in super().card_actions(players)
        )


def nullify_with_threes(cards: Sequence[Card], points: Callable[[Card], int]) -> LeftoverScore:
    """The lowest score under Creights' rule: each three cancels one card (not an eight).

    With ``k`` threes cancelled by other threes, ``t - 2k`` threes are left to cancel other
    cards, highest first; every choice of ``k`` is tried.
    """
    hand = tuple(cards)
    threes = sorted((card for card in hand if card.rank is Rank.THREE), key=lambda card: card.sort_key)
    others = sorted((card for card in hand if card.rank is not Rank.THREE), key=lambda c: (-points(c), c.sort_key))
    if not hand:
        return LeftoverScore(hand, 0)
    if not others:
        return LeftoverScore(hand, ONLY_THREES_POINTS * len(threes), only_threes=True)
    eligible = [card for card in others if _coverable(card)]
    best: tuple[int, int, int] | None = None
    for cancelled_threes in range(len(threes) // 2 + 1):
        cancelled = min(len(eligible), len(threes) - 2 * cancelled_threes)
        saving = THREE_POINTS * cancelled_threes + sum(points(card) for card in eligible[:cancelled])
        if best is None or saving > best[0]:
            best = (saving, cancelled_threes, cancelled)
    assert best is not None
    _, cancelled_threes, cancelled = best
    piles = [CoverPile((threes[i],), eligible[i]) for i in range(cancelled)]
    spare = threes[cancelled:]
    piles += [CoverPile((spare[2 * i],), spare[2 * i + 1]) for i in range(cancelled_threes)]
    piles += [CoverPile((three,), None) for three in spare[2 * cancelled_threes :]]
    rest = eligible[cancelled:] + [card for card in others if not _coverable(card)]
    rest.sort(key=lambda c: (-points(c), c.sort_key))
    uncovered = tuple(ScoredCard(card, points(card)) for card in rest)
    total = THREE_POINTS * len(piles) + sum(item.points for item in uncovered)
    return LeftoverScore(hand, total, piles=tuple(piles), uncovered=uncovered)
