"""001's double-deck game with the 250 line, rule by rule."""

import pytest

from scorekeeper.scoring import FORMAT, InvalidOptions, InvalidSeating, RefereeError, configure, parse_record
from scorekeeper.scoring.rulesets import SINGLE_HAND
from tests.support.helpers import cards

RULES = configure("two-fifty")


def total(text):
    return RULES.score_leftovers(cards(text)).total


@pytest.mark.parametrize(
    "text, expected",
    [("Ah", 22), ("Jh", 20), ("8h", 16), ("5h", 10), ("Qh", 10), ("Kh", 10), ("9h", 9), ("3h", 3), ("10h", 10)],
)
def test_special_cards_count_twice_their_face_value(text, expected):
    # 001: "aces count 22, jacks count 20, eights count 16 and fives count 10" ... "queens and kings count 10"
    assert total(text) == expected


def test_each_deuce_doubles_the_hand():
    # 001: "Deuces double the score of the entire hand. If there is more than one deuce ... each deuce doubles"
    assert total("2h 9s") == (2 + 9) * 2
    assert total("2h 2s 9s") == (2 + 2 + 9) * 4


def test_each_set_of_identical_cards_halves_the_hand():
    # 001: "If there are two identical cards in the hand the score is halved. More than one set ... halves ... for each set"
    assert total("Kh Kh 9s") == (10 + 10 + 9) // 2
    assert total("Kh Kh 9s 9s") == (10 + 10 + 9 + 9) // 4
    assert total("Kh Ks") == 20  # same rank, different suits: not identical


def test_cards_need_suits_and_two_decks_hold_two_of_each():
    with pytest.raises(RefereeError, match="needs suits"):
        total("K")
    with pytest.raises(RefereeError, match="3 × K♥"):
        RULES.check_leftovers({"Ann": cards("Kh Kh"), "Bob": cards("Kh")})


def test_the_check_refuses_a_card_without_its_suit_with_the_scoring_message():
    needs = "the 250 game needs suits, to find identical cards: write Kh, Ks, …"
    with pytest.raises(RefereeError, match=f"^Bob's cards: {needs}$"):
        RULES.check_leftovers({"Ann": cards("Kh"), "Bob": cards("K")})
    with pytest.raises(RefereeError, match=f"^{needs}$"):
        RULES.check_leftovers({SINGLE_HAND: cards("K")})


def test_only_one_player_can_go_out():
    with pytest.raises(RefereeError, match="Hand 1: only one player can go out, but Ann and Bob have no cards"):
        game(["Ann", "Bob", "Cy"], [{"Ann": [], "Bob": [], "Cy": ["Kh"]}])


def test_a_record_may_say_the_game_is_double_deck_but_not_single_deck():
    assert game(["Ann", "Bob"], [{"Ann": [], "Bob": ["Kh", "Kh"]}], decks=2, jokers=False).side("Bob").total == 10
    with pytest.raises(InvalidOptions, match=r"is always played with two decks: option 'decks' cannot be 1\.$"):
        game(["Ann", "Bob"], [], decks=1)
    with pytest.raises(InvalidOptions, match=r"has no jokers: option 'jokers' cannot be true\.$"):
        game(["Ann", "Bob"], [], jokers=True)


def game(players, hands, **options):
    data = {
        "format": FORMAT,
        "rules": "two-fifty",
        "options": options,
        "players": players,
        "hands": [{"leftovers": leftovers} for leftovers in hands],
    }
    return parse_record(data).score()


def test_250_or_more_loses_and_ends_a_two_player_game():
    big = ["Ah", "As", "Jh", "Js", "2h"]  # (22 + 22 + 20 + 20 + 2) x 2 = 172
    first = game(["Ann", "Bob"], [{"Ann": [], "Bob": big}])
    assert not first.finished and first.side("Bob").total == 172
    second = game(["Ann", "Bob"], [{"Ann": [], "Bob": big}, {"Ann": ["Kh"], "Bob": big[:4]}])
    assert second.finished and second.side("Bob").total == 172 + 84
    assert second.leader == ("Ann",)


