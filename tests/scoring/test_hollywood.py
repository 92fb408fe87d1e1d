"""Hollywood Eights (002 "Hollywood Scoring"): two players, three games scored at once."""

import pytest

from scorekeeper.scoring import FORMAT, InvalidSeating, RefereeError, configure, parse_record
from tests.support.helpers import cards


def session(*winners_and_leftovers, **options):
    """A record where each hand is (winner, the loser's leftovers), Ann against Bob."""
    hands = []
    for winner, leftovers in winners_and_leftovers:
        loser = "Bob" if winner == "Ann" else "Ann"
        hands.append({"leftovers": {winner: [], loser: leftovers}})
    return {
        "format": FORMAT,
        "rules": "hollywood-eights",
        "options": options,
        "players": ["Ann", "Bob"],
        "hands": hands,
    }


def columns(data):
    return parse_record(data).score().to_json()["columns"]


def column_totals(data):
    return [column["totals"] for column in columns(data)]


@pytest.mark.parametrize("text, expected", [("8", 20), ("A", 15), ("K", 10), ("Q", 10), ("J", 10), ("9", 9), ("2", 2)])
def test_hollywood_card_values(text, expected):
    # 002: "Each eight is 20, each Ace is 15, Picture cards (King, Queen and Jack) are 10 each and
    # the point value for the remainder of the cards is the rank value listed on the card."
    assert configure("hollywood-eights").score_leftovers(cards(text)).total == expected


def test_hollywood_is_for_two_players():
    # 002: "This is a variation of Crazy Eights for two players"
    data = session(("Ann", ["K"]))
    data["players"] = ["Ann", "Bob", "Cy"]
    with pytest.raises(InvalidSeating, match="Hollywood Eights is for 2 players, not 3"):
        parse_record(data)


def test_a_first_win_goes_in_game_1_a_second_in_games_1_and_2_a_third_in_all_three():
    # 002: "When a player wins his first hand, his total scored points are entered into the first
    # game column. When he wins his second game, ... the first and second game columns. On the third
    # and subsequent hands he wins, the total score is entered into each column."
    data = session(("Ann", ["K"]), ("Ann", ["5"]), ("Bob", ["9"]), ("Ann", ["4"]), ("Ann", ["2"]))
    assert column_totals(data) == [
        {"Ann": 10 + 5 + 4 + 2, "Bob": 9},
        {"Ann": 5 + 4 + 2, "Bob": 0},
        {"Ann": 4 + 2, "Bob": 0},
    ]


def test_reaching_100_wins_a_game_which_then_takes_no_more_points():
    # 002: "When one player first scores 100 or more points in any column at the end of a hand, he is
    # considered the winner of that "game". No more scoring from any player is entered into that game column."
    data = session(("Ann", ["8", "8", "8", "8", "K", "Q"]), ("Bob", ["K"]), ("Ann", ["Q"]))
    game_1, game_2, game_3 = columns(data)
    # Bob's first win (hand 2) belongs in game 1 alone, which is closed: it is entered nowhere.
    assert game_1 == {"game": 1, "totals": {"Ann": 100, "Bob": 0}, "winner": "Ann", "won_in_hand": 1}
    assert game_2 == {"game": 2, "totals": {"Ann": 10, "Bob": 0}, "winner": None, "won_in_hand": None}
    assert game_3["totals"] == {"Ann": 0, "Bob": 0}


def test_the_session_ends_when_all_three_games_are_won():
    # 002: "The game session is complete, when all three "games" have been won."
    big = ["8", "8", "8", "8", "K", "Q"]  # 100
    hands = [("Ann", big), ("Ann", big), ("Ann", big)]
    assert not parse_record(session(*hands[:2])).score().finished
    score = parse_record(session(*hands)).score()
    assert score.finished
    assert [column.winner for column in score.columns] == ["Ann", "Ann", "Ann"]
    assert [column.won_in_hand for column in score.columns] == [1, 2, 3]
    with pytest.raises(RefereeError, match="Hand 4: the game was already decided after hand 3"):
        parse_record(session(*hands, ("Bob", ["K"])))


