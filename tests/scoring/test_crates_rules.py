"""Crates (000) and the Skill-hand World Series as their rules card, the phone and the table see them."""

import pytest

from scorekeeper.scoring import InvalidSeating, RefereeError, configure
from scorekeeper.scoring.rulesets import SINGLE_HAND
from tests.support.helpers import cards, crates, game

#: 000 "Summary of card actions during play", in the card's words, for four or five players.
ACTIONS = {
    "A": "used in a 2-sequence (the count): adds 1",
    "2": "starts the count, or adds 2 to it",
    "3": "none (covers a card when scoring)",
    "4": "skip the next player",
    "5": "cards for everyone: each other player draws one, in turn order",
    "6": "same player plays again (draws if unable)",
    "7": "next player but one takes a card",
    "8": "wild: change to any suit",
    "9": "wild: change to the other suit of the same colour",
    "10": "reverse the direction of play",
    "J": "none",
    "Q": "none",
    "K": "none",
}
#: 000 "Card Points Table"; the joker's 40 is the Standig Joker adjunct.
POINTS = {"A": 1, "2": 20, "4": 15, "5": 30, "6": 30, "7": 20, "8": 50, "9": 30, "10": 25, "J": 10, "Q": 10, "K": 10}


@pytest.mark.parametrize("players", [4, 5])
def test_the_card_actions_are_000s_table(players):
    assert {action.card: action.action for action in crates().card_actions(players)} == ACTIONS


def test_with_jokers_the_joker_acts_last_as_standig_says():
    *_, joker = crates(jokers=True).card_actions(4)
    assert (joker.card, joker.action) == (
        "JK",
        "previous player plays again, direction unchanged; transparent to suit and rank; adds 0 to the count",
    )


def test_the_card_values_are_000s_table_with_the_three_in_words():
    values = dict(crates().card_values())
    assert values == {**{rank: str(points) for rank, points in POINTS.items()}, "3": values["3"]}
    assert values["3"] == "3, or covers a card (not an 8); only threes: −50 each"
    assert list(values) == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert crates(jokers=True).card_values()[-1] == ("JK", "40")


def test_the_phone_is_told_the_values_the_threes_and_the_pressures():
    assert crates().leftover_terms() == {"points": POINTS, "threes": "cover"}
    assert crates(jokers=True).leftover_terms() == {"points": {**POINTS, "JK": 40}, "threes": "cover"}
    assert configure("creights").leftover_terms()["threes"] == "cancel"
    assert crates().pressure_terms() == {"first": 5, "cap": None}
    assert crates(pressure_increase_cap=20).pressure_terms() == {"first": 5, "cap": 20}


def test_pressures_and_the_cap_in_words():
    # Blank: each pressure doubles (5, 10, 20, 40, 80); 20: the increase stops at 20.
    words = dict(crates().options_in_words())
    assert words == {
        "Jokers (Standig adjunct)": "off",
        "Pressure increase cap": "none (each pressure doubles)",
        "Decks": "1",
    }
    assert dict(crates(pressure_increase_cap=20).options_in_words())["Pressure increase cap"] == "increase capped at 20"
    assert crates().pressures_in_words() == "doubling"
    assert crates(pressure_increase_cap=20).pressures_in_words() == "increase capped at 20"
    assert [crates(pressure_increase_cap=20).pressure_value(n) for n in range(1, 7)] == [5, 10, 20, 40, 60, 80]


def test_a_joker_when_jokers_are_off_is_refused_naming_who_has_it():
    with pytest.raises(RefereeError, match="^Bob has a joker, but jokers are off in this game\\.$"):
        crates().check_leftovers({"Ann": cards("K"), "Bob": cards("JK")})
    with pytest.raises(RefereeError, match="^there is a joker, but jokers are off in this game\\.$"):
        crates().check_leftovers({SINGLE_HAND: cards("JK")})
    with pytest.raises(RefereeError, match="^a joker is not in the deck: jokers are off\\.$"):
        crates().score_leftovers(cards("JK"))
    assert crates(jokers=True).score_leftovers(cards("JK")).total == 40


@pytest.mark.parametrize("players", ["Ann", "Ann Bob Cy Di Ed Flo"])
def test_crates_is_for_two_to_five_players(players):
    with pytest.raises(
        InvalidSeating, match=f"^Crates is for 2 to 5 players, not {len(players.split())}\\.$"
    ) as refused:
        game(players)
    assert refused.value.field == "players"
    game("Ann Bob Cy Di Ed")


def test_the_world_series_refuses_partnerships_and_names_each_field():
    rules = configure("crates-world-series")
    with pytest.raises(InvalidSeating, match="three seats, Figgy in one, not 4") as refused:
        game("Ann Figgy Bob Cy", rules=rules)
    assert refused.value.field == "players"
    with pytest.raises(InvalidSeating, match="^the World Series has no partnerships\\.$") as refused:
        game("Ann Figgy Bob", "Ann+Bob Figgy", rules=rules)
    assert refused.value.field == "partnerships"
    with pytest.raises(InvalidSeating) as refused:
        game("Ann Figgy Bob", rules=rules, first_dealer="Figgy")
    assert refused.value.field == "first_dealer"


def test_a_pressure_called_on_the_dummy_goes_to_the_player_seated_after_it():
    rules = configure("crates-world-series")
    assert [
        rules.pressure_taker(game(players, rules=rules), "Figgy") for players in ("Ann Figgy Bob", "Ann Bob Figgy")
    ] == [
        "Bob",
        "Ann",
    ]
    assert rules.pressure_taker(game("Ann Figgy Bob", rules=rules), "Ann") == "Ann"
    assert rules.joins_by_itself() == "Figgy" and crates().joins_by_itself() is None


def test_the_world_series_is_not_seated_by_events():
    assert not configure("crates-world-series").in_events and crates().in_events


def test_the_start_form_offers_jokers_the_pressure_cap_and_the_decks_with_their_help():
    jokers, cap, decks = crates().option_specs()
    assert (jokers.label, jokers.help) == (
        "Jokers (Standig adjunct)",
        "Two jokers per deck, worth 40 when left in hand; a three can cover one.",
    )
    assert (cap.name, cap.kind, cap.label, cap.minimum) == (
        "pressure_increase_cap",
        "optional_int",
        "Pressure increase cap",
        1,
    )
    assert cap.help == (
        "Blank: each pressure doubles (5, 10, 20, 40, 80). 20: the increase stops at 20 (5, 10, 20, 40, 60, 80)."
    )
    assert (decks.name, decks.kind, decks.label, decks.default, decks.choices) == ("decks", "int", "Decks", 1, (1, 2))
    assert decks.help == "One deck, or two shuffled together."
    (dummy,) = configure("crates-world-series").option_specs()[3:]
    assert (dummy.name, dummy.kind, dummy.label, dummy.default) == ("dummy", "str", "Dummy's name", "Figgy")
    assert dummy.help == "The dummy player, conventionally Figgy."


def test_the_rules_card_gives_the_threes_a_paragraph_the_table_gives_the_rest():
    ((title, text),) = crates().scoring_rules()
    assert title == "Threes" and text.startswith("A hand of nothing but threes counts −50 for each three.")
    ((title, text),) = configure("creights").scoring_rules()
    assert title == "Threes" and "cancels one other card, any but an 8" in text
