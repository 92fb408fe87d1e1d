"""The covering of threes is an optimisation: prove it against every legal sequence of pairings."""

from collections import Counter
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring import Card, Rank
from scorekeeper.scoring.rulesets.crates import CARD_POINTS
from tests.support.helpers import crates

RULES = crates(jokers=True, decks=2)


def exhaustive_minimum(hand: list[Card]) -> int:
    """Try every legal sequence of pairings (000 "Scoring threes") and keep the lowest score.

    A state is the bare threes, the values of the other eligible items (cards that
    are not eights, and pairs worth 3), and the eights. A move pairs one bare three
    with another bare three or with any eligible item; the pair is a new eligible
    item worth 3. A state with no move left is scored as it stands.
    """
    if not hand:
        return 0
    threes = sum(1 for card in hand if card.rank is Rank.THREE)
    if threes == len(hand):
        return -50 * threes
    eights = sum(1 for card in hand if card.rank is Rank.EIGHT)
    eligible = tuple(sorted(CARD_POINTS[c.rank] for c in hand if c.rank not in (Rank.THREE, Rank.EIGHT)))

    @cache
    def best(bare: int, items: tuple[int, ...]) -> int:
        outcomes = []
        if bare >= 2:
            outcomes.append(best(bare - 2, tuple(sorted(items + (3,)))))
        if bare >= 1:
            for index in range(len(items)):
                rest = items[:index] + items[index + 1 :]
                outcomes.append(best(bare - 1, tuple(sorted(rest + (3,)))))
        if not outcomes:
            return 3 * bare + sum(items) + 50 * eights
        return min(outcomes)

    return best(threes, eligible)


ranks = st.sampled_from([rank for rank in Rank])
threes_heavy = st.sampled_from([Rank.THREE] * 4 + [Rank.EIGHT, Rank.ACE, Rank.SIX, Rank.JOKER, Rank.KING])
hands = st.one_of(st.lists(ranks, max_size=12), st.lists(threes_heavy, max_size=12)).map(
    lambda picked: [Card(rank) for rank in picked]
)


@settings(max_examples=600, deadline=None)
@given(hands)
def test_engine_finds_the_lowest_score_of_every_legal_pairing(hand):
    assert RULES.score_leftovers(hand).total == exhaustive_minimum(hand)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_the_covering_shown_is_legal_and_adds_up_to_the_total(hand):
    scored = RULES.score_leftovers(hand)
    if scored.only_threes or scored.went_out:
        return
    used = []
    for pile in scored.piles:
        assert pile.threes and all(three.rank is Rank.THREE for three in pile.threes)
        assert pile.base is None or pile.base.rank is not Rank.EIGHT
        used += list(pile.threes) + ([pile.base] if pile.base else [])
    used += [item.card for item in scored.uncovered]
    assert Counter(used) == Counter(hand)
    assert all(item.card.rank is not Rank.THREE for item in scored.uncovered)
    assert 3 * len(scored.piles) + sum(item.points for item in scored.uncovered) == scored.total


def test_the_oracle_itself_agrees_with_the_worked_examples():
    # If the oracle were wrong, the property test could not be trusted.
    def parse(text):
        return [Card.parse(token) for token in text.split()]

    assert exhaustive_minimum(parse("A 2 3 3 6 8 K")) == 67
    assert exhaustive_minimum(parse("3 3 8")) == 53
    assert exhaustive_minimum(parse("A 3 3 6 7 9 K")) == 37
