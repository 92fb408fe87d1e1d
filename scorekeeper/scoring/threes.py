"""Scoring leftovers where threes cover other cards (Crates, 000 "Scoring threes"; Craits, 003).

The rule: a hand of nothing but threes counts -50 a three. Otherwise a three may
cover ("pair with") any eligible card, that is any card but an eight; the pair is a
new eligible card worth 3, and pairing goes on until no bare three remains, so a
three may also cover another three or a pair. The player chooses the pairings.

Why the choice below is the lowest score: a pile of threes with at most one other
card at its foot scores 3 however many threes it holds, so the score is
``eights + uncovered cards + 3 x piles``. Covering a card worth ``v`` with a three
of its own adds a pile (+3) and removes ``v``; stacking that three on a pile adds
nothing. So every card worth more than 3 is covered, highest first, while threes
last; spare threes go on an existing pile; and with no card worth more than 3, one
pile is made anyway (paid by the first three whatever it does), on the best card
there is. ``tests/test_threes_optimal.py`` checks this against an exhaustive search
of every legal sequence of pairings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .cards import Card, Rank

THREE_POINTS = 3
ONLY_THREES_POINTS = -50


@dataclass(frozen=True)
class CoverPile:
    """Threes stacked on one card, or on each other when ``base`` is None: the pile scores 3."""

    threes: tuple[Card, ...]
    base: Card | None

    points = THREE_POINTS

    @property
    def is_cover(self) -> bool:
        """False for a lone three that had nothing to cover (beside eights only)."""
        return self.base is not None or len(self.threes) > 1

    @property
    def compact(self) -> str:
        """``3→6`` (a three covers the 6), ``3→3→6`` (another covers that pair), ``3→3``."""
        labels = [three.label for three in self.threes]
        if self.base is not None:
            labels.append(self.base.label)
        return "→".join(labels)

    @property
    def description(self) -> str:
        if self.base is None:
            if len(self.threes) == 1:
                return "3 with nothing to cover"
            return f"{self.compact}: threes cover each other"
        if len(self.threes) == 1:
            return f"3 covers {self.base.label}"
        return f"{self.compact}: 3 covers {self.base.label}, more threes cover the pair"


@dataclass(frozen=True)
class ScoredCard:
    card: Card
    points: int


@dataclass(frozen=True)
class LeftoverScore:
    """One player's leftovers scored: the total and how it was reached."""

    cards: tuple[Card, ...]
    total: int
    only_threes: bool = False
    piles: tuple[CoverPile, ...] = ()
    uncovered: tuple[ScoredCard, ...] = ()

    @property
    def went_out(self) -> bool:
        return not self.cards

    @property
    def covers(self) -> tuple[CoverPile, ...]:
        return tuple(pile for pile in self.piles if pile.is_cover)

    @property
    def compact(self) -> str:
        """The covering in a few characters, e.g. ``3→6 3→2``; empty when nothing was covered."""
        return " ".join(pile.compact for pile in self.covers)

    def breakdown(self) -> list[tuple[str, int]]:
        """Lines a player can check by eye: what each part of the hand scored."""
        if self.went_out:
            return [("went out", 0)]
        if self.only_threes:
            return [(f"{len(self.cards)} × 3, nothing else", self.total)]
        lines = [(pile.description, pile.points) for pile in self.piles]
        lines += [(scored.card.label, scored.points) for scored in self.uncovered]
        return lines


def score_with_threes(
    cards: Iterable[Card],
    points: Callable[[Card], int],
    coverable: Callable[[Card], bool],
) -> LeftoverScore:
    """Score leftovers choosing the covering that gives the lowest total.

    ``points`` gives the value of a card that is not a three; ``coverable`` says
    which cards a three may cover (in Crates, all but eights).
    """
    hand = tuple(cards)
    threes = sorted((card for card in hand if card.rank is Rank.THREE), key=_by_rank)
    others = [card for card in hand if card.rank is not Rank.THREE]
    if not hand:
        return LeftoverScore(hand, 0)
    if not others:
        return LeftoverScore(hand, ONLY_THREES_POINTS * len(threes), only_threes=True)

    by_value = sorted(others, key=lambda card: (-points(card), _by_rank(card)))
    eligible = [card for card in by_value if coverable(card)]
    worth_covering = sum(1 for card in eligible if points(card) > THREE_POINTS)
    covered = min(len(threes), worth_covering) or min(len(threes), len(eligible), 1)
    bases = eligible[:covered]

    piles: list[CoverPile] = []
    if bases:
        spare = tuple(threes[covered:])
        piles = [CoverPile((three,), base) for three, base in zip(threes, bases, strict=False)]
        piles[0] = CoverPile(spare + piles[0].threes, piles[0].base)
    elif threes:
        piles = [CoverPile(tuple(threes), None)]
    rest = eligible[covered:] + [card for card in by_value if not coverable(card)]
    rest.sort(key=lambda card: (-points(card), _by_rank(card)))
    uncovered = tuple(ScoredCard(card, points(card)) for card in rest)
    total = sum(pile.points for pile in piles) + sum(scored.points for scored in uncovered)
    return LeftoverScore(hand, total, piles=tuple(piles), uncovered=uncovered)


def _by_rank(card: Card) -> tuple[int, int]:
    return card.sort_key
