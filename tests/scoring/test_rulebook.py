"""The rule book the phone scores from (``scoring/rulebook.py``), checked against the engine
itself: the phone says what the engine says, in its words, with the hand and the player put in
where the book leaves room for them."""

from pathlib import Path

import pytest

from scorekeeper.scoring import Game, Hand, RefereeError, configure, parse_cards
from scorekeeper.scoring.rulebook import PROBE_HAND, SAME_PRESSURE_SECONDS, rule_book
from scorekeeper.scoring.rulesets.base import JOKERS_PER_DECK
from scorekeeper.scoring.scorer import check_hand

RULES_JS = (Path(__file__).parent.parent.parent / "scorekeeper" / "static" / "rules.js").read_text(encoding="utf-8")

#: The book's shape, format 1: a change to its keys is a new format (a phone with the old book
#: then asks for the new one).
BOOK_KEYS = {
    "format",
    "rules",
    "players",
    "sides",
    "leftovers",
    "lowest_wins",
    "collect",
    "pressures",
    "same_pressure_seconds",
    "no_pressure",
    "name",
    "refusals",
    "starts",
    "end",
}
LEFTOVER_KEYS = {
    "special",
    "threes",
    "steps",
    "suits",
    "points",
    "decks",
    "jokers_per_deck",
    "one_goes_out",
    "three_points",
    "only_threes_points",
}


def world_series() -> Game:
    return Game(configure("crates-world-series"), ("Ann", "Figgy", "Bob"))


def refused(game: Game, hand: Hand, number: int = 1) -> str:
    """The engine's words for ``hand``, as the referee refuses it."""
    with pytest.raises(RefereeError) as refusal:
        check_hand(game, number, hand)
    return str(refusal.value)


def test_the_book_of_format_one_has_its_keys():
    for game in (world_series(), Game(configure("crazy-eights"), ("Ann", "Bob"))):
        book = rule_book(game)
        assert book["format"] == 1
        assert set(book) == BOOK_KEYS
        assert set(book["leftovers"]) == LEFTOVER_KEYS


def test_the_book_names_the_game_its_players_and_sides():
    game = Game(configure("crates"), ("Ann", "Bob", "Cy", "Di"), (("Ann", "Cy"), ("Bob", "Di")))
    book = rule_book(game)
    assert (book["rules"], book["name"], book["players"]) == ("crates", "Crates", ["Ann", "Bob", "Cy", "Di"])
    assert book["sides"] == [
        {"name": "Ann & Cy", "members": ["Ann", "Cy"]},
        {"name": "Bob & Di", "members": ["Bob", "Di"]},
    ]
    assert book["lowest_wins"] is True and book["collect"] is None


def test_crates_leftovers_pressures_starts_and_end():
    # 000: threes cover a card and a pile scores 3; only threes count -50 each; pressures 5, then doubling.
    book = rule_book(world_series())
    leftovers = book["leftovers"]
    assert leftovers["threes"] == "cover"
    assert (leftovers["three_points"], leftovers["only_threes_points"]) == (3, -50)
    assert (leftovers["decks"], leftovers["jokers_per_deck"], leftovers["one_goes_out"]) == (1, 0, False)
    assert (leftovers["special"], leftovers["steps"], leftovers["suits"]) == ({}, None, None)
    assert leftovers["points"]["8"] == 50 and "JK" not in leftovers["points"]
    assert book["pressures"] == {"first": 5, "cap": None}
    assert book["starts"] == {"Ann": 0, "Figgy": -50, "Bob": 0}  # the dummy starts at -50
    assert book["end"] == {"hands": 4}
    capped = rule_book(Game(configure("crates", {"pressure_increase_cap": 20, "jokers": True}), ("Ann", "Bob")))
    assert capped["pressures"] == {"first": 5, "cap": 20}
    assert capped["leftovers"]["jokers_per_deck"] == JOKERS_PER_DECK


def test_games_without_pressures_and_where_the_winner_collects():
    eights = rule_book(Game(configure("crazy-eights"), ("Ann", "Bob")))
    assert eights["pressures"] is None and eights["no_pressure"] == []
    assert eights["lowest_wins"] is False and eights["collect"] == "points"
    assert eights["end"] == {"target": 100, "bonus": 100}
    two_fifty = rule_book(Game(configure("two-fifty"), ("Ann", "Bob")))
    assert (two_fifty["leftovers"]["decks"], two_fifty["leftovers"]["one_goes_out"]) == (2, True)
    assert two_fifty["leftovers"]["steps"] == "deuces_and_pairs"


def test_the_second_pressure_window_is_five_seconds():
    # README: "A second pressure on the same player within five seconds ... is asked about first".
    assert SAME_PRESSURE_SECONDS == 5
    assert rule_book(world_series())["same_pressure_seconds"] == 5


def test_a_player_who_never_takes_a_pressure_is_listed_with_the_engines_words():
    book = rule_book(world_series())
    assert book["no_pressure"] == ["Figgy"]
    assert list(book["refusals"]["pressures"]) == ["Figgy"]
    words = book["refusals"]["pressures"]["Figgy"]
    # The phone puts the hand's number where the book has the probe (rules.js: split("1000000007")).
    assert f'split("{PROBE_HAND}")' in RULES_JS
    engine = refused(world_series(), Hand(dict.fromkeys(("Ann", "Figgy", "Bob"), parse_cards(["K"])), ("Figgy",)), 3)
    assert words.replace(str(PROBE_HAND), "3") == engine
    assert rule_book(Game(configure("crates"), ("Ann", "Bob")))["refusals"]["pressures"] == {}
    assert rule_book(Game(configure("crates"), ("Ann", "Bob")))["no_pressure"] == []


def test_a_card_the_game_never_holds_is_refused_in_the_engines_words_for_a_hand_and_a_player():
    game = Game(configure("crates"), ("Ann", "Bob"))
    cards = rule_book(game)["refusals"]["cards"]
    assert list(cards) == ["JK"]
    alone, held = cards["JK"]
    engine = refused(game, Hand({"Ann": parse_cards(["JK"]), "Bob": ()}))
    # The phone writes the player's name where the book has {player} (rules.js).
    assert '.split("{player}").join(player)' in RULES_JS
    assert "Hand 1: " + held.replace("{player}", "Ann") == engine
    assert alone == "there is a joker, but jokers are off in this game."
    with_jokers = Game(configure("crates", {"jokers": True}), ("Ann", "Bob"))
    assert rule_book(with_jokers)["refusals"]["cards"] == {}
