"""Seating, the deal and whole games.

000 "The Deal"; "Two-player, Three-player, and Five-player Crates"; "Skill-hand World Series".
"""

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

import pytest

from scorekeeper.scoring import Game, Hand, InvalidSeating, RefereeError, Side, configure, score_game
from scorekeeper.scoring.game import blank_table, partners_opposite, seated_opposite, usual_table, with_joiner
from scorekeeper.scoring.rulesets.crates import Crates
from tests.support.helpers import crates, game, hand


def test_fifteen_hands_dealt_eight_down_to_one_and_back():
    table = game()
    assert table.hand_count == 15
    assert [table.cards_dealt(n) for n in range(1, 16)] == [
        8,
        7,
        6,
        5,
        4,
        3,
        2,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
    ]


def test_the_deal_rotates_to_the_left_from_the_first_dealer():
    table = game(first_dealer="Cy")
    assert [table.dealer(n) for n in range(1, 7)] == ["Cy", "Di", "Ann", "Bob", "Cy", "Di"]
    assert table.first_to_play(1) == "Di"


def test_the_first_dealer_defaults_to_the_first_player():
    assert game().dealer(1) == "Ann"


@pytest.mark.parametrize("players", ["Ann Bob", "Ann Bob Cy", "Ann Bob Cy Di", "Ann Bob Cy Di Ed"])
def test_two_to_five_players_play_alone(players):
    table = game(players)
    assert [side.name for side in table.sides] == players.split()


@pytest.mark.parametrize("players", ["Ann", "Ann Bob Cy Di Ed Flo"])
def test_other_numbers_of_players_are_refused(players):
    with pytest.raises(InvalidSeating, match="2 to 5 players"):
        game(players)


def test_four_players_in_two_partnerships_sitting_opposite():
    table = game(partnerships="Ann+Cy Bob+Di")
    assert [(side.name, side.members) for side in table.sides] == [
        ("Ann & Cy", ("Ann", "Cy")),
        ("Bob & Di", ("Bob", "Di")),
    ]


def test_partners_must_sit_opposite():
    with pytest.raises(InvalidSeating, match="opposite"):
        game(partnerships="Ann+Bob Cy+Di")


@pytest.mark.parametrize(
    "players, partnerships, problem",
    [
        ("Ann Bob Cy", "Ann+Cy Bob", "four players"),
        ("Ann Bob Cy Di", "Ann+Cy", "no partnership"),
        ("Ann Bob Cy Di", "Ann+Cy Bob+Zed", "not a player"),
        ("Ann Bob Cy Di", "Ann+Cy Ann+Bob", "two partnerships"),
    ],
)
def test_broken_partnerships_are_refused(players, partnerships, problem):
    with pytest.raises(InvalidSeating, match=problem):
        game(players, partnerships)


def test_partners_sit_opposite_seats_one_and_three_against_two_and_four():
    assert partners_opposite(("Ann", "Bob", "Cy", "Di")) == (("Ann", "Cy"), ("Bob", "Di"))
    assert seated_opposite(("Ann", "Cy"), ("Bob", "Di")) == ["Ann", "Bob", "Cy", "Di"]
    with pytest.raises(InvalidSeating, match="four players, in two pairs"):
        partners_opposite(("Ann", "Bob", "Cy"))


@pytest.mark.parametrize(
    "make, field",
    [
        (lambda: game("Ann ann"), "players"),
        (lambda: game("Ann Bob Cy Di Ed Flo"), "players"),
        (lambda: game(first_dealer="Zed"), "first_dealer"),
        (lambda: game("Ann Figgy Bob", rules=configure("crates-world-series"), first_dealer="Figgy"), "first_dealer"),
        (lambda: game(partnerships="Ann+Bob Cy+Di"), "partnerships"),
        (lambda: game(partnerships="Ann+Cy Bob+Zed"), "partnerships"),
        (lambda: game(partnerships="Ann+Cy Bob+Di", rules=configure("crazy-eights")), "partnerships"),
    ],
)
def test_a_seating_refusal_names_what_it_is_about(make, field):
    with pytest.raises(InvalidSeating) as refused:
        make()
    assert refused.value.field == field


@pytest.mark.parametrize("players, problem", [("Ann ann", "two players"), ("Ann Ann", "two players")])
def test_player_names_must_differ(players, problem):
    with pytest.raises(InvalidSeating, match=problem):
        game(players)