def test_with_three_players_the_last_one_below_the_line_wins():
    over = ["Ah", "As", "Jh", "Js", "2h", "2s"]  # 88 x 4 = 352
    after_one = game(["Ann", "Bob", "Cy"], [{"Ann": [], "Bob": over, "Cy": ["3h"]}])
    assert not after_one.finished
    after_two = game(
        ["Ann", "Bob", "Cy"], [{"Ann": [], "Bob": over, "Cy": ["3h"]}, {"Ann": ["4h"], "Bob": [], "Cy": over}]
    )
    assert after_two.finished and after_two.leader == ("Ann",)


OVER = ["Ah", "As", "Jh", "Js", "2h", "2s"]  # 88 x 4 = 352
TO_500 = ["Ah", "As", "Jh", "Js", "2h"]  # 86 x 2 = 172: 352 + 172 = 524


def test_with_the_500_rule_a_player_past_250_wins_by_reaching_500_first():
    # 001: "it is optional to allow a player whose score has exceeded 250 to win by reaching 500
    # before all but one player exceeds the 250 score line."
    hands = [{"Ann": [], "Bob": OVER, "Cy": ["3h"]}, {"Ann": ["4h"], "Bob": TO_500, "Cy": []}]
    without = game(["Ann", "Bob", "Cy"], hands)
    assert not without.finished  # Ann and Cy are still below 250
    score = game(["Ann", "Bob", "Cy"], hands, five_hundred=True)
    assert score.side("Bob").total == 524
    assert score.finished and score.leader == ("Bob",)
    assert [(place, side.side.name) for place, side in score.standings()] == [(1, "Bob"), (2, "Cy"), (3, "Ann")]
    assert score.to_json()["outright"] == ["Bob"]


def test_with_the_500_rule_the_last_below_the_line_still_wins_if_nobody_reached_500():
    hands = [{"Ann": [], "Bob": OVER, "Cy": ["3h"]}, {"Ann": ["4h"], "Bob": [], "Cy": OVER}]
    score = game(["Ann", "Bob", "Cy"], hands, five_hundred=True)
    assert score.finished and score.leader == ("Ann",) and "outright" not in score.to_json()


def test_the_500_rule_is_for_three_or_more_players():
    # 001: "For three or more players it is optional ..."
    with pytest.raises(InvalidSeating, match="the 500 rule is for three or more players") as refused:
        game(["Ann", "Bob"], [], five_hundred=True)
    assert refused.value.field == "players"


def test_five_cards_are_dealt_from_two_decks():
    # 001: "Deal 5 cards each from a double deck (104 cards)"
    assert [RULES.cards_dealt(number, players) for number, players in [(1, 2), (2, 3), (9, 8)]] == [5, 5, 5]
    assert RULES.decks_in_play() == 2


def test_the_rules_card_gives_001s_card_values_and_special_cards():
    assert dict(RULES.card_values()) == {
        "A": "22",
        "2": "2",
        "3": "3",
        "4": "4",
        "5": "10",
        "6": "6",
        "7": "7",
        "8": "16",
        "9": "9",
        "10": "10",
        "J": "20",
        "Q": "10",
        "K": "10",
    }
    # 001: "There are five special cards."
    actions = {action.card: action.action for action in RULES.card_actions(4)}
    assert list(actions) == ["A", "J", "8", "5", "2"]
    assert actions["A"].startswith("wild") and "not on a J or 2" in actions["A"]
    assert "picture card" in actions["J"]
    assert "misses a turn" in actions["8"]
    assert "passes their hand to the right" in actions["5"]
    assert "plays a 2 or takes 2" in actions["2"]


