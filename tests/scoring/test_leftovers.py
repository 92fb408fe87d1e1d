"""A player's leftovers scored (``scoring/leftovers.py``): the parts a player checks by eye, each
written as the score sheet shows it, and the lines of the breakdown adding up to the total."""

import dataclasses

import pytest

from scorekeeper.scoring import Card, CoverPile, LeftoverScore, ScoredCard, ScoreStep, parse_cards
from scorekeeper.scoring.leftovers import THREE_POINTS


def card(token: str) -> Card:
    return Card.parse(token)


def test_a_pile_of_threes_scores_three_however_many_threes_it_holds():
    # 000 "Scoring threes": a three covering a card, or threes stacked, count 3 as a pile.
    assert THREE_POINTS == 3
    assert CoverPile(parse_cards(["3"]), card("6")).points == 3
    assert CoverPile(parse_cards(["3", "3", "3"]), card("K")).points == 3


@pytest.mark.parametrize(
    "threes, base, is_cover, compact, description",
    [
        (["3"], "6", True, "3→6", "3 covers 6"),
        (["3h", "3s"], "K", True, "3♥→3♠→K", "3♥→3♠→K: 3 covers K, more threes cover the pair"),
        (["3", "3"], None, True, "3→3", "3→3: threes cover each other"),
        (["3", "3", "3"], None, True, "3→3→3", "3→3→3: threes cover each other"),
        (["3"], None, False, "3", "3 with nothing to cover"),
    ],
)
def test_a_pile_says_what_it_covered(threes, base, is_cover, compact, description):
    pile = CoverPile(parse_cards(threes), None if base is None else card(base))
    assert pile.is_cover is is_cover
    assert pile.compact == compact
    assert pile.description == description


def test_a_step_shows_its_sign_and_the_cards_that_made_it():
    step = ScoreStep("×2", parse_cards(["2h", "2s"]), 44)
    assert step.label == "×2 (2♥ 2♠)"
    assert ScoreStep("÷2", parse_cards(["Kh"]), 5).label == "÷2 (K♥)"


def test_going_out_is_one_line_of_nothing():
    scored = LeftoverScore((), 0)
    assert scored.went_out
    assert scored.breakdown() == [("went out", 0)]
    assert scored.compact == "" and scored.steps_compact == "" and scored.how == ""


def test_only_threes_is_one_line_counting_them():
    scored = LeftoverScore(parse_cards(["3", "3"]), -100, only_threes=True)
    assert not scored.went_out
    assert scored.breakdown() == [("2 × 3, nothing else", -100)]


def test_the_breakdown_lists_the_piles_then_each_card_left_bare():
    lone = CoverPile(parse_cards(["3"]), None)
    six = CoverPile(parse_cards(["3"]), card("6"))
    scored = LeftoverScore(
        parse_cards(["3", "3", "6", "8", "A"]),
        3 + 3 + 50 + 1,
        piles=(six, lone),
        uncovered=(ScoredCard(card("8"), 50), ScoredCard(card("A"), 1)),
    )
    assert not scored.only_threes
    assert scored.covers == (six,)  # the lone three covered nothing
    assert scored.compact == "3→6"
    assert scored.how == "3→6"
    assert scored.breakdown() == [("3 covers 6", 3), ("3 with nothing to cover", 3), ("8", 50), ("A", 1)]
    assert sum(points for _, points in scored.breakdown()) == scored.total


def test_covers_are_written_one_after_another():
    first = CoverPile(parse_cards(["3"]), card("6"))
    second = CoverPile(parse_cards(["3"]), card("2"))
    scored = LeftoverScore(parse_cards(["3", "3", "6", "2"]), 6, piles=(first, second))
    assert scored.compact == "3→6 3→2"


def test_steps_follow_the_sum_of_the_cards_in_the_breakdown():
    # 001: each deuce doubles the hand, each pair of identical cards halves it.
    scored = LeftoverScore(
        parse_cards(["2h", "Kh", "Kh"]),
        22,
        uncovered=(ScoredCard(card("2h"), 2), ScoredCard(card("Kh"), 10), ScoredCard(card("Kh"), 10)),
        steps=(ScoreStep("×2", parse_cards(["2h"]), 44), ScoreStep("÷2", parse_cards(["Kh", "Kh"]), 22)),
    )
    assert scored.steps_compact == "×2 ÷2"
    assert scored.how == "×2 ÷2"
    assert scored.breakdown() == [
        ("2♥", 2),
        ("K♥", 10),
        ("K♥", 10),
        ("cards", 22),
        ("×2 (2♥)", 44),
        ("÷2 (K♥ K♥)", 22),
    ]


def test_how_joins_the_covering_and_the_steps():
    scored = LeftoverScore(
        parse_cards(["3", "6", "2h"]),
        6,
        piles=(CoverPile(parse_cards(["3"]), card("6")),),
        uncovered=(ScoredCard(card("2h"), 0),),
        steps=(ScoreStep("×2", parse_cards(["2h"]), 6),),
    )
    assert scored.how == "3→6 ×2"


def test_scored_leftovers_are_values_that_cannot_change():
    pile = CoverPile(parse_cards(["3"]), card("6"))
    parts = [
        pile,
        ScoredCard(card("8"), 50),
        ScoreStep("×2", parse_cards(["2h"]), 4),
        LeftoverScore(parse_cards(["8"]), 50),
    ]
    for part in parts:
        assert hash(part) == hash(dataclasses.replace(part))
        with pytest.raises(dataclasses.FrozenInstanceError):
            part.points = 0  # type: ignore[misc, union-attr]