@pytest.mark.parametrize(
    "players",
    [("A & B", "A", "C", "B & C"), ("a & B", "A", "c", "b & C")],
)
@pytest.mark.parametrize("rules", [crates(), configure("house", {"deal": [5]})])
def test_two_sides_that_would_share_a_name_are_refused(players, rules):
    # Seats 1 & 3 against 2 & 4: "A & B" with C, and A with "B & C", would both be "A & B & C".
    first, second, third, fourth = players
    with pytest.raises(InvalidSeating, match=r"would both be called '(?i:a & b & c)' on the score sheet"):
        Game(rules, players, ((first, third), (second, fourth)))


def test_sides_named_alike_but_apart_are_kept():
    table = Game(crates(), ("A & B", "A", "C", "B"), (("A & B", "C"), ("A", "B")))
    assert [side.name for side in table.sides] == ["A & B & C", "A & B"]


def test_the_first_dealer_must_be_a_player():
    with pytest.raises(InvalidSeating, match="first dealer"):
        game(first_dealer="Zed")


def test_a_whole_partnership_game_is_the_sum_of_its_hands():
    table = game(partnerships="Ann+Cy Bob+Di")
    hands = [
        # Ann: 3 covers the 6, the spare three goes on the pair: 3, plus the ace 1 = 4.
        # Cy: an eight, 50. Bob went out. Di: K 10 + 10 25 = 35. Bob's pressures 5 and 10.
        hand(("Bob", "Cy", "Bob"), Ann="A 3 3 6", Bob="", Cy="8", Di="K 10h"),
        # Ann out; Cy only threes -100; Bob 2 = 20; Di 3 covers 9: 3.
        hand(Ann="", Bob="2", Cy="3 3", Di="3 9"),
    ]
    result = score_game(table, hands)
    assert result.side("Ann & Cy").hands == (4 + 50 + 5, -100)
    assert result.side("Bob & Di").hands == (35 + 15, 23)
    assert result.side("Ann & Cy").total == -41
    assert result.side("Bob & Di").total == 73
    assert result.leader == ("Ann & Cy",)
    assert not result.finished


def test_a_tie_names_every_leader_and_shares_the_place():
    result = score_game(game("Ann Bob Cy"), [hand(Ann="K", Bob="J", Cy="")])
    assert result.leader == ("Cy",)
    result = score_game(game("Ann Bob Cy"), [hand(Ann="K", Bob="J", Cy="Q Q")])
    assert set(result.leader) == {"Ann", "Bob"}
    assert [(place, side.side.name) for place, side in result.standings()] == [
        (1, "Ann"),
        (1, "Bob"),
        (3, "Cy"),
    ]


def test_a_finished_game_has_all_fifteen_hands():
    table = game("Ann Bob")
    result = score_game(table, [hand(Ann="", Bob="A")] * 15)
    assert result.finished and result.side("Bob").total == 15


def test_no_more_hands_than_the_schedule():
    with pytest.raises(RefereeError, match="Hand 16: Crates has only 15 hands"):
        score_game(game("Ann Bob"), [hand(Ann="", Bob="A")] * 16)


def test_card_actions_for_four_players():
    actions = {a.card: a.action for a in crates().card_actions(4)}
    assert actions["7"] == "next player but one takes a card"
    assert actions["J"] == "none"
    assert "JK" not in actions


def test_with_two_or_three_players_seven_and_jack_change():
    # 000: "in the two-player and three-player games ... 7: next player takes a card;
    # J: previous player takes a card"
    actions = {a.card: a.action for a in crates(jokers=True).card_actions(3)}
    assert actions["7"] == "next player takes a card"
    assert actions["J"] == "previous player takes a card"
    assert "JK" in actions


# The Skill-hand World Series (000) -------------------------------------------------


def world_series(players="Ann Figgy Bob", **kwargs):
    return game(players, rules=configure("crates-world-series"), **kwargs)


def test_world_series_hands_are_two_one_one_two():
    table = world_series()
    assert [table.cards_dealt(n) for n in range(1, 5)] == [2, 1, 1, 2]


def test_figgy_starts_at_minus_fifty():
    result = score_game(world_series(), [])
    assert result.side("Figgy").total == -50
    assert result.leader == ("Figgy",)


def test_figgy_never_deals_but_can_play_first():
    table = world_series()
    assert [table.dealer(n) for n in range(1, 5)] == ["Ann", "Bob", "Ann", "Bob"]
    assert table.first_to_play(1) == "Figgy"


def test_figgy_cannot_be_first_dealer():
    with pytest.raises(InvalidSeating, match="never deals"):
        world_series(first_dealer="Figgy")