def test_the_rules_card_says_how_a_hand_scores_and_how_the_game_is_won():
    (title, text), *rest = RULES.scoring_rules()
    assert title == "Scoring" and not rest
    assert "Each player scores the cards left in their own hand." in text
    assert "Each deuce doubles the hand's score" in text and "identical cards (same rank and suit) halves it" in text
    won = "250 or more loses: the game ends when at most one player is still below 250, who wins"
    assert text.endswith(f"{won}.")
    with_500 = configure("two-fifty", {"five_hundred": True}).how_it_is_won()
    assert with_500 == f"{won}; or a player past 250 wins at once by reaching 500 first."


def test_the_phone_is_told_the_card_values_the_steps_and_the_lines():
    terms = RULES.leftover_terms()
    assert terms["points"] == {rank: int(points) for rank, points in RULES.card_values()}
    assert terms["steps"] == "deuces_and_pairs" and terms["suits"] == "all"
    table = parse_record(
        {"format": FORMAT, "rules": "two-fifty", "options": {}, "players": ["Ann", "Bob", "Cy"], "hands": []}
    ).game
    assert RULES.end_terms(table) == {"loss_line": 250, "outright": None}
    assert configure("two-fifty", {"five_hundred": True}).end_terms(table) == {"loss_line": 250, "outright": 500}


def test_the_start_form_offers_the_game_by_its_name_and_its_500_rule_in_words():
    assert RULES.name == "The 250 game (double deck)"
    assert RULES.summary.startswith("Double deck, 5 cards each; deuces double a hand, identical pairs halve it")
    (spec,) = RULES.option_specs()
    assert (spec.name, spec.label, spec.default) == ("five_hundred", "The 500 rule", False)
    assert spec.help == "Three or more players: a player past 250 can still win by reaching 500 first."
    assert RULES.options_in_words() == (("The 500 rule", "off"),)
    assert configure("two-fifty", {"five_hundred": True}).options_in_words() == (("The 500 rule", "on"),)


def test_the_tap_pad_asks_for_each_cards_suit():
    # Identical cards are the same rank and suit: the suit changes the score.
    assert RULES.needs_suits


def test_a_joker_is_refused_as_not_in_the_game():
    with pytest.raises(RefereeError, match="^the 250 game has no jokers\\.$"):
        total("JK")


def test_the_hand_shows_each_doubling_and_halving_in_turn():
    scored = RULES.score_leftovers(cards("2h Kh Kh 9s"))
    # (2 + 10 + 10 + 9) = 31, doubled by the deuce to 62, halved by the pair of K♥ to 31.
    assert [(step.sign, step.cards, step.after) for step in scored.steps] == [
        ("×2", tuple(cards("2h")), 62),
        ("÷2", tuple(cards("Kh Kh")), 31),
    ]


def test_exactly_250_loses():
    # 001: "250 (or more) points loses"
    big = ["Ah", "As", "Jh", "Js", "2h"]  # (22 + 22 + 20 + 20 + 2) x 2 = 172
    to_250 = ["2d", "7d", "Jd", "Kd"]  # (2 + 7 + 20 + 10) x 2 = 78
    score = game(["Ann", "Bob"], [{"Ann": [], "Bob": big}, {"Ann": [], "Bob": to_250}])
    assert score.side("Bob").total == 250
    assert score.finished and score.leader == ("Ann",)


def test_with_the_500_rule_exactly_500_wins():
    # 001: "to win by reaching 500"
    to_500 = ["2d", "Ad", "Jd", "8d", "Kd", "4d"]  # (2 + 22 + 20 + 16 + 10 + 4) x 2 = 148: 352 + 148 = 500
    hands = [{"Ann": [], "Bob": OVER, "Cy": ["3h"]}, {"Ann": ["4h"], "Bob": to_500, "Cy": []}]
    score = game(["Ann", "Bob", "Cy"], hands, five_hundred=True)
    assert score.side("Bob").total == 500
    assert score.finished and score.leader == ("Bob",)
