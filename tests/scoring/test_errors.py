"""The one refusal: its status says how a server answers it, its message reads as a sentence."""

import pytest

from scorekeeper.scoring.errors import (
    AskFirst,
    InvalidCard,
    InvalidRecord,
    RefereeError,
    Refusal,
    ScoringError,
    Stale,
    TooMany,
    sentence,
)


@pytest.mark.parametrize(
    "refusal, status",
    [
        (Refusal("no"), 422),  # refused as it stands
        (RefereeError("no"), 422),
        (InvalidRecord("no"), 422),
        (Stale("no"), 409),  # something changed meanwhile
        (AskFirst("no"), 409),  # asked first, confirmed by sending it again
        (TooMany("no", None, 30), 429),  # too many tries
    ],
)
def test_each_refusal_carries_how_a_server_answers_it(refusal, status):
    assert refusal.status == status


def test_too_many_says_how_long_to_wait_and_the_others_do_not():
    assert TooMany("too many tries", "code", 30).retry_after == 30
    assert Refusal("no").retry_after is None
    assert Stale("no").retry_after is None


def test_a_refusal_carries_its_field_and_no_details_of_its_own():
    refusal = InvalidCard("unknown card", "cards")
    assert refusal.field == "cards"
    assert Refusal("no").field is None
    assert refusal.details() == {}
    assert isinstance(refusal, ScoringError) and isinstance(refusal, ValueError)


@pytest.mark.parametrize(
    "message, shown",
    [
        ("a joker has no suit", "a joker has no suit."),
        ("a joker has no suit  ", "a joker has no suit."),
        ("Done.", "Done."),
        ("Really?", "Really?"),
        ("Stop!", "Stop!"),
        ("and so on…", "and so on…"),
        ("10 ends with a digit", "10 ends with a digit."),
        ("", ""),
        ("   ", ""),
    ],
)
def test_a_refusal_always_ends_as_a_sentence_does(message, shown):
    assert str(Refusal(message)) == shown


@pytest.mark.parametrize(
    "message, shown",
    [
        ("the name is too long", "The name is too long."),
        ("  the name is too long  ", "The name is too long."),
        ("x", "X."),
        ("Already a sentence.", "Already a sentence."),
        ("is it?", "Is it?"),
        ("stop!", "Stop!"),
        ("ends with a number 7", "Ends with a number 7."),
        ("", ""),
        ("  ", ""),
    ],
)
def test_sentence_gives_a_capital_first_and_a_full_stop_last(message, shown):
    assert sentence(message) == shown
