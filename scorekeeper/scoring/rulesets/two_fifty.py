"""The double-deck game of 001 with the 250 line ("Contributed by David Walters").

Each player scores their own leftovers: face value, queens and kings 10, the special cards
double (A 22, J 20, 8 16, 5 10); each deuce doubles the hand's score and each set of
identical cards (same rank and suit) halves it. 250 or more loses: the game ends when at
most one player is still below the line. Cards need suits here, to find identical ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, Rank
from ..errors import InvalidSeating, RefereeError
from ..leftovers import LeftoverScore, ScoredCard, ScoreStep
from .base import CardAction, History, Inherent, Seating, option
from .to_a_score import PlayedToAScore

#: 001: "All ordinary cards count their face value; queens and kings count 10. Special cards
#: count twice their face value, i.e. aces count 22, jacks count 20, eights count 16 and fives count 10."
TWO_FIFTY_POINTS: Mapping[Rank, int] = {
    Rank.ACE: 22,
    Rank.TWO: 2,
    Rank.THREE: 3,
    Rank.FOUR: 4,
    Rank.FIVE: 10,
    Rank.SIX: 6,
    Rank.SEVEN: 7,
    Rank.EIGHT: 16,
    Rank.NINE: 9,
    Rank.TEN: 10,
    Rank.JACK: 20,
    Rank.QUEEN: 10,
    Rank.KING: 10,
}
LOSING_LINE = 250
WINNING_LINE = 500
DECKS = 2


@dataclass(frozen=True)
class TwoFifty(PlayedToAScore):
    id = "two-fifty"
    name = "The 250 game (double deck)"
    summary = "Double deck, 5 cards each; deuces double a hand, identical pairs halve it; 250 or more loses."

    needs_suits = True
    inherent_options = {
        "decks": Inherent(DECKS, "is always played with two decks"),
        "jokers": Inherent(False, "has no jokers"),
    }

    five_hundred: bool = option(
        False,
        "bool",
        "The 500 rule",
        "Three or more players: a player past 250 can still win by reaching 500 first.",
    )

    def check_seating(self, game: Seating) -> None:
        super().check_seating(game)
        if self.five_hundred and len(game.players) < 3:
            raise InvalidSeating("the 500 rule is for three or more players", "players")

    def cards_dealt(self, number: int, players: int) -> int:
        return 5

    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        """Face values summed, doubled for each deuce, halved (rounding down) for each identical pair."""
        hand = tuple(cards)
        for card in hand:
            if card.rank is Rank.JOKER:
                raise RefereeError("the 250 game has no jokers")
            if card.suit is None:
                raise RefereeError(
                    f"the 250 game needs suits, to find identical cards: write {card.rank.value}h, "
                    f"{card.rank.value}s, …"
                )
        scored = tuple(ScoredCard(card, TWO_FIFTY_POINTS[card.rank]) for card in hand)
        total = sum(item.points for item in scored)
        steps = []
        for card in hand:
            if card.rank is Rank.TWO:
                total *= 2
                steps.append(ScoreStep("×2", (card,), total))
        for card, count in Counter(hand).items():
            for _ in range(count // 2):
                total //= 2
                steps.append(ScoreStep("÷2", (card, card), total))
        return LeftoverScore(hand, total, uncovered=scored, steps=tuple(steps))

    def leftover_terms(self) -> dict[str, Any]:
        points = {rank.value: points for rank, points in TWO_FIFTY_POINTS.items()}
        return {"points": points, "steps": "deuces_and_pairs", "suits": "all"}

    def end_terms(self, game: Seating) -> dict[str, Any]:
        return {"loss_line": LOSING_LINE, "outright": WINNING_LINE if self.five_hundred else None}

    def is_decided(self, game: Seating, totals: Mapping[str, int], history: History) -> bool:
        """250 or more loses: over when no more than one player is still below the line
        (or, with the 500 rule, when someone reaches 500)."""
        below = sum(1 for total in totals.values() if total < LOSING_LINE)
        return below <= 1 or bool(self.outright_winners(game, totals))

    def outright_winners(self, game: Seating, totals: Mapping[str, int]) -> tuple[str, ...]:
        """001: "allow a player whose score has exceeded 250 to win by reaching 500 before all but one
        player exceeds the 250 score line"; players who reach 500 in the same hand share the win."""
        if not self.five_hundred:
            return ()
        return tuple(side for side, total in totals.items() if total >= WINNING_LINE)

    def decks_in_play(self) -> int:
        return DECKS

    def how_it_scores(self) -> str:
        return (
            "Each player scores the cards left in their own hand. Each deuce doubles the hand's score; "
            "each pair of identical cards (same rank and suit) halves it."
        )

    def how_it_is_won(self) -> str | None:
        rule = (
            f"; or a player past {LOSING_LINE} wins at once by reaching {WINNING_LINE} first"
            if self.five_hundred
            else ""
        )
        return (
            f"{LOSING_LINE} or more loses: the game ends when at most one player is still below {LOSING_LINE}, "
            f"who wins{rule}."
        )

    def card_actions(self, players: int) -> tuple[CardAction, ...]:
        return (
            CardAction("A", "wild: play at any time (not on a J or 2) and choose the suit"),
            CardAction("J", "the next player must play a picture card, any suit"),
            CardAction("8", "the next player misses a turn"),
            CardAction("5", "everyone passes their hand to the right"),
            CardAction("2", "the next player plays a 2 or takes 2 (4, 6, … as deuces follow)"),
        )

    def card_values(self) -> tuple[tuple[str, str], ...]:
        return tuple((rank.value, str(points)) for rank, points in TWO_FIFTY_POINTS.items())
