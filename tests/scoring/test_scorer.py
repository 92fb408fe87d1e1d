"""A whole game scored from its hands (``scoring/scorer.py``), sum by sum: what each hand shows,
each side's pressures and running totals, who leads, the replay output, and the referee's
refusals in the words a player reads.

000 "Pressure penalties": a side's pressures cost 5, 10, 20, ... in the order taken; 000 "Card
Points Table": A 1, 2 20, K 10; 002: the player who goes out collects the others' counts, the
first to 100 wins with a 100-point bonus; 001: the 500 rule wins outright.
"""

import dataclasses

import pytest

from scorekeeper.scoring import GameScore, Hand, RefereeError, configure, score_game
from scorekeeper.scoring.game import Side
from scorekeeper.scoring.rulesets.base import GameColumn
from scorekeeper.scoring.scorer import PressureTaken, SideHand, SideScore, check_hand
from tests.support.helpers import game, hand

#: Ann, Bob and Cy at Crates. Hand 1 (Ann deals eight): Bob takes two pressures (5, 10), Ann one
#: (5); Ann holds a K (10), Bob went out, Cy holds an ace (1). Hand 2 (Bob deals seven): Bob's
#: third pressure (20); Bob holds a 2 (20), Cy a K (10), Ann went out.
HANDS = [
    hand(("Bob", "Bob", "Ann"), Ann="K", Bob="", Cy="A"),
    hand(("Bob",), Ann="", Bob="2", Cy="K"),
]


def played():
    return score_game(game("Ann Bob Cy"), HANDS)


def test_each_hand_shows_its_deal_its_pressures_and_each_sides_sum():
    first, second = played().hands
    assert (first.number, first.cards_dealt, first.dealer) == (1, 8, "Ann")
    assert (second.number, second.cards_dealt, second.dealer) == (2, 7, "Bob")
    assert first.pressures == (
        PressureTaken("Bob", "Bob", 1, 5),
        PressureTaken("Bob", "Bob", 2, 10),
        PressureTaken("Ann", "Ann", 1, 5),
    )
    assert second.pressures == (PressureTaken("Bob", "Bob", 3, 20),)
    assert first.sides == {"Ann": SideHand(10, 5), "Bob": SideHand(0, 15), "Cy": SideHand(1, 0)}
    assert [first.sides[name].total for name in ("Ann", "Bob", "Cy")] == [15, 15, 1]
    assert {player: scored.total for player, scored in second.leftovers.items()} == {"Ann": 0, "Bob": 20, "Cy": 10}


def test_each_side_adds_up_its_hands_and_knows_its_next_pressure():
    result = played()
    ann, bob, cy = (result.side(name) for name in ("Ann", "Bob", "Cy"))
    assert (ann.hands, bob.hands, cy.hands) == ((15, 0), (15, 40), (1, 10))
    assert (ann.pressures, bob.pressures, cy.pressures) == ((5, 0), (15, 20), (0, 0))
    assert (ann.total, bob.total, cy.total) == (15, 55, 11)
    assert (ann.running_totals(), bob.running_totals(), cy.running_totals()) == ((15, 15), (15, 55), (1, 11))
    assert (ann.pressures_taken, bob.pressures_taken, cy.pressures_taken) == (1, 3, 0)
    assert (ann.next_pressure, bob.next_pressure, cy.next_pressure) == (10, 40, 5)
    assert (ann.start, ann.bonus) == (0, 0)
    assert not result.finished


def test_the_lowest_total_leads_and_the_standings_place_every_side():
    result = played()
    assert result.leader == ("Cy",)
    assert [(place, side.side.name) for place, side in result.standings()] == [(1, "Cy"), (2, "Ann"), (3, "Bob")]
    with pytest.raises(KeyError):
        result.side("Zed")


