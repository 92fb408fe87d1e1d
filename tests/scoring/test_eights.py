"""The Eights family where the hand's winner collects (002 "Eights", Crazy Aces, Crazy Jacks; 001)."""

import dataclasses
import re

import pytest

from scorekeeper.scoring import FORMAT, InvalidOptions, InvalidSeating, RefereeError, configure, parse_record
from scorekeeper.scoring.rulesets import SINGLE_HAND
from scorekeeper.scoring.rulesets.eights import CrazyAces
from tests.support.helpers import cards, game


def record(rules, players, hands, **options):
    return {
        "format": FORMAT,
        "rules": rules,
        "options": options,
        "players": players,
        "hands": [{"leftovers": leftovers} for leftovers in hands],
    }


def replay(data):
    return parse_record(data).score().to_json()


def totals(output):
    return {side["name"]: side["total"] for side in output["sides"]}


@pytest.mark.parametrize(
    "text, expected", [("8", 50), ("K", 10), ("Q", 10), ("J", 10), ("9", 9), ("3", 3), ("A", 1), ("10", 10)]
)
def test_crazy_eights_card_values(text, expected):
    # 002: "Royalty Card (King, Queen, Jack) 10; Eight (8) 50; All other numbered cards Face Value"
    assert configure("crazy-eights").score_leftovers(cards(text)).total == expected


def test_the_winner_collects_the_points_left_in_the_other_hands():
    output = replay(record("crazy-eights", ["Ann", "Bob", "Cy"], [{"Ann": [], "Bob": ["8", "K"], "Cy": ["3", "4"]}]))
    assert [side["hands"] for side in output["sides"]] == [[67], [0], [0]]
    assert output["leader"] == ["Ann"] and not output["finished"]


def test_reaching_100_at_the_end_of_a_hand_wins_with_a_100_point_bonus():
    # 002: "played until one player, at the end of a hand reaches or exceeds 100 points ... awarded an additional 100"
    hands = [{"Ann": [], "Bob": ["8", "K"]}, {"Ann": ["K"], "Bob": []}, {"Ann": [], "Bob": ["8"]}]
    assert not replay(record("crazy-eights", ["Ann", "Bob"], hands[:2]))["finished"]  # Ann 60, Bob 10
    output = replay(record("crazy-eights", ["Ann", "Bob"], hands))
    assert output["finished"] and output["bonuses"] == {"Ann": 100}
    assert totals(output) == {"Ann": 60 + 50 + 100, "Bob": 10}
    assert output["leader"] == ["Ann"]
    exactly = replay(record("crazy-eights", ["Ann", "Bob"], [{"Ann": [], "Bob": ["8", "8"]}]))  # "reaches": 100
    assert exactly["finished"] and exactly["bonuses"] == {"Ann": 100} and totals(exactly)["Ann"] == 200


def test_hands_after_the_game_was_decided_are_refused():
    hands = [{"Ann": [], "Bob": ["8", "8"]}, {"Ann": ["K"], "Bob": []}]  # Ann reaches 100 in hand 1
    with pytest.raises(RefereeError, match="Hand 2: the game was already decided after hand 1"):
        replay(record("crazy-eights", ["Ann", "Bob"], hands))


def test_a_blocked_hand_goes_to_the_lowest_count_who_collects_the_differences():
    # 002: "the player with the lowest point total is declared the winner of the hand. They receive a point
    # value from each other player consisting of the difference between the counts of their hand and that player"
    output = replay(record("crazy-eights", ["Ann", "Bob", "Cy"], [{"Ann": ["5"], "Bob": ["Q", "2"], "Cy": ["K", "J"]}]))
    assert [side["hands"][0] for side in output["sides"]] == [(12 - 5) + (20 - 5), 0, 0]


@pytest.mark.parametrize(
    "rule_set_id, players, most",
    [
        ("crazy-eights", 9, "2 to 8"),
        ("zodiac", 1, "2 to 8"),
        ("crazy-aces", 11, "2 to 10"),
        ("hollywood-eights", 3, "2"),
    ],
)
def test_each_game_is_for_its_own_number_of_players(rule_set_id, players, most):
    # 002: Eights is "for two to eight players"; Hollywood Scoring is "for two players".
    # Crazy Aces, with its jokers, seats up to ten as the start form offers.
    rules = configure(rule_set_id)
    names = " ".join(f"P{index}" for index in range(players))
    with pytest.raises(InvalidSeating, match=f"^{rules.name} is for {most} players, not {players}\\.$") as refused:
        game(names, rules=rules)
    assert refused.value.field == "players"
    game(" ".join(f"P{index}" for index in range(2)), rules=rules)
    if most != "2":
        game(" ".join(f"P{index}" for index in range(int(most.split()[-1]))), rules=rules)


