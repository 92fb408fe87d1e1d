"""The referee's checks: each refusal names the hand, the player and the problem."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring import (
    RULE_SETS,
    Card,
    Game,
    Hand,
    Rank,
    RefereeError,
    ScoringError,
    Suit,
    check_hand,
    configure,
    score_game,
)
from scorekeeper.scoring.rulesets import SINGLE_HAND
from tests.support.helpers import cards, crates, game, hand


def refusal(hands, table=None) -> str:
    with pytest.raises(RefereeError) as caught:
        score_game(table or game("Ann Bob Cy Di"), hands)
    return str(caught.value)


def test_five_kings_with_one_deck_names_who_holds_them():
    message = refusal([hand(Ann="", Bob="K K K", Cy="", Di="K K")])
    assert message == ("Hand 1: 5 × K in the leftovers, but one deck has only 4. Check Bob's and Di's cards.")


def test_the_count_is_per_hand_not_per_game():
    hands = [hand(Ann="K K", Bob="K K", Cy="", Di="")] * 2
    assert score_game(game(), hands).side("Ann").total == 40


def test_two_decks_hold_eight_of_a_rank():
    table = game(rules=crates(decks=2))
    score_game(table, [hand(Ann="K K K K", Bob="K K K K", Cy="", Di="")])
    assert "2 decks have only 8" in refusal([hand(Ann="K K K K K", Bob="K K K K", Cy="", Di="")], table)


def test_the_same_suited_card_twice_in_one_deck():
    message = refusal([hand(Ann="Qs", Bob="", Cy="QS", Di="")])
    assert message.startswith("Hand 1: 2 × Q♠ in the leftovers, but one deck has only 1")


def test_jokers_only_when_they_are_on():
    message = refusal([hand(Ann="", Bob="JK", Cy="", Di="")])
    assert message == "Hand 1: Bob has a joker, but jokers are off in this game."


def test_two_jokers_per_deck():
    table = game(rules=crates(jokers=True))
    assert score_game(table, [hand(Ann="JK", Bob="JK", Cy="", Di="")]).side("Ann").total == 40
    assert "3 × JK" in refusal([hand(Ann="JK JK", Bob="JK", Cy="", Di="")], table)


def test_every_player_needs_leftovers():
    message = refusal([hand(Ann="", Bob="K", Cy="")])
    assert message == "Hand 1, Di: no leftovers given (an empty list if Di went out)."


def test_leftovers_for_someone_not_at_the_table():
    message = refusal([hand(Ann="", Bob="K", Cy="", Di="", Zed="A")])
    assert message == "Hand 1: 'Zed' is not a player of this game."


def test_a_pressure_to_someone_not_at_the_table():
    message = refusal([hand(("Zed",), Ann="", Bob="K", Cy="", Di="")])
    assert message == "Hand 1: pressure to 'Zed', who is not a player of this game."


def test_a_later_hand_is_named():
    hands = [hand(Ann="K", Bob="", Cy="", Di="")] * 5 + [hand(Ann="8 8 8", Bob="8 8", Cy="", Di="")]
    assert refusal(hands).startswith("Hand 6: 5 × 8")


def test_check_leftovers_for_a_single_hand_speaks_of_one_hand():
    with pytest.raises(RefereeError, match="5 × K in one hand, but one deck has only 4"):
        crates().check_leftovers({SINGLE_HAND: cards("K K K K K")})


def test_game_and_hand_objects_are_plain_data():
    table = Game(crates(), ("Ann", "Bob"))
    assert Hand({"Ann": (), "Bob": ()}) == Hand({"Ann": (), "Bob": ()}, ())
    assert table.sides[0].name == "Ann"


@pytest.mark.parametrize("rules", ["crates", "creights"])
def test_in_crates_others_can_go_out_during_the_count(rules):
    # 000: the 2-sequence goes on after a player goes out, "so a player may actually have to draw
    # cards after going out"; the player who cannot play an A or 2 draws, and the hand ends.
    table = game(rules=configure(rules))
    score = score_game(table, [hand(Ann="", Bob="", Cy="", Di="K 2 A")])
    assert score.side("Di").total == 10 + 20 + 1


def test_in_the_world_series_two_can_go_out_during_the_count_too():
    table = Game(configure("crates-world-series"), ("Ann", "Figgy", "Bob"))
    assert score_game(table, [hand(Ann="", Figgy="", Bob="2 2")]).side("Bob").total == 40


@pytest.mark.parametrize("players", ["Ann Bob", "Ann Bob Cy Di"])
def test_nobody_ends_a_crates_hand_without_someone_holding_cards(players):
    # The count ends only when a player cannot play and draws: someone always holds cards.
    table = game(players)
    with pytest.raises(RefereeError, match="^Hand 1: nobody has any cards left, but a hand ends with someone"):
        score_game(table, [hand(**dict.fromkeys(players.split(), ""))])


def test_check_leftovers_of_part_of_a_crates_hand_lets_several_be_out():
    crates().check_leftovers({"Ann": (), "Bob": ()})


# What the checks accept, the scoring accepts: for every rule set of the registry, with its options.


def variants(rule_set_id):
    """The rule set with its defaults, and with each yes/no option on and each listed choice."""
    cls = RULE_SETS[rule_set_id]
    if rule_set_id == "house":
        definitions = [
            {"deal": [5]},
            {"deal": [5, 3], "special": {"QS": 50, "2H": -5}, "pressures": True},
            {"joker": 25, "decks": 2, "scoring": "winner", "end": "target", "limit": 100, "deal": 5},
            {"joker": 0, "special": {"AC": 40}, "end": "loss_line", "limit": 60, "deal": 4},
        ]
        return [configure("house", definition) for definition in definitions]
    options = [{}]
    for spec in cls.option_specs():
        if spec.kind == "bool":
            options.append({spec.name: not spec.default})
        options += [{spec.name: choice} for choice in spec.choices if choice != spec.default]
    return [configure(rule_set_id, chosen) for chosen in options]


NAMES = ("Figgy", "Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy")


def seatings(rules):
    """Every number of players the rule set takes (the dummy is called Figgy), and partnerships where allowed."""
    for count in range(2, len(NAMES) + 1):
        players = NAMES[:count]
        teams = [()] + ([((players[0], players[2]), (players[1], players[3]))] if count == 4 else [])
        for partnerships in teams:
            try:
                yield Game(rules, players, partnerships)
            except ScoringError:
                continue


GAMES = [table for rule_set_id in RULE_SETS for rules in variants(rule_set_id) for table in seatings(rules)]

any_card = st.builds(
    lambda rank, suit: Card(rank, None if rank is Rank.JOKER else suit),
    st.sampled_from(list(Rank)),
    st.one_of(st.none(), st.sampled_from(list(Suit))),
)
leftovers = st.lists(any_card, max_size=6).map(tuple)


def test_the_property_covers_every_rule_set():
    assert {table.rules.id for table in GAMES} == set(RULE_SETS)
    assert any(table.has_partnerships for table in GAMES)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(GAMES), st.data())
def test_a_hand_the_referee_accepts_is_a_hand_the_engine_scores(table, data):
    the_hand = Hand({player: data.draw(leftovers, label=player) for player in table.players})
    try:
        check_hand(table, 1, the_hand)
    except ScoringError:
        return
    score_game(table, [the_hand])


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted({table.rules for table in GAMES}, key=repr)), leftovers)
def test_one_hand_the_calculator_accepts_is_one_hand_it_scores(rules, held):
    try:
        rules.check_leftovers({SINGLE_HAND: held})
    except ScoringError:
        return
    rules.score_leftovers(held)