def test_tied_sides_share_a_place_and_the_next_skips_it():
    result = score_game(game("Ann Bob Cy Di"), [hand(Ann="K", Bob="", Cy="J", Di="A")])
    assert [(place, side.side.name) for place, side in result.standings()] == [
        (1, "Bob"),
        (2, "Di"),
        (3, "Ann"),
        (3, "Cy"),
    ]
    result = score_game(game("Ann Bob Cy Di"), [hand(Ann="K", Bob="Q", Cy="J", Di="")])
    assert [place for place, _ in result.standings()] == [1, 2, 2, 2]
    assert result.leader == ("Di",)


def test_the_replay_output_lists_every_side_and_the_game():
    assert played().to_json() == {
        "sides": [
            {"name": "Ann", "members": ["Ann"], "hands": [15, 0], "pressures": [5, 0], "total": 15, "start": 0},
            {"name": "Bob", "members": ["Bob"], "hands": [15, 40], "pressures": [15, 20], "total": 55, "start": 0},
            {"name": "Cy", "members": ["Cy"], "hands": [1, 10], "pressures": [0, 0], "total": 11, "start": 0},
        ],
        "leader": ["Cy"],
        "rules": "crates",
        "hands_played": 2,
        "hands_in_game": 15,
        "finished": False,
    }


def test_a_starting_score_counts_in_the_total_and_every_running_total():
    # 000 "Skill-hand World Series": Figgy, the dummy, starts at -50.
    result = score_game(
        game("Ann Figgy Bob", rules=configure("crates-world-series")), [hand(Ann="", Figgy="A", Bob="K")]
    )
    figgy = result.side("Figgy")
    assert (figgy.start, figgy.hands, figgy.total, figgy.running_totals()) == (-50, (1,), -49, (-49,))
    assert result.to_json()["sides"][1] == {
        "name": "Figgy",
        "members": ["Figgy"],
        "hands": [1],
        "pressures": [0],
        "total": -49,
        "start": -50,
    }


def eights_win():
    # Ann goes out; Bob's two eights (50 each) go to Ann: 100, the target. 002: +100 bonus.
    return score_game(game("Ann Bob", rules=configure("crazy-eights")), [hand(Ann="", Bob="8 8")])


def test_the_winners_bonus_counts_in_the_total_and_the_replay_output():
    result = eights_win()
    ann = result.side("Ann")
    assert result.finished
    assert (ann.hands, ann.bonus, ann.total, ann.running_totals()) == ((100,), 100, 200, (100,))
    assert result.side("Bob").total == 0
    assert result.leader == ("Ann",)  # the highest total wins at Crazy Eights
    assert [side.side.name for _, side in result.standings()] == ["Ann", "Bob"]
    output = result.to_json()
    assert output["bonuses"] == {"Ann": 100}
    assert output["finished"] is True and output["hands_in_game"] is None
    assert "outright" not in output and "columns" not in output
    assert "bonuses" not in played().to_json()


def test_a_game_without_pressures_has_no_next_pressure_and_refuses_one():
    assert [side.next_pressure for side in eights_win().sides] == [0, 0]
    with pytest.raises(RefereeError, match=r"^Hand 1: Crazy Eights has no pressures\.$"):
        score_game(game("Ann Bob", rules=configure("crazy-eights")), [hand(("Ann",), Ann="", Bob="8 8")])


def test_no_hand_after_the_game_is_decided_unless_the_score_stops_there():
    hands = [hand(Ann="", Bob="8 8"), hand(Ann="K", Bob="")]
    table = game("Ann Bob", rules=configure("crazy-eights"))
    with pytest.raises(RefereeError, match=r"^Hand 2: the game was already decided after hand 1\.$"):
        score_game(table, hands)
    stopped = score_game(table, hands, until_decided=True)
    assert len(stopped.hands) == 1 and stopped.finished and stopped.side("Ann").total == 200


def test_undecided_games_take_no_bonus():
    # Ann collects 50 of the 100 she needs.
    result = score_game(game("Ann Bob", rules=configure("crazy-eights")), [hand(Ann="", Bob="8")])
    assert not result.finished and result.side("Ann").bonus == 0 and result.side("Ann").total == 50