def test_in_the_eights_games_everyone_plays_alone():
    with pytest.raises(InvalidSeating, match="^in Crazy Eights everyone plays alone\\.$") as refused:
        game("Ann Bob Cy Di", "Ann+Cy Bob+Di", rules=configure("crazy-eights"))
    assert refused.value.field == "partnerships"


@pytest.mark.parametrize("rule_set_id", ["crazy-eights", "zodiac", "two-fifty"])
def test_a_game_played_to_a_score_has_no_schedule_of_hands_and_no_pressures(rule_set_id):
    rules = configure(rule_set_id)
    assert rules.schedule() == () and rules.max_hands() is None
    with pytest.raises(RefereeError, match=f"^{re.escape(rules.name)} has no pressures\\.$"):
        rules.pressure_value(1)


def test_only_one_player_can_go_out():
    with pytest.raises(RefereeError, match="only one player can go out"):
        replay(record("crazy-eights", ["Ann", "Bob", "Cy"], [{"Ann": [], "Bob": [], "Cy": ["K"]}]))


def test_there_are_no_pressures_in_crazy_eights():
    data = record("crazy-eights", ["Ann", "Bob"], [{"Ann": [], "Bob": ["K"]}])
    data["hands"][0]["pressures"] = ["Bob"]
    with pytest.raises(RefereeError, match="Crazy Eights has no pressures"):
        replay(data)


@pytest.mark.parametrize("players, target", [(2, 100), (3, 150), (4, 200), (6, 300)])
def test_the_target_is_100_200_or_300_by_players(players, target):
    # 001: "with two players the winning amount is 100 points ... four players ... 200 points, and 300 ... six"
    assert configure("crazy-eights-target").goal(players) == target


def test_a_two_player_target_game_ends_at_100_without_a_bonus():
    hands = [{"Ann": [], "Bob": ["8", "K", "K", "K", "K", "9"]}, {"Ann": [], "Bob": ["A"]}]  # 99, then 1
    assert not replay(record("crazy-eights-target", ["Ann", "Bob"], hands[:1]))["finished"]
    output = replay(record("crazy-eights-target", ["Ann", "Bob"], hands))
    assert output["finished"] and totals(output) == {"Ann": 100, "Bob": 0} and "bonuses" not in output


def test_an_agreed_target_replaces_the_default():
    output = replay(record("crazy-eights-target", ["Ann", "Bob"], [{"Ann": [], "Bob": ["K"]}], target=10))
    assert output["finished"] and "bonuses" not in output


def test_crazy_aces_and_crazy_jacks_card_values():
    aces = configure("crazy-aces")
    assert [aces.score_leftovers(cards(t)).total for t in ("A", "JK", "8", "K")] == [25, 50, 8, 10]
    jacks = configure("crazy-jacks")
    assert [jacks.score_leftovers(cards(t)).total for t in ("J", "8", "Q")] == [50, 8, 10]
    with pytest.raises(RefereeError, match="no jokers"):
        configure("crazy-eights").score_leftovers(cards("JK"))


def test_crazy_pairs_is_won_at_300_without_a_bonus():
    hands = [{"Ann": [], "Bob": ["8"] * 4}] * 1 + [{"Ann": [], "Bob": ["8"] * 2}]
    output = replay(record("crazy-pairs", ["Ann", "Bob"], hands))
    assert output["finished"] and totals(output) == {"Ann": 300, "Bob": 0} and "bonuses" not in output


def test_zodiac_scores_a_point_a_card_to_55():
    output = replay(record("zodiac", ["Ann", "Bob", "Cy"], [{"Ann": [], "Bob": ["8", "K", "2"], "Cy": ["A"]}]))
    assert totals(output)["Ann"] == 4


def test_a_blocked_zodiac_hand_is_counted_in_cards_not_points():
    # 001 scores Zodiac a point a card: one card against two, Ann collects the difference of 1
    output = replay(record("zodiac", ["Ann", "Bob"], [{"Ann": ["8"], "Bob": ["2", "3"]}]))
    assert [side["hands"] for side in output["sides"]] == [[1], [0]]


def test_blocked_zodiac_hands_do_not_end_the_game_to_55_early():
    hands = [{"Ann": ["8"], "Bob": ["2", "3"]}] * 3 + [{"Ann": [], "Bob": ["K"] * 4}]
    output = replay(record("zodiac", ["Ann", "Bob"], hands))
    assert totals(output) == {"Ann": 3 + 4, "Bob": 0} and not output["finished"]


EIGHTS_FAMILY = [
    "crazy-eights",
    "crazy-eights-target",
    "crazy-pairs",
    "zodiac",
    "hollywood-eights",
    "crazy-aces",
    "crazy-jacks",
]


