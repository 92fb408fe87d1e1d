"""Creights (002): Crates' cards with its own 7 and threes that cancel one card each."""

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring import Card, Rank, configure, parse_record
from scorekeeper.scoring.rulesets.crates import CARD_POINTS
from scorekeeper.scoring.threes import nullify_with_threes
from tests.support.helpers import cards

RULES = configure("creights")


def exhaustive_minimum(hand: list[Card]) -> int:
    """Every way for each three to cancel one other card (not an eight) or nothing; a cancelled
    card scores 0 and, if it is a three, cancels nothing itself; no card is cancelled twice."""
    if not hand:
        return 0
    if all(card.rank is Rank.THREE for card in hand):
        return -50 * len(hand)
    threes = [i for i, card in enumerate(hand) if card.rank is Rank.THREE]
    value = [3 if card.rank is Rank.THREE else CARD_POINTS[card.rank] for card in hand]
    best = None
    for choice in product(
        *[[None] + [j for j in range(len(hand)) if j != i and hand[j].rank is not Rank.EIGHT] for i in threes]
    ):
        targets = [t for t in choice if t is not None]
        if len(set(targets)) != len(targets):
            continue
        if any(t is not None and i in targets for i, t in zip(threes, choice, strict=True)):
            continue  # a cancelled three cancels nothing
        score = sum(v for j, v in enumerate(value) if j not in targets)
        best = score if best is None else min(best, score)
    return best


hands = st.lists(
    st.sampled_from([Rank.THREE] * 3 + [Rank.EIGHT, Rank.ACE, Rank.SIX, Rank.KING, Rank.TWO]), max_size=7
).map(lambda ranks: [Card(rank) for rank in ranks])


@settings(max_examples=250, deadline=None)
@given(hands)
def test_the_engine_finds_the_lowest_score_of_every_way_to_cancel(hand):
    scored = RULES.score_leftovers(hand)
    assert scored.total == exhaustive_minimum(hand)
    if not scored.only_threes and not scored.went_out:
        assert 3 * len(scored.piles) + sum(item.points for item in scored.uncovered) == scored.total


def test_the_texts_examples_agree_with_crates():
    for text, expected in [("A 2 3 3 6 8 K", 67), ("3 3 8", 53), ("A 3 3 6 7 9 K", 37), ("3 3", -100)]:
        assert RULES.score_leftovers(cards(text)).total == expected


def test_spare_threes_score_more_than_in_crates():
    # A cancelling three still scores 3 (002: "score three points for the 3, but zero for the nullified card").
    assert RULES.score_leftovers(cards("3 3 A A")).total == 5
    assert configure("crates").score_leftovers(cards("3 3 A A")).total == 4


def test_creights_seven_makes_all_but_the_next_player_draw():
    actions = {action.card: action.action for action in RULES.card_actions(4)}
    assert actions["7"] == "every other player except the next one draws a card, in turn"


def test_a_creights_game_replays_over_fifteen_hands():
    data = {
        "format": "scorekeeper-game/1",
        "rules": "creights",
        "players": ["Ann", "Bob", "Cy"],
        "hands": [{"leftovers": {"Ann": ["3", "3", "A", "A"], "Bob": [], "Cy": ["8"]}, "pressures": ["Cy"]}],
    }
    output = parse_record(data).score().to_json()
    assert [side["total"] for side in output["sides"]] == [5, 0, 55] and output["hands_in_game"] == 15


def test_on_a_tie_the_threes_cancel_other_cards_rather_than_each_other():
    # Where the ace counts 1 and the two 2, the threes cancelling them save 1 + 2, one three
    # cancelling the other saves 3: the same total (6). The first way found is kept, each three
    # taking a card, as the phone shows it (static/rules.js keeps the first best too).
    def points(card):
        return {Rank.ACE: 1, Rank.TWO: 2}[card.rank]

    scored = nullify_with_threes(cards("3 3 A 2"), points)
    assert scored.total == 6
    assert [pile.compact for pile in scored.covers] == ["3→2", "3→A"]


def test_threes_cancelling_each_other_pair_in_the_decks_order_and_the_odd_one_scores_alone():
    # The phone shows the same pairs (static/rules.js): spades with hearts, then the diamond alone.
    scored = RULES.score_leftovers(cards("3d 8 3h 3s"))
    assert scored.total == 3 + 3 + 50
    assert [pile.compact for pile in scored.covers] == ["3♠→3♥"]
    assert [(pile.compact, pile.base) for pile in scored.piles][1:] == [("3♦", None)]


def test_cards_left_uncancelled_are_listed_highest_first():
    scored = RULES.score_leftovers(cards("3 A 8 K 2 3"))
    assert [item.card.label for item in scored.uncovered] == ["8", "A"]