def test_a_pressure_to_figgy_is_refused_and_goes_to_the_next_player():
    with pytest.raises(
        RefereeError,
        match="Hand 1: Figgy never takes a pressure: it goes to the next player to play",
    ):
        score_game(world_series(), [hand(("Figgy",), Ann="", Figgy="K", Bob="A")])


def test_the_world_series_is_two_players_and_the_dummy():
    with pytest.raises(InvalidSeating, match="dummy Figgy"):
        world_series("Ann Bob Cy")
    with pytest.raises(InvalidSeating, match="dummy Figgy"):
        world_series("Ann Bob Cy Figgy")


def test_the_dummy_can_have_another_name():
    rules = configure("crates-world-series", {"dummy": "Fighdij"})
    result = score_game(game("Ann Fighdij Bob", rules=rules), [hand(Ann="K", Fighdij="", Bob="3 3")])
    assert [side.total for side in result.sides] == [10, -50, -100]


def test_a_world_series_game_ends_after_four_hands():
    hands = [hand(Ann="", Figgy="A", Bob="K")] * 4
    result = score_game(world_series(), hands)
    assert result.finished
    assert result.side("Figgy").total == -46
    with pytest.raises(RefereeError, match="only 4 hands"):
        score_game(world_series(), hands + hands[:1])


# Seating rule by rule, in the words a player reads


def test_partners_opposite_is_for_four_seats_only():
    for seats in (("Ann", "Bob", "Cy"), ("Ann", "Bob", "Cy", "Di", "Ed")):
        with pytest.raises(InvalidSeating) as refused:
            partners_opposite(seats)
        assert str(refused.value) == "partnerships are for four players, in two pairs."
        assert refused.value.field == "partnerships"
    assert partners_opposite(["Di", "Cy", "Bob", "Ann"]) == (("Di", "Bob"), ("Cy", "Ann"))
    assert partners_opposite(seated_opposite(("Di", "Bob"), ("Cy", "Ann"))) == (("Di", "Bob"), ("Cy", "Ann"))


@pytest.mark.parametrize(
    "partnerships, message",
    [
        ("Ann+Cy Bob+Di Ed", "partnerships are for four players, in two pairs."),
        ("Ann+Cy+Bob Di", "partnerships are for four players, in two pairs."),
        ("Ann+Cy+Bob+Di", "partnerships are for four players, in two pairs."),
        ("Ann+Bob Cy+Di", "partners sit opposite: Ann and Bob are seated next to each other."),
        ("Ann+Cy Di+Bob", None),
        ("Cy+Ann Bob+Di", None),
    ],
)
def test_crates_partnerships_are_two_pairs_sitting_opposite(partnerships, message):
    players = "Ann Bob Cy Di Ed" if "Ed" in partnerships else "Ann Bob Cy Di"
    if message is None:
        assert game(players, partnerships).has_partnerships
        return
    with pytest.raises(InvalidSeating) as refused:
        game(players, partnerships)
    assert str(refused.value) == message
    assert refused.value.field == "partnerships"


def test_partnerships_of_one_player_each_are_no_partnerships():
    table = game("Ann Bob", partnerships="Ann Bob")
    assert not table.has_partnerships
    assert [(side.name, side.members) for side in table.sides] == [("Ann", ("Ann",)), ("Bob", ("Bob",))]


@pytest.mark.parametrize(
    "players, partnerships, message",
    [
        ("Ann Bob Cy Di", "Ann+Cy Bob+Zed", "partnership member 'Zed' is not a player of this game."),
        ("Ann Bob Cy Di", "Ann+Cy Bob+Ann", "Ann is in two partnerships."),
        ("Ann Bob Cy Di", "Ann+Cy Bob", "Di is in no partnership: each player must be in exactly one."),
    ],
)
def test_every_player_is_in_exactly_one_partnership(players, partnerships, message):
    with pytest.raises(InvalidSeating) as refused:
        game(players, partnerships)
    assert str(refused.value) == message
    assert refused.value.field == "partnerships"


@pytest.mark.parametrize(
    "players, message",
    [
        ((), "a game needs players."),
        (("Ann", ""), "every player needs a name."),
        (("Ann", "   "), "every player needs a name."),
        (("Ann", 7), "every player needs a name."),
        (("Ann", " Bob"), "the name ' Bob' starts or ends with a space."),
        (("Ann", "Bob "), "the name 'Bob ' starts or ends with a space."),
        (("Ann", "Bob", "ANN"), "two players are called 'ANN': give each a different name."),
    ],
)
def test_every_player_has_a_name_of_their_own(players, message):
    with pytest.raises(InvalidSeating) as refused:
        Game(crates(), players)
    assert str(refused.value) == message
    assert refused.value.field == "players"