@pytest.mark.parametrize("rules", EIGHTS_FAMILY)
def test_one_deck_holds_each_suited_card_once(rules):
    one_deck = record(rules, ["Ann", "Bob"], [{"Ann": ["KH"], "Bob": ["Kh"]}])
    with pytest.raises(RefereeError, match="Hand 1: 2 × K♥ in the leftovers, but one deck has only 1"):
        replay(one_deck)
    replay({**one_deck, "options": {"decks": 2}})


@pytest.mark.parametrize("rules", EIGHTS_FAMILY)
def test_two_players_out_in_one_hand_are_refused(rules):
    with pytest.raises(RefereeError, match="only one player can go out, but Ann and Bob have no cards"):
        replay(record(rules, ["Ann", "Bob"], [{"Ann": [], "Bob": []}]))


def test_a_joker_in_a_game_without_jokers_is_refused_before_scoring_with_the_scoring_message():
    rules = configure("crazy-eights")
    with pytest.raises(RefereeError, match=r"^Bob's cards: Crazy Eights has no jokers\.$"):
        rules.check_leftovers({"Ann": (), "Bob": cards("JK")})
    with pytest.raises(RefereeError, match=r"^Crazy Eights has no jokers\.$"):
        rules.check_leftovers({SINGLE_HAND: cards("JK")})


def test_a_record_may_name_the_jokers_a_game_always_has_or_never_has():
    aces = record("crazy-aces", ["Ann", "Bob"], [{"Ann": [], "Bob": ["JK"]}], jokers=True)
    assert totals(replay(aces)) == {"Ann": 50, "Bob": 0}
    assert "jokers" not in parse_record(aces).to_dict()["options"]
    replay(record("crazy-eights", ["Ann", "Bob"], [], jokers=False))


@pytest.mark.parametrize(
    "rules, options, message",
    [
        ("crazy-aces", {"jokers": False}, "Crazy Aces always has jokers, two a deck: option 'jokers' cannot be false"),
        ("crazy-eights", {"jokers": True}, "Crazy Eights has no jokers: option 'jokers' cannot be true"),
        ("zodiac", {"jokers": 0}, "Zodiac has no jokers: option 'jokers' cannot be 0"),
    ],
)
def test_a_record_contradicting_what_a_game_always_has_is_refused(rules, options, message):
    with pytest.raises(InvalidOptions, match=f"^{message}\\.$"):
        parse_record(record(rules, ["Ann", "Bob"], [], **options))


def test_seven_cards_each_for_two_players_five_for_more():
    # 002: "If two are playing each individual should receive seven cards, but if more are playing ... five"
    rules = configure("crazy-eights")
    assert [rules.cards_dealt(1, players) for players in (2, 3, 8)] == [7, 5, 5]


def test_the_rules_card_says_who_collects_how_a_blocked_hand_is_settled_and_the_target():
    collects = "The player who goes out collects the count of every other hand."
    blocked = (
        "Blocked (the stock is out and nobody can play): the lowest count collects from each other player "
        "the difference."
    )
    said = {rule_set_id: dict(configure(rule_set_id).scoring_rules())["Scoring"] for rule_set_id in EIGHTS_FAMILY}
    assert (
        said["crazy-eights"]
        == f"{collects} {blocked} The first to reach 100 at the end of a hand wins, with a 100-point bonus."
    )
    assert said["crazy-jacks"] == said["crazy-eights"]
    assert said["crazy-pairs"] == f"{collects} {blocked} The first to reach 300 at the end of a hand wins."
    assert said["zodiac"] == (
        "The player who goes out collects the count of every other hand (a point a card). "
        f"{blocked} The first to reach 55 at the end of a hand wins."
    )
    target = configure("crazy-eights-target")
    assert target.how_it_is_won() == "The first to reach 100 for two players, +50 a player at the end of a hand wins."
    assert configure("crazy-eights-target", {"target": 150}).how_it_is_won() == (
        "The first to reach 150 at the end of a hand wins."
    )


def test_the_rules_card_gives_each_games_wild_card_and_card_values():
    wild = {
        rule_set_id: [(action.card, action.action) for action in configure(rule_set_id).card_actions(4)]
        for rule_set_id in ("crazy-eights", "crazy-aces", "crazy-jacks")
    }
    assert wild["crazy-eights"] == [("8", "wild: play it on any card and name the suit to follow")]
    assert [card for card, _ in wild["crazy-aces"]] == ["A, JK"] and [card for card, _ in wild["crazy-jacks"]] == ["J"]
    values = dict(configure("crazy-eights").card_values())
    assert values == {
        **{str(n): str(n) for n in range(2, 11) if n != 8},
        "A": "1",
        "8": "50",
        "J": "10",
        "Q": "10",
        "K": "10",
    }
    # Crazy Aces: aces 25, eights 8 and its two jokers a deck 50, listed last.
    assert configure("crazy-aces").card_values()[-1] == ("JK", "50")
    assert dict(configure("crazy-aces").card_values())["A"] == "25"
    assert "JK" not in dict(configure("crazy-jacks").card_values())