def test_reaching_five_hundred_wins_outright_and_leads_whatever_the_total():
    # 001, the 500 rule: four deuces double the hand four times: (2 × 4 + 22 × 4) × 16 = 1536.
    rules = configure("two-fifty", {"five_hundred": True})
    result = score_game(game("Ann Bob Cy", rules=rules), [hand(Ann="2h 2s 2d 2c Ah As Ad Ac", Bob="Kh", Cy="")])
    assert result.side("Ann").total == 1536
    assert result.finished and result.outright == ("Ann",)
    assert result.leader == ("Ann",)
    assert [(place, side.side.name) for place, side in result.standings()] == [(1, "Ann"), (2, "Cy"), (3, "Bob")]
    assert result.to_json()["outright"] == ["Ann"]
    assert "outright" not in played().to_json()


def test_without_the_500_rule_nobody_wins_outright():
    rules = configure("two-fifty")
    result = score_game(game("Ann Bob Cy", rules=rules), [hand(Ann="2h 2s 2d 2c Ah As Ad Ac", Bob="Kh", Cy="")])
    assert result.outright == () and not result.finished and result.leader == ("Cy",)


def sides_of(*totals: int) -> tuple[SideScore, ...]:
    names = "Ann Bob Cy".split()
    return tuple(
        SideScore(Side(name, (name,)), 0, (total,), (0,), 0, 5) for name, total in zip(names, totals, strict=False)
    )


def test_in_a_session_of_columns_the_most_games_won_leads_before_the_total():
    table = game("Ann Bob Cy", rules=configure("crates"))
    columns = (
        GameColumn(1, {"Ann": 100, "Bob": 0, "Cy": 0}, "Ann", 1),
        GameColumn(2, {"Ann": 0, "Bob": 100, "Cy": 0}, "Bob", 2),
        GameColumn(3, {"Ann": 0, "Bob": 100, "Cy": 0}, "Bob", 3),
    )
    result = GameScore(table, (), sides_of(10, 50, 0), True, columns)
    assert [result.games_won(name) for name in ("Ann", "Bob", "Cy")] == [1, 2, 0]
    assert result.leader == ("Bob",)
    assert [side.side.name for _, side in result.standings()] == ["Bob", "Ann", "Cy"]
    assert result.to_json()["columns"] == [
        {"game": 1, "totals": {"Ann": 100, "Bob": 0, "Cy": 0}, "winner": "Ann", "won_in_hand": 1},
        {"game": 2, "totals": {"Ann": 0, "Bob": 100, "Cy": 0}, "winner": "Bob", "won_in_hand": 2},
        {"game": 3, "totals": {"Ann": 0, "Bob": 100, "Cy": 0}, "winner": "Bob", "won_in_hand": 3},
    ]


def test_two_outright_winners_share_the_lead():
    table = game("Ann Bob Cy", rules=configure("crates"))
    result = GameScore(table, (), sides_of(600, 0, 550), True, outright=("Ann", "Cy"))
    assert result.leader == ("Ann", "Cy")
    assert [(place, side.side.name) for place, side in result.standings()] == [(1, "Ann"), (1, "Cy"), (3, "Bob")]


def test_going_on_from_an_earlier_score_gives_the_score_from_the_first_hand():
    table = game("Ann Bob Cy")
    more = [*HANDS, hand(("Ann", "Cy"), Ann="A", Bob="", Cy="K")]
    earlier = score_game(table, HANDS)
    assert score_game(table, more, scored_before=earlier) == score_game(table, more)
    went_on = score_game(table, more, scored_before=earlier)
    assert [side.total for side in went_on.sides] == [15 + 1 + 10, 55, 11 + 10 + 5]
    assert went_on.side("Ann").next_pressure == 20
    # An earlier score of more hands than given is not this game's start: scored afresh.
    assert score_game(table, HANDS[:1], scored_before=earlier) == score_game(table, HANDS[:1])


def test_going_on_from_a_decided_game_refuses_the_next_hand():
    table = game("Ann Bob", rules=configure("crazy-eights"))
    decided = score_game(table, [hand(Ann="", Bob="8 8")])
    with pytest.raises(RefereeError, match="already decided after hand 1"):
        score_game(table, [hand(Ann="", Bob="8 8"), hand(Ann="K", Bob="")], scored_before=decided)


