"""What every rule set has in common (``rulesets/base.py``): options read and said, the deck's
limits, the default scoring and ending, and the words a rule set says unless it has its own."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from scorekeeper.scoring import Card, InvalidOptions, RefereeError, configure
from scorekeeper.scoring.leftovers import LeftoverScore
from scorekeeper.scoring.rulesets.base import SINGLE_HAND, RuleSet, option
from scorekeeper.scoring.text import names_fault
from tests.support.helpers import cards, game


@dataclass(frozen=True)
class Plain(RuleSet):
    """A game with no option of its own that says nothing beyond the defaults: face value, 2 hands."""

    id = "plain"
    name = "Plain"
    summary = "Face value, two hands of 3."
    has_pressures = False

    def check_seating(self, game: object) -> None:
        return None

    def schedule(self) -> tuple[int, ...]:
        return (3, 3)

    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        return LeftoverScore(tuple(cards), len(cards))

    def pressure_value(self, number: int) -> int:
        raise RefereeError("no pressures")


@dataclass(frozen=True)
class Tabled(Plain):
    """A rule set with an option that cannot be hashed (a table of its own)."""

    id = "tabled"
    table: dict[str, int] = option(None, "values", "Table", "")
    scored: list[int] = option(None, "values", "Scored", "")

    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        self.scored.append(len(cards))
        return LeftoverScore(tuple(cards), len(cards))


def test_a_rule_set_without_options_says_it_has_none():
    with pytest.raises(InvalidOptions, match=r"^plain has no option 'jokers' \(its options: none\)\.$") as refused:
        Plain.from_options({"jokers": True})
    assert refused.value.field == "jokers"
    with pytest.raises(InvalidOptions, match=r"its options: jokers, pressure_increase_cap, decks\)\.$"):
        configure("crates", {"wild": 1})


def test_the_start_form_reads_each_options_kind_label_help_choices_and_least_value():
    jokers, cap, decks = configure("crates").option_specs()
    assert (jokers.name, jokers.kind, jokers.label, jokers.default, jokers.choices) == (
        "jokers",
        "bool",
        "Jokers (Standig adjunct)",
        False,
        (),
    )
    assert jokers.help.startswith("Two jokers per deck")
    assert (cap.kind, cap.default, cap.minimum) == ("optional_int", None, 1)
    assert (decks.kind, decks.choices, decks.minimum) == ("int", (1, 2), None)


@pytest.mark.parametrize(
    "rule_set_id, options, message",
    [
        ("crates", {"jokers": 1}, "option 'jokers' must be true or false, not 1"),
        ("crates", {"decks": True}, "option 'decks' must be a whole number, not True"),
        ("crates", {"decks": "2"}, "option 'decks' must be a whole number, not '2'"),
        ("crates", {"decks": 3}, "option 'decks' must be 1 or 2, not 3"),
        ("crates", {"pressure_increase_cap": 0}, "option 'pressure_increase_cap' must be at least 1, not 0"),
        ("crates", {"pressure_increase_cap": 1.5}, "option 'pressure_increase_cap' must be a whole number, not 1.5"),
        ("crates-world-series", {"dummy": "  "}, "option 'dummy' must be a non-empty name, not '  '"),
        ("crates-world-series", {"dummy": 7}, "option 'dummy' must be a non-empty name, not 7"),
    ],
)
def test_an_option_of_the_wrong_kind_is_refused_in_a_sentence_naming_it(rule_set_id, options, message):
    with pytest.raises(InvalidOptions) as refused:
        configure(rule_set_id, options)
    assert str(refused.value) == f"{message}."
    assert refused.value.field == next(iter(options))


def test_the_least_value_and_a_blank_are_taken():
    assert configure("crates", {"pressure_increase_cap": 1}).pressure_increase_cap == 1
    assert configure("crates", {"pressure_increase_cap": None}).pressure_increase_cap is None
    assert configure("crazy-eights-target", {"target": None}).goal(4) == 200


@pytest.mark.parametrize(
    "options, says",
    [
        ({"jokers": 1}, "option 'jokers' cannot be 1"),  # true, but not a yes-or-no
        ({"jokers": True}, "option 'jokers' cannot be true"),
        ({"decks": 2.0}, "option 'decks' cannot be 2.0"),  # two, but not a whole number
    ],
)
def test_an_option_a_game_always_has_one_way_takes_that_value_only_of_that_kind(options, says):
    with pytest.raises(InvalidOptions, match=f"^The 250 game \\(double deck\\) .*: {says}\\.$"):
        configure("two-fifty", options)
    assert configure("two-fifty", {"decks": 2, "jokers": False}) == configure("two-fifty")


def test_by_default_the_schedule_sets_the_deal_the_dealers_and_the_end():
    rules = Plain()
    table = game("Ann Bob Cy", rules=rules)
    assert rules.max_hands() == 2 and [rules.cards_dealt(n, 3) for n in (1, 2)] == [3, 3]
    assert rules.dealers(table) == ("Ann", "Bob", "Cy")
    assert rules.starting_score(table, "Ann") == 0
    assert not rules.is_decided(table, {"Ann": 0}, [{"Ann": 1}])
    assert rules.is_decided(table, {"Ann": 0}, [{"Ann": 1}] * 2)
    assert rules.hand_points(table, {p: rules.score_leftovers(cards("K 2")) for p in table.players}) == {
        "Ann": 2,
        "Bob": 2,
        "Cy": 2,
    }
    assert rules.end_terms(table) == {"hands": 2}


def test_by_default_a_rule_set_says_its_own_cards_and_the_lowest_total_after_the_schedule():
    rules = Plain()
    assert rules.scoring_rules() == (
        ("Scoring", "Each player scores the cards left in their own hand. After 2 hands the lowest total wins."),
    )
    assert rules.describe() == () and rules.options_in_words() == ()  # no rules in words beyond its options
    assert rules.pressures_in_words() == "off" and rules.pressure_terms() is None
    assert configure("crazy-eights").pressures_in_words() == "off"
    assert rules.card_actions(4) == () and rules.card_values() == () and rules.collect_terms() is None
    assert rules.threes_verb == "covers"
    assert (configure("crates").threes_verb, configure("creights").threes_verb) == ("covers", "cancels")


def test_a_game_ending_on_a_score_must_say_its_end_and_its_leftovers_to_the_phone_itself():
    @dataclass(frozen=True)
    class Endless(Plain):
        id = "endless"

        def max_hands(self) -> int | None:
            return None

    table = game("Ann Bob", rules=Endless())
    with pytest.raises(NotImplementedError, match="endless does not describe its end to the phone"):
        Endless().end_terms(table)
    with pytest.raises(NotImplementedError, match="plain does not describe its leftovers to the phone"):
        Plain().leftover_terms()
    assert Endless().how_it_is_won() is None
    assert Endless().scoring_rules() == (("Scoring", "Each player scores the cards left in their own hand."),)


def test_an_option_in_words_is_on_or_off_or_its_value():
    assert dict(configure("crates", {"jokers": True, "decks": 2}).options_in_words()) == {
        "Jokers (Standig adjunct)": "on",
        "Pressure increase cap": "none (each pressure doubles)",
        "Decks": "2",
    }


def test_a_rule_set_that_cannot_be_remembered_is_scored_afresh_each_time():
    rules = Tabled(table={"K": 10}, scored=[])
    assert rules.score_leftovers(cards("K 2")).total == 2
    assert rules.score_leftovers(cards("K 2")).total == 2
    assert rules.scored == [2, 2]
    # A rule set that can be remembered is scored once for the same cards.
    assert configure("crates").score_leftovers(cards("K 2")) is configure("crates").score_leftovers(cards("K 2"))


def test_a_single_hand_may_be_empty_and_a_hand_may_have_one_player_out():
    rules = configure("crazy-eights")
    rules.check_leftovers({SINGLE_HAND: []})
    rules.check_leftovers({"Ann": [], "Bob": cards("K")})
    with pytest.raises(RefereeError, match="^only one player can go out, but Ann and Cy have no cards\\.$"):
        rules.check_leftovers({"Ann": [], "Bob": cards("K"), "Cy": []})


@pytest.mark.parametrize(
    "rule_set_id, options, held, message",
    [
        ("crates", {}, {SINGLE_HAND: "K K K K K"}, "5 × K in one hand, but one deck has only 4."),
        (
            "crates",
            {},
            {"Ann": "K K K K K", "Bob": ""},
            "5 × K in the leftovers, but one deck has only 4. Check Ann's cards.",
        ),
        (
            "crates",
            {"jokers": True},
            {"Ann": "JK JK", "Bob": "JK"},
            "3 × JK in the leftovers, but one deck has only 2. Check Ann's and Bob's cards.",
        ),
        ("crates", {"jokers": True, "decks": 2}, {"Ann": "JK JK JK JK", "Bob": "K"}, None),
        (
            "crates",
            {"decks": 2},
            {"Ann": "Qs Qs", "Bob": "Qs"},
            "3 × Q♠ in the leftovers, but 2 decks have only 2. Check Ann's and Bob's cards.",
        ),
        ("crates", {"decks": 2}, {"Ann": "K K K K", "Bob": "K K K K"}, None),
        (
            "crates",
            {"decks": 2},
            {"Ann": "K K K K", "Bob": "K K K K K"},
            "9 × K in the leftovers, but 2 decks have only 8. Check Ann's and Bob's cards.",
        ),
        ("crazy-eights", {}, {SINGLE_HAND: "Qs Qs"}, "2 × Q♠ in one hand, but one deck has only 1."),
        ("crazy-eights", {}, {"Ann": "Qs", "Bob": "Qh Q"}, None),
    ],
)
def test_no_more_copies_of_a_card_than_the_decks_hold(rule_set_id, options, held, message):
    rules = configure(rule_set_id, options)
    leftovers = {holder: cards(text) for holder, text in held.items()}
    if message is None:
        rules.check_leftovers(leftovers)
    else:
        with pytest.raises(RefereeError) as refused:
            rules.check_leftovers(leftovers)
        assert str(refused.value) == message


def test_card_actions_game_columns_and_option_specs_are_plain_unchangeable_data():
    action, *_ = configure("crates").card_actions(4)
    (column, *_) = configure("hollywood-eights").columns(game("Ann Bob", rules=configure("hollywood-eights")), [])
    spec, *_ = configure("crates").option_specs()
    inherent = configure("two-fifty").inherent_options["decks"]
    for value in (action, spec, inherent):
        assert hash(value) == hash(copy.copy(value)) and value == copy.copy(value)
    for value in (action, column, spec, inherent):
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.card = "2"  # type: ignore[misc]


def test_a_game_without_jokers_or_decks_options_plays_one_deck_without_jokers():
    rules = Plain()
    assert not rules.uses_jokers() and rules.decks_in_play() == 1
    assert not configure("two-fifty").uses_jokers()
    with pytest.raises(RefereeError, match="^1 × JK in one hand, but one deck has only 0\\.$"):
        rules.check_leftovers({SINGLE_HAND: cards("JK")})
    with pytest.raises(RefereeError, match="^5 × K in one hand, but one deck has only 4\\.$"):
        rules.check_leftovers({SINGLE_HAND: cards("K K K K K")})


def test_by_default_a_pressure_is_taken_by_the_player_it_is_called_on():
    table = game("Ann Bob")
    assert [configure("crates").pressure_taker(table, player) for player in ("Ann", "Bob")] == ["Ann", "Bob"]
    assert configure("crates").check_pressure(table, 1, "Bob") is None


def test_by_default_a_game_with_pressures_says_they_double():
    @dataclass(frozen=True)
    class Pressed(Plain):
        id = "pressed"
        has_pressures = True

    assert Pressed().pressures_in_words() == "doubling" and Plain().pressures_in_words() == "off"


def test_the_calculators_one_hand_is_held_under_a_name_no_player_can_have():
    """Leftovers checked on their own are held under SINGLE_HAND: a name the one text rule refuses
    for a player, so a player is never taken for it (a player once called "hand" was)."""
    assert names_fault([SINGLE_HAND, "Bob"]) is not None
    with pytest.raises(RefereeError, match="^only one player can go out"):
        configure("crazy-eights", {}).check_leftovers({"hand": [], "Bob": [], "Cy": cards("K")})