def test_the_phone_is_told_the_values_who_collects_what_and_the_target():
    table = parse_record(record("crazy-eights-target", ["Ann", "Bob", "Cy", "Di"], [])).game
    assert configure("crazy-eights").leftover_terms() == {
        "points": {card: int(points) for card, points in configure("crazy-eights").card_values()}
    }
    assert configure("crazy-aces").leftover_terms()["points"]["JK"] == 50
    assert "JK" not in configure("crazy-jacks").leftover_terms()["points"]
    assert [configure(rule_set_id).collect_terms() for rule_set_id in ("crazy-eights", "zodiac")] == ["points", "cards"]
    assert configure("crazy-eights").end_terms(table) == {"target": 100, "bonus": 100}
    assert configure("crazy-eights-target").end_terms(table) == {"target": 200, "bonus": 0}
    assert configure("zodiac").end_terms(table) == {"target": 55, "bonus": 0}


def test_only_crazy_aces_has_jokers_to_leave_in_hand():
    assert [configure(rule_set_id).uses_jokers() for rule_set_id in EIGHTS_FAMILY] == [
        rule_set_id == "crazy-aces" for rule_set_id in EIGHTS_FAMILY
    ]


def test_the_start_form_offers_the_target_and_the_decks():
    # 002: one deck "when anywhere from two to five people are playing. For six or more players,
    # two standard decks should be used"; "played until one player ... reaches or exceeds 100 points".
    target, decks = configure("crazy-eights").option_specs()
    assert (target.name, target.kind, target.label, target.default, target.minimum) == (
        "target",
        "optional_int",
        "Game to",
        100,
        1,
    )
    assert target.help == "The score that wins the game."
    assert (decks.name, decks.kind, decks.label, decks.default, decks.choices) == ("decks", "int", "Decks", 1, (1, 2))
    assert decks.help == "One deck, or two for six or more players."
    assert configure("crazy-eights", {"target": None}).goal(4) == 100
    assert [spec.default for spec in configure("crazy-eights-target").option_specs()] == [None, 1]
    assert (
        configure("crazy-eights-target").option_specs()[0].help.startswith("Blank: 100 for two players, +50 a player")
    )


def test_a_game_with_a_single_joker_a_deck_still_offers_it():
    @dataclasses.dataclass(frozen=True)
    class OneJoker(CrazyAces):
        JOKERS_PER_DECK = 1

    assert OneJoker().uses_jokers() and OneJoker().score_leftovers(cards("JK")).total == 50


@pytest.mark.parametrize(
    "rule_set_id, default, says",
    [
        ("crazy-eights", 100, "The score that wins the game."),  # 002: "until one player ... reaches or exceeds 100"
        ("crazy-aces", 100, "The score that wins the game."),
        ("crazy-jacks", 100, "The score that wins the game."),
        ("crazy-eights-target", None, "Blank: 100 for two players, +50 a player (200 for four, 300 for six)."),
        ("crazy-pairs", 300, "The score that wins the game."),  # 001: "the first to 300"
        ("zodiac", 55, "The score that wins the game."),  # 001: "the first to 55"
        ("hollywood-eights", 100, "The score that wins each game."),  # 002: "100 or more points in any column"
    ],
)
def test_each_game_is_played_to_its_own_target_which_the_table_may_change(rule_set_id, default, says):
    target = configure(rule_set_id).option_specs()[0]
    assert (target.name, target.kind, target.label, target.default, target.help) == (
        "target",
        "optional_int",
        "Game to",
        default,
        says,
    )
    assert configure(rule_set_id, {"target": 1}).goal(2) == 1
    with pytest.raises(InvalidOptions, match="option 'target' must be at least 1, not 0"):
        configure(rule_set_id, {"target": 0})


def test_crazy_aces_has_two_jokers_a_deck():
    # 002: "the addition of two Jokers to the deck ... If 7 to 10 are playing, two ... decks ... with 4 jokers"
    with pytest.raises(RefereeError, match="^3 × JK in the leftovers, but one deck has only 2"):
        configure("crazy-aces").check_leftovers({"Ann": cards("JK JK"), "Bob": cards("JK")})
    configure("crazy-aces", {"decks": 2}).check_leftovers({"Ann": cards("JK JK"), "Bob": cards("JK JK")})