def test_the_first_dealer_is_refused_by_name_beside_its_field():
    with pytest.raises(InvalidSeating) as refused:
        game(first_dealer="Zed")
    assert str(refused.value) == "the first dealer 'Zed' is not a player of this game."
    assert refused.value.field == "first_dealer"


def test_sides_named_alike_are_refused_naming_both_partnerships():
    with pytest.raises(InvalidSeating) as refused:
        Game(crates(), ("A & B", "A", "C", "B & C"), (("A & B", "C"), ("A", "B & C")))
    assert str(refused.value) == (
        "the partnerships 'A & B' with 'C' and 'A' with 'B & C' would both be called 'A & B & C' on the score "
        "sheet: rename a player so that each side has a name of its own."
    )
    assert refused.value.field == "players"


def test_a_player_is_on_one_side():
    table = game(partnerships="Ann+Cy Bob+Di")
    assert table.side_of("Cy") == Side("Ann & Cy", ("Ann", "Cy"))
    assert table.side_of("Bob").name == "Bob & Di"
    assert game("Ann Bob").side_of("Bob") == Side("Bob", ("Bob",))
    with pytest.raises(InvalidSeating, match=r"^'Zed' is not a player of this game\.$"):
        table.side_of("Zed")


def test_a_game_played_to_a_score_has_no_number_of_hands():
    with pytest.raises(ValueError, match=r"^Crazy Eights has no fixed number of hands$"):
        _ = game("Ann Bob", rules=configure("crazy-eights")).hand_count


def test_the_deal_wraps_round_the_table_and_play_starts_on_the_dealers_left():
    table = game(first_dealer="Di")
    assert [table.dealer(n) for n in range(1, 6)] == ["Di", "Ann", "Bob", "Cy", "Di"]
    assert [table.first_to_play(n) for n in range(1, 6)] == ["Ann", "Bob", "Cy", "Di", "Ann"]
    assert table.cards_dealt(2) == 7
    two = game("Ann Bob")
    assert [two.dealer(n) for n in range(1, 4)] == ["Ann", "Bob", "Ann"]
    assert [two.first_to_play(n) for n in range(1, 4)] == ["Bob", "Ann", "Bob"]


def test_seating_and_hands_are_values_that_cannot_change():
    table = game()
    left = hand(Ann="K", Bob="", Cy="", Di="")
    assert hash(Side("Ann", ("Ann",))) == hash(Side("Ann", ("Ann",)))
    for part in (table, table.sides[0], left):
        with pytest.raises(dataclasses.FrozenInstanceError):
            part.players = ()  # type: ignore[misc, union-attr]
    assert Hand({"Ann": ()}).pressures == ()


def test_the_world_series_seats_its_dummy_unless_named():
    series = configure("crates-world-series")
    assert with_joiner(series, ["Ann", "Bob"]) == ("Ann", "Bob", "Figgy")
    assert with_joiner(series, ["Ann", "figgy", "Bob"]) == ("Ann", "figgy", "Bob")
    assert with_joiner(crates(), ["Ann", "Bob"]) == ("Ann", "Bob")


def test_a_blank_table_has_numbered_seats():
    assert blank_table(crates(), 3).players == ("Seat 1", "Seat 2", "Seat 3")
    assert blank_table(configure("crates-world-series"), 2).players == ("Seat 1", "Seat 2", "Figgy")
    with pytest.raises(InvalidSeating):
        blank_table(crates(), 6)


@dataclass(frozen=True)
class SeatsOnly(Crates):
    """Crates for the table sizes in ``SEATS`` alone (none: a game no table seats)."""

    SEATS: ClassVar[tuple[int, ...]] = ()

    def check_seating(self, game: Game) -> None:
        if len(game.players) not in self.SEATS:
            raise InvalidSeating("not for this many")


def only(*seats: int) -> SeatsOnly:
    return type("Only", (SeatsOnly,), {"SEATS": seats, "__annotations__": {}})()


@pytest.mark.parametrize(
    "rules, usual",
    [
        (crates(), 4),
        (configure("hollywood-eights"), 2),
        (configure("crates-world-series"), 2),
        (only(2, 3), 2),
        (only(3, 5), 3),
        (only(5), 5),
        (only(6), 4),
        (only(), 4),
    ],
)
def test_a_blank_sheet_seats_four_where_it_can_else_the_fewest(rules, usual):
    assert usual_table(rules) == usual
