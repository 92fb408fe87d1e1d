"""The two rules for threes left in hand: Crates' covering and Creights' cancelling.

Both score a hand of nothing but threes -50 a three, and let a three take any card but an
eight; they differ in what a three may take after that.

Crates (000 "Scoring threes"; Craits, 003), ``score_with_threes``. The rule: a hand of nothing but threes counts -50 a three. Otherwise a three may
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
there is. ``tests/scoring/test_threes_optimal.py`` checks this against an exhaustive search
of every legal sequence of pairings.

Creights (002), ``nullify_with_threes``: each three scores 3 and cancels one other card
that is not an eight; a three may cancel another three, and a cancelled card (a three
too) cancels nothing. ``tests/scoring/test_creights.py`` checks it against an exhaustive search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .cards import Card, Rank
from .leftovers import THREE_POINTS, CoverPile, LeftoverScore, ScoredCard

ONLY_THREES_POINTS = -50


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


def not_an_eight(card: Card) -> bool:
    """What a three may cover or cancel: any card but an eight (000, 002)."""
    return card.rank is not Rank.EIGHT


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
    eligible = [card for card in others if not_an_eight(card)]
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
    rest = eligible[cancelled:] + [card for card in others if not not_an_eight(card)]
    rest.sort(key=lambda c: (-points(c), c.sort_key))
    uncovered = tuple(ScoredCard(card, points(card)) for card in rest)
    total = THREE_POINTS * len(piles) + sum(item.points for item in uncovered)
    return LeftoverScore(hand, total, piles=tuple(piles), uncovered=uncovered)


def _by_rank(card: Card) -> tuple[int, int]:
    return card.sort_key