def test_no_more_hands_than_the_game_has():
    with pytest.raises(RefereeError, match=r"^Hand 16: Crates has only 15 hands\.$"):
        score_game(game("Ann Bob"), [hand(Ann="", Bob="A")] * 16)
    assert len(score_game(game("Ann Bob"), [hand(Ann="", Bob="A")] * 15).hands) == 15


@pytest.mark.parametrize(
    "leftovers, pressures, message",
    [
        ({"Ann": "K", "Bob": "", "Cy": "A", "Zed": "Q"}, (), "Hand 3: 'Zed' is not a player of this game."),
        ({"Ann": "K", "Bob": ""}, (), "Hand 3, Cy: no leftovers given (an empty list if Cy went out)."),
        ({"Ann": "K", "Bob": "", "Cy": "JK"}, (), "Hand 3: Cy has a joker, but jokers are off in this game."),
        (
            {"Ann": "K", "Bob": "", "Cy": "A"},
            ("Zed",),
            "Hand 3: pressure to 'Zed', who is not a player of this game.",
        ),
        (
            {"Ann": "", "Bob": "", "Cy": ""},
            (),
            "Hand 3: nobody has any cards left, but a hand ends with someone still holding cards "
            "(even the count ends with a player drawing).",
        ),
    ],
)
def test_the_referee_refuses_a_hand_that_could_not_have_happened(leftovers, pressures, message):
    with pytest.raises(RefereeError) as refused:
        check_hand(game("Ann Bob Cy"), 3, hand(pressures, **leftovers))
    assert str(refused.value) == message


def test_a_hand_the_referee_accepts():
    check_hand(game("Ann Bob Cy"), 3, hand(("Ann", "Cy"), Ann="K", Bob="", Cy="A"))
    check_hand(game("Ann Bob Cy"), 3, Hand({"Ann": (), "Bob": (), "Cy": tuple(hand(Cy="A").leftovers["Cy"])}))


def test_a_score_is_a_value_that_cannot_change():
    result = played()
    parts = [result, result.hands[0], result.sides[0], result.hands[0].sides["Ann"], result.hands[0].pressures[0]]
    for part in parts:
        with pytest.raises(dataclasses.FrozenInstanceError):
            part.number = 0  # type: ignore[misc, union-attr]


def test_an_outright_win_leads_before_any_number_of_games_won():
    # GameScore's order: an outright win first, then more games won, then the total.
    table = game("Ann Bob Cy", rules=configure("crates"))
    columns = (
        GameColumn(1, {"Ann": 0, "Bob": 100, "Cy": 0}, "Bob", 1),
        GameColumn(2, {"Ann": 0, "Bob": 100, "Cy": 0}, "Bob", 2),
        GameColumn(3, {"Ann": 0, "Bob": 0, "Cy": 0}),
    )
    result = GameScore(table, (), sides_of(600, 0, 0), True, columns, outright=("Ann",))
    assert result.leader == ("Ann",)
    assert [(place, side.side.name) for place, side in result.standings()] == [(1, "Ann"), (2, "Bob"), (3, "Cy")]


def test_a_score_built_without_a_bonus_or_an_end_has_neither():
    ann = sides_of(10)[0]
    assert (ann.bonus, ann.total) == (0, 10)
    assert not GameScore(game("Ann Bob Cy"), (), sides_of(10, 20, 30)).finished


def test_going_on_counts_the_earlier_totals_towards_the_end():
    # Crazy Eights to 100: Ann collects 50 in each hand, so the second decides the game.
    table = game("Ann Bob", rules=configure("crazy-eights"))
    hands = [hand(Ann="", Bob="8"), hand(Ann="", Bob="8")]
    went_on = score_game(table, hands, scored_before=score_game(table, hands[:1]))
    assert went_on == score_game(table, hands)
    assert went_on.finished and went_on.side("Ann").total == 50 + 50 + 100