def test_the_leader_has_won_more_games_even_with_fewer_points():
    # Ann wins game 1 with 190 in her first hand; Bob's first win is entered nowhere (game 1 is
    # closed), his second in game 2, and his third (100) wins games 2 and 3: 110 points to Ann's 190.
    ann_big = ["8"] * 4 + ["K"] * 4 + ["Q"] * 4 + ["J"] * 3  # 80 + 110 = 190
    data = session(("Ann", ann_big), ("Bob", ["5"]), ("Bob", ["5"]), ("Bob", ["8", "8", "8", "8", "K", "Q"]))
    output = parse_record(data).score().to_json()
    winners = [column["winner"] for column in output["columns"]]
    assert winners == ["Ann", "Bob", "Bob"]
    totals = {side["name"]: side["total"] for side in output["sides"]}
    assert totals["Ann"] > totals["Bob"]
    assert output["leader"] == ["Bob"] and output["finished"]


def test_a_blocked_hand_goes_to_the_lower_count_and_counts_as_a_win():
    # The standard game's blocked hand: the lowest count collects the difference.
    data = {
        "format": FORMAT,
        "rules": "hollywood-eights",
        "players": ["Ann", "Bob"],
        "hands": [{"leftovers": {"Ann": ["K"], "Bob": ["A", "K"]}}, {"leftovers": {"Ann": [], "Bob": ["3"]}}],
    }
    assert column_totals(data)[:2] == [{"Ann": 15 + 3, "Bob": 0}, {"Ann": 3, "Bob": 0}]


def test_an_even_blocked_hand_is_nobodys_win():
    data = {
        "format": FORMAT,
        "rules": "hollywood-eights",
        "players": ["Ann", "Bob"],
        "hands": [{"leftovers": {"Ann": ["K"], "Bob": ["Q"]}}, {"leftovers": {"Ann": [], "Bob": ["3"]}}],
    }
    assert column_totals(data)[:2] == [{"Ann": 3, "Bob": 0}, {"Ann": 0, "Bob": 0}]


def test_an_agreed_target_replaces_100():
    data = session(("Ann", ["8", "8", "8"]), target=50)
    assert columns(data)[0]["winner"] == "Ann"


def test_no_bonus_in_hollywood_and_the_phone_is_told_three_columns_to_the_target():
    rules = configure("hollywood-eights")
    table = parse_record(session()).game
    assert rules.bonuses(table, {"Ann": 300, "Bob": 0}) == {}
    assert rules.end_terms(table) == {"columns": 3, "target": 100}
    assert configure("hollywood-eights", {"target": 50}).end_terms(table) == {"columns": 3, "target": 50}
    assert rules.table_size == 2


def test_the_rules_card_says_the_three_games_in_a_paragraph_of_their_own():
    scoring, games = configure("hollywood-eights", {"target": 150}).scoring_rules()
    assert scoring == (
        "Scoring",
        "The player who goes out collects the count of every other hand. Blocked (the stock is out and nobody "
        "can play): the lowest count collects from each other player the difference.",
    )
    assert games == (
        "Three games at once",
        "A player's first winning hand counts in game 1, the second in games 1 and 2, later ones in every open "
        "game. A game closes when someone reaches 150 in it; the session ends when all three are won, by the "
        "player who won more of them.",
    )


def test_a_blocked_hand_won_by_a_single_point_is_a_win():
    data = {
        "format": FORMAT,
        "rules": "hollywood-eights",
        "players": ["Ann", "Bob"],
        "hands": [{"leftovers": {"Ann": ["2"], "Bob": ["3"]}}, {"leftovers": {"Ann": [], "Bob": ["K"]}}],
    }
    # Ann's first win (1 point) goes in game 1; her second (10) in games 1 and 2.
    assert column_totals(data)[:2] == [{"Ann": 1 + 10, "Bob": 0}, {"Ann": 10, "Bob": 0}]
