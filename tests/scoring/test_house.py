"""House rules: a game the table defines, carried whole in the record's options."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.scoring import FORMAT, InvalidOptions, InvalidSeating, RefereeError, configure, parse_record
from scorekeeper.scoring.rulesets import SINGLE_HAND
from tests.support.helpers import cards

FACE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10, "K": 10}


def house(**definition):
    return configure("house", {"name": "Kitchen", **definition})


def play(definition, players, hands, partnerships=None):
    data = {
        "format": FORMAT,
        "rules": "house",
        "options": {"name": "Kitchen", **definition},
        "players": players,
        "hands": [
            {"leftovers": leftovers, "pressures": list(pressures)}
            for leftovers, pressures in (hand if isinstance(hand, tuple) else (hand, ()) for hand in hands)
        ],
    }
    if partnerships:
        data["partnerships"] = partnerships
    return parse_record(data).score()


def test_cards_score_the_values_the_table_gives_them():
    rules = house(values={"8": 50, "A": 15}, joker=25)
    assert rules.score_leftovers(cards("8 A K 3 JK")).total == 50 + 15 + 10 + 3 + 25
    assert house().score_leftovers(cards("A 7 Q")).total == 1 + 7 + 10  # face value, pictures 10


def test_without_a_joker_value_there_are_no_jokers():
    with pytest.raises(RefereeError, match="Kitchen has no jokers"):
        house().score_leftovers(cards("JK"))


def test_a_special_card_scores_its_own_value_and_makes_its_rank_need_a_suit():
    rules = house(special={"QS": 40})
    assert rules.score_leftovers(cards("Qs Qh")).total == 40 + 10
    with pytest.raises(RefereeError, match="Q♠ is a special card in Kitchen: give the suit of each Q"):
        rules.score_leftovers(cards("Q"))
    assert rules.needs_suits and not house().needs_suits


def test_own_scoring_over_fixed_hands_lowest_total_wins():
    score = play({"deal": [3, 2, 1]}, ["Ann", "Bob"], [{"Ann": ["K"], "Bob": []}, {"Ann": [], "Bob": ["5", "6"]}])
    assert not score.finished and [side.total for side in score.sides] == [10, 11]
    assert score.leader == ("Ann",)
    assert score.game.cards_dealt(2) == 2 and score.game.rules.max_hands() == 3
    finished = play({"deal": [3, 2, 1]}, ["Ann", "Bob"], [{"Ann": ["K"], "Bob": []}] * 3)
    assert finished.finished and finished.leader == ("Bob",)


def test_the_winner_collects_to_a_target_and_the_highest_total_wins():
    definition = {"scoring": "winner", "end": "target", "limit": 30, "deal": 5}
    score = play(definition, ["Ann", "Bob", "Cy"], [{"Ann": [], "Bob": ["K", "9"], "Cy": ["3"]}])
    assert [side.hands for side in score.sides] == [(22,), (0,), (0,)] and not score.finished
    score = play(definition, ["Ann", "Bob", "Cy"], [{"Ann": [], "Bob": ["K", "9"], "Cy": ["3"]}] * 2)
    assert score.finished and score.leader == ("Ann",)


def test_a_blocked_hand_goes_to_the_lowest_count_when_the_winner_collects():
    definition = {"scoring": "winner", "end": "target", "limit": 100, "deal": 5}
    score = play(definition, ["Ann", "Bob"], [{"Ann": ["2"], "Bob": ["K"]}])
    assert [side.total for side in score.sides] == [8, 0]


def test_a_loss_line_ends_the_game_when_one_player_is_left_below_it():
    definition = {"end": "loss_line", "limit": 20, "deal": 5}
    hands = [{"Ann": [], "Bob": ["K", "K"], "Cy": ["5"]}]
    assert not play(definition, ["Ann", "Bob", "Cy"], hands).finished
    score = play(definition, ["Ann", "Bob", "Cy"], hands + [{"Ann": ["2"], "Bob": [], "Cy": ["K", "5"]}])
    assert score.finished and score.leader == ("Ann",)


def test_pressures_follow_crates_ladder_when_on_and_are_refused_when_off():
    definition = {"deal": [4, 4], "pressures": True, "pressure_cap": 20}
    score = play(definition, ["Ann", "Bob"], [({"Ann": ["K"], "Bob": []}, ("Bob", "Bob", "Bob", "Bob"))])
    assert [p.value for p in score.hands[0].pressures] == [5, 10, 20, 40]
    assert score.side("Bob").total == 75
    with pytest.raises(RefereeError, match="Kitchen has no pressures"):
        play({"deal": [4]}, ["Ann", "Bob"], [({"Ann": ["K"], "Bob": []}, ("Bob",))])


def test_partners_share_a_side_when_each_scores_their_own():
    score = play(
        {"deal": [5]},
        ["Ann", "Bob", "Cy", "Di"],
        [{"Ann": ["K"], "Bob": [], "Cy": ["2"], "Di": ["5"]}],
        partnerships=[["Ann", "Cy"], ["Bob", "Di"]],
    )
    assert {side.side.name: side.total for side in score.sides} == {"Ann & Cy": 12, "Bob & Di": 5}
    with pytest.raises(InvalidSeating, match="everyone plays alone"):
        play(
            {"deal": 5, "scoring": "winner", "end": "target", "limit": 100},
            ["Ann", "Bob", "Cy", "Di"],
            [],
            partnerships=[["Ann", "Cy"], ["Bob", "Di"]],
        )


def test_the_decks_limit_the_cards_left():
    with pytest.raises(RefereeError, match="5 × K in the leftovers, but one deck has only 4"):
        play({"deal": [5]}, ["Ann", "Bob"], [{"Ann": ["K", "K", "K"], "Bob": ["K", "K"]}])
    with pytest.raises(RefereeError, match="2 × Q♠ in the leftovers, but one deck has only 1"):
        play({"deal": [5], "special": {"QS": 40}}, ["Ann", "Bob"], [{"Ann": ["Qs"], "Bob": ["Qs"]}])


def test_the_check_refuses_what_the_scoring_would_with_its_message():
    special = house(special={"QS": 40})
    needs = r"Q♠ is a special card in Kitchen: give the suit of each Q \(e.g. Qs\)"
    with pytest.raises(RefereeError, match=f"^Bob's cards: {needs}\\.$"):
        special.check_leftovers({"Ann": cards("Qs"), "Bob": cards("Q")})
    with pytest.raises(RefereeError, match=f"^{needs}\\.$"):
        special.check_leftovers({SINGLE_HAND: cards("Q")})
    with pytest.raises(RefereeError, match=r"^Ann's cards: Kitchen has no jokers\.$"):
        house().check_leftovers({"Ann": cards("JK")})


@pytest.mark.parametrize("definition", [{"deal": [5]}, {"scoring": "winner", "end": "target", "limit": 50, "deal": 5}])
def test_only_one_player_can_go_out(definition):
    with pytest.raises(RefereeError, match="Hand 1: only one player can go out, but Ann and Bob have no cards"):
        play(definition, ["Ann", "Bob", "Cy"], [{"Ann": [], "Bob": [], "Cy": ["K"]}])


@pytest.mark.parametrize(
    "definition, message",
    [
        ({"values": {"Z": 3}}, "unknown rank 'Z'"),
        ({"values": {"K": "ten"}}, "points must be a whole number"),
        ({"values": {"Kh": 3}}, "is a card, not a rank"),
        ({"special": {"Q": 40}}, "a special card needs its suit"),
        ({"deal": []}, "need the cards dealt in each hand"),
        ({"deal": [0]}, "deal 1 to 26 cards"),
        ({"end": "target", "deal": 7}, "need the target.s points"),
        ({"end": "target", "deal": [7, 6], "limit": 100}, "deal one number of cards"),
        ({"end": "loss_line", "scoring": "winner", "deal": 7, "limit": 100}, "a loss line needs each player"),
        ({"scoring": "everyone"}, "option 'scoring' must be own or winner"),
        ({"pressure_cap": 20}, "needs pressures on"),
        ({"colour": "red"}, "house rules have no field 'colour'"),
    ],
)
def test_a_definition_that_cannot_be_played_is_refused_with_its_field(definition, message):
    with pytest.raises(InvalidOptions, match=message):
        house(**definition)


@pytest.mark.parametrize(
    "definition, key",
    [
        ({"name": ""}, "name"),
        ({"values": {"Z": 3}}, "values"),
        ({"special": {"Q": 40}}, "special"),
        ({"special": {"QS": 4000}}, "special"),
        ({"deal": [0]}, "deal"),
        ({"end": "target", "deal": 7}, "limit"),
        ({"end": "loss_line", "scoring": "winner", "deal": 7, "limit": 100}, "scoring"),
        ({"pressure_cap": 20}, "pressure_cap"),
        ({"decks": 3}, "decks"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_refusal_names_the_definition_key_it_is_about(definition, key):
    with pytest.raises(InvalidOptions) as refused:
        house(**definition)
    assert refused.value.field == key


definitions = st.fixed_dictionaries(
    {
        "name": st.text(alphabet="abcdefgh ", min_size=1, max_size=12).map(str.strip).filter(bool),
        "values": st.dictionaries(st.sampled_from(list(FACE)), st.integers(-1000, 1000)),
        "joker": st.none() | st.integers(0, 100),
        "special": st.dictionaries(st.sampled_from(["QS", "AH", "2C", "10D"]), st.integers(0, 100)),
        "decks": st.sampled_from([1, 2]),
        "pressures": st.booleans(),
    }
).flatmap(
    lambda base: st.one_of(
        st.builds(
            lambda deal: {**base, "end": "hands", "deal": deal}, st.lists(st.integers(1, 26), min_size=1, max_size=20)
        ),
        st.builds(
            lambda scoring, deal, limit: {**base, "end": "target", "scoring": scoring, "deal": [deal], "limit": limit},
            st.sampled_from(["own", "winner"]),
            st.integers(1, 26),
            st.integers(1, 1000),
        ),
    )
)


@given(definitions)
def test_a_definition_survives_the_record_unchanged(definition):
    rules = configure("house", definition)
    again = configure("house", rules.options())
    assert again == rules and again.options() == rules.options()
    assert again.name == definition["name"] and again.lowest_wins == (definition.get("scoring", "own") == "own")


def test_the_rules_card_says_the_definition_in_words():
    fixed = house(deal=[3, 2, 1])
    assert fixed.scoring_rules() == (
        ("Who scores", "each player scores their own cards; lowest total wins."),
        ("The end", "3 hands, dealt 3 2 1."),
        ("Decks", "1."),
        ("Pressures", "off."),
    )
    assert fixed.how_it_scores() == "Each player scores the cards left in their own hand."
    assert fixed.how_it_is_won() == "After 3 hands the lowest total wins."
    one = house(deal=[7])  # not "1 hands"
    assert dict(one.describe())["The end"] == "1 hand, dealt 7"
    assert one.how_it_is_won() == "After 1 hand the lowest total wins."
    target = house(scoring="winner", end="target", limit=150, deal=7, decks=2, pressures=True)
    assert dict(target.scoring_rules()) == {
        "Who scores": "the player who goes out collects; highest wins.",
        "The end": "first to 150 at the end of a hand, 7 cards each.",
        "Decks": "2.",
        "Pressures": "doubling.",
        "": "Blocked (nobody can go out): the lowest count collects from each other player the difference.",
    }
    assert target.how_it_scores() == "The player who goes out collects the count of every other hand."
    assert (
        target.how_it_is_won() == "The game ends when someone reaches 150 at the end of a hand; the highest total wins."
    )
    line = house(end="loss_line", limit=100, deal=5, pressures=True, pressure_cap=20)
    assert dict(line.describe())["The end"] == "100 or more loses, 5 cards each"
    assert dict(line.describe())["Pressures"] == "increase capped at 20"
    assert (
        line.how_it_is_won() == "100 or more loses: the game ends when at most one player is still below 100, who wins."
    )
    assert line.blocked_hand() is None


def test_the_card_values_list_the_ranks_then_the_special_cards_then_the_joker():
    rules = house(values={"8": 50}, special={"QS": 40}, joker=25)
    assert rules.card_values() == (
        *((rank, str(points)) for rank, points in {**FACE, "8": 50}.items()),
        ("Q♠", "40"),
        ("JK", "25"),
    )
    assert rules.uses_jokers() and not house().uses_jokers()


def test_the_phone_is_told_the_values_who_collects_the_end_and_the_pressures():
    table = play({"deal": [5]}, ["Ann", "Bob"], []).game
    rules = house(values={"8": 50}, special={"QS": 40}, joker=25)
    assert rules.leftover_terms() == {"points": {**FACE, "8": 50, "JK": 25}, "special": {"QS": 40}}
    assert house().leftover_terms() == {"points": FACE, "special": {}}
    assert house(deal=[3, 2]).end_terms(table) == {"hands": 2}
    assert house(end="target", limit=150, deal=7).end_terms(table) == {"target": 150, "bonus": 0}
    assert house(end="loss_line", limit=100, deal=7).end_terms(table) == {"loss_line": 100, "outright": None}
    assert [house(scoring=scoring, end="target", limit=9, deal=7).collect_terms() for scoring in ("own", "winner")] == [
        None,
        "points",
    ]
    assert house().pressure_terms() is None
    assert house(pressures=True, pressure_cap=20).pressure_terms() == {"first": 5, "cap": 20}


def test_a_game_to_a_target_or_a_loss_line_deals_its_one_number_every_hand_without_a_schedule():
    rules = house(end="target", limit=150, deal=7)
    assert [rules.cards_dealt(number, 3) for number in (1, 2, 40)] == [7, 7, 7]
    assert rules.schedule() == () and rules.max_hands() is None
    assert house(deal=[3, 2]).schedule() == (3, 2)


@pytest.mark.parametrize(
    "definition, message, key",
    [
        ({"values": [1, 2]}, 'house rules \'values\' must map ranks to points, e.g. {"A": 1, "K": 10}.', "values"),
        ({"values": {"JK": 5}}, "house rules give a joker's points in 'joker', not in 'values'.", "values"),
        (
            {"values": {"K": 1001}},
            "house rules values 'K': points must be a whole number from -1000 to 1000, not 1001.",
            "values",
        ),
        (
            {"values": {"K": -1001}},
            "house rules values 'K': points must be a whole number from -1000 to 1000, not -1001.",
            "values",
        ),
        (
            {"values": {"K": True}},
            "house rules values 'K': points must be a whole number from -1000 to 1000, not True.",
            "values",
        ),
        ({"values": {"Z": 3}}, "house rules values: unknown rank 'Z'.", "values"),
        (
            {"values": {"Kh": 3}},
            "house rules values: 'Kh' is a card, not a rank (suited cards go in 'special').",
            "values",
        ),
        ({"special": ["QS"]}, "house rules 'special' must map suited cards to points, e.g. {\"QS\": 40}.", "special"),
        ({"special": {"ZS": 40}}, "house rules special card: ", "special"),
        ({"special": {"Q": 40}}, "a special card needs its suit: 'Q' (e.g. Qs).", "special"),
        (
            {"special": {"QS": 1001}},
            "house rules special 'QS': points must be a whole number from -1000 to 1000, not 1001.",
            "special",
        ),
        ({"deal": "7"}, "house rules 'deal' must be whole numbers of cards, e.g. [8, 7, 6] or 7.", "deal"),
        ({"deal": True}, "house rules 'deal' must be whole numbers of cards, e.g. [8, 7, 6] or 7.", "deal"),
        ({"deal": [7, True]}, "house rules 'deal' must be whole numbers of cards, e.g. [8, 7, 6] or 7.", "deal"),
        ({"deal": [7] * 61}, "house rules can have at most 60 hands, not 61.", "deal"),
        ({"deal": [27]}, "house rules deal 1 to 26 cards a hand.", "deal"),
        ({"deal": [5, 0]}, "house rules deal 1 to 26 cards a hand.", "deal"),
        ({"deal": []}, "house rules ending after fixed hands need the cards dealt in each hand.", "deal"),
        (
            {"end": "target", "deal": [7, 6], "limit": 9},
            "house rules played to a target or loss line deal one number of cards.",
            "deal",
        ),
        ({"end": "target", "deal": 7}, "house rules ending at a target need the target's points ('limit').", "limit"),
        (
            {"end": "loss_line", "deal": 7},
            "house rules ending at a loss line need the loss line's points ('limit').",
            "limit",
        ),
        ({"pressure_cap": 20}, "a pressure increase cap needs pressures on.", "pressure_cap"),
        ({"limit": 0}, "option 'limit' must be at least 1, not 0.", "limit"),
        ({"name": "  "}, "option 'name' must be a non-empty name, not '  '.", "name"),
    ],
)
def test_each_refusal_of_a_definition_says_what_is_wrong_in_a_sentence(definition, message, key):
    with pytest.raises(InvalidOptions) as refused:
        house(**definition)
    assert str(refused.value).startswith(message) and str(refused.value).endswith(".")
    assert refused.value.field == key


def test_the_least_and_most_a_definition_may_say_are_taken():
    assert house(values={"K": 1000, "Q": -1000}).score_leftovers(cards("K Q")).total == 0
    assert house(special={"QS": -1000}).score_leftovers(cards("Qs")).total == -1000
    assert house(deal=[7] * 60).max_hands() == 60
    assert house(deal=[26, 1]).schedule() == (26, 1)
    assert house(deal=7).schedule() == (7,)
    assert house(end="target", limit=1, deal=[7]).end_terms(None) == {"target": 1, "bonus": 0}


def test_a_special_card_of_another_suit_scores_its_rank_and_the_joker_its_own_value():
    rules = house(values={"Q": 12}, special={"QS": 40, "KH": 30}, joker=-5)
    assert [rules.score_leftovers(cards(text)).total for text in ("Qs", "Qh", "Kh", "Ks", "JK", "A")] == [
        40,
        12,
        30,
        10,
        -5,
        1,
    ]
    with pytest.raises(RefereeError, match=r"^K♥ is a special card in Kitchen: give the suit of each K \(e.g. Ks\)\.$"):
        rules.score_leftovers(cards("K"))


def test_a_definition_without_a_name_is_called_house_rules():
    rules = configure("house", {"deal": [5]})
    assert rules.name == "House rules" and rules.options()["name"] == "House rules"


def test_the_least_pressure_cap_is_1():
    rules = house(pressures=True, pressure_cap=1)
    assert [rules.pressure_value(number) for number in (1, 2, 3)] == [5, 6, 7]
    with pytest.raises(InvalidOptions, match="option 'pressure_cap' must be at least 1, not 0"):
        house(pressures=True, pressure_cap=0)


def test_a_house_game_seats_2_to_10_players():
    names = [f"P{index}" for index in range(11)]
    assert play({"deal": [5]}, names[:10], []).game.players == tuple(names[:10])
    play({"deal": [5]}, names[:2], [])
    for players in (names[:1], names):
        with pytest.raises(InvalidSeating, match=f"^Kitchen is for 2 to 10 players, not {len(players)}\\.$") as refused:
            play({"deal": [5]}, players, [])
        assert refused.value.field == "players"


def test_reaching_the_target_exactly_ends_the_game():
    definition = {"scoring": "winner", "end": "target", "limit": 19, "deal": 5}
    score = play(definition, ["Ann", "Bob"], [{"Ann": [], "Bob": ["K", "9"]}])
    assert score.side("Ann").total == 19 and score.finished


def test_reaching_the_loss_line_exactly_loses():
    definition = {"end": "loss_line", "limit": 20, "deal": 5}
    score = play(definition, ["Ann", "Bob", "Cy"], [{"Ann": [], "Bob": ["K", "K"], "Cy": ["K", "Q"]}])
    assert [side.total for side in score.sides] == [0, 20, 20]
    assert score.finished and score.leader == ("Ann",)


def test_own_scoring_to_a_target_says_the_lowest_total_wins():
    assert house(end="target", limit=150, deal=7).how_it_is_won() == (
        "The game ends when someone reaches 150 at the end of a hand; the lowest total wins."
    )


def test_partners_are_refused_where_the_winner_collects_naming_the_partnerships():
    with pytest.raises(InvalidSeating) as refused:
        play(
            {"deal": 5, "scoring": "winner", "end": "target", "limit": 100},
            ["Ann", "Bob", "Cy", "Di"],
            [],
            partnerships=[["Ann", "Cy"], ["Bob", "Di"]],
        )
    assert str(refused.value) == "in Kitchen the player who goes out collects: everyone plays alone."
    assert refused.value.field == "partnerships"


def test_a_house_game_reads_as_house_rules_in_a_log():
    assert repr(house(scoring="winner", end="target", limit=9, deal=7)).startswith("HouseRules(title='Kitchen', ")


def test_a_definition_that_says_nothing_is_one_hand_of_seven_at_face_value():
    rules = configure("house")
    assert rules.options() == {
        "name": "House rules",
        "values": FACE,
        "joker": None,
        "special": {},
        "decks": 1,
        "scoring": "own",
        "end": "hands",
        "deal": [7],
        "limit": None,
        "pressures": False,
        "pressure_cap": None,
    }


def test_a_house_game_without_pressures_gives_no_pressure_a_value():
    with pytest.raises(RefereeError, match="^Kitchen has no pressures\\.$"):
        house().pressure_value(1)
    assert house(pressures=True).pressure_value(3) == 20


def test_where_the_winner_collects_the_rule_set_says_so_and_the_highest_wins():
    winner = house(scoring="winner", end="target", limit=9, deal=7)
    assert winner.winner_collects and not winner.lowest_wins
    assert not house().winner_collects and house().lowest_wins
