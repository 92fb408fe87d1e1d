"""The score grid (reports/grid.py): the one model of a game's scores that the Scores page, the
printed sheet and ``scorekeeper replay`` render. Each test reads as a rule of the score pad."""

from scorekeeper.reports.grid import score_grid
from scorekeeper.scoring import configure, score_game
from tests.support.helpers import game, hand


def grid_of(table, *hands, notes=None):
    return score_grid(score_game(table, hands), notes)


def cells_of(grid, side):
    index = [s.name for s in grid.sides].index(side)
    return [row.cells[index] for row in grid.rows]


def test_each_cell_holds_the_hands_points_and_the_running_total():
    grid = grid_of(game("Ann Bob Cy"), hand(Ann="", Bob="K", Cy="A J"), hand(Ann="5", Bob="", Cy="4"))
    assert [(cell.points, cell.running) for cell in cells_of(grid, "Bob")] == [(10, 10), (0, 10)]
    assert [(cell.points, cell.running) for cell in cells_of(grid, "Cy")] == [(11, 11), (15, 26)]
    assert [side.total for side in grid.sides] == [30, 10, 26]


def test_a_row_keeps_the_hands_deal_eight_cards_then_seven_the_deal_passing_left():
    one = hand(Ann="", Bob="K", Cy="A", Di="2")
    grid = grid_of(game("Ann Bob Cy Di", first_dealer="Bob"), one, one)
    assert [(row.number, row.cards_dealt, row.dealer) for row in grid.rows] == [(1, 8, "Bob"), (2, 7, "Cy")]
    assert grid.hands_in_game == 15 and grid.game_name == "Crates"


def test_partners_fill_one_column_and_their_pressures_add_to_their_hand():
    table = game("Ann Bob Cy Di", "Ann+Cy Bob+Di")
    grid = grid_of(
        table,
        hand(("Ann", "Cy", "Bob"), Ann="", Bob="K", Cy="A", Di="2"),
        hand(("Cy",), Ann="4", Bob="", Cy="", Di="6"),
    )
    assert [side.name for side in grid.sides] == ["Ann & Cy", "Bob & Di"]
    first, second = cells_of(grid, "Ann & Cy")
    # the side's 1st pressure costs 5, its 2nd 10, its 3rd 20: the ladder runs per side
    assert first.pressure_values == (5, 10) and first.pressures == 15
    assert (first.cards, first.points) == (1, 16)
    assert second.pressure_values == (20,) and (second.cards, second.points, second.running) == (15, 35, 51)
    assert cells_of(grid, "Bob & Di")[0].pressure_values == (5,)
    assert [side.pressures for side in grid.sides] == [35, 5]


def test_the_row_lists_every_pressure_in_the_order_taken():
    grid = grid_of(game("Ann Bob Cy Di", "Ann+Cy Bob+Di"), hand(("Bob", "Ann", "Di"), Ann="", Bob="K", Cy="A", Di="2"))
    assert [(p.player, p.side, p.number, p.value) for p in grid.rows[0].pressures] == [
        ("Bob", "Bob & Di", 1, 5),
        ("Ann", "Ann & Cy", 1, 5),
        ("Di", "Bob & Di", 2, 10),
    ]


def test_a_cell_shows_how_the_threes_covered_naming_the_partner_who_held_them():
    partners = grid_of(game("Ann Bob Cy Di", "Ann+Cy Bob+Di"), hand(Ann="", Bob="K", Cy="3 6", Di="2"))
    assert cells_of(partners, "Ann & Cy")[0].covering == "Cy 3→6"
    alone = grid_of(game("Ann Bob Cy"), hand(Ann="", Bob="3 6 K", Cy="2"))
    assert cells_of(alone, "Bob")[0].covering == "3→6"
    assert cells_of(alone, "Cy")[0].covering == ""


def test_no_one_leads_a_game_not_yet_begun():
    grid = grid_of(game("Ann Bob Cy"))
    assert grid.rows == () and not grid.with_start
    assert grid.leaders == ("Ann", "Bob", "Cy")
    assert not any(side.leads for side in grid.sides)


def test_the_lowest_total_leads_crates_and_the_leader_is_marked():
    grid = grid_of(game("Ann Bob Cy"), hand(Ann="", Bob="K", Cy="A"))
    assert grid.leaders == ("Ann",) and grid.lowest_wins
    assert [side.leads for side in grid.sides] == [True, False, False]


def test_the_world_series_dummy_starts_at_minus_fifty_and_leads_before_the_first_hand():
    grid = grid_of(game("Ann Figgy Bob", rules=configure("crates-world-series")))
    assert grid.with_start
    assert [(side.name, side.start, side.total, side.leads) for side in grid.sides] == [
        ("Ann", 0, 0, False),
        ("Figgy", -50, -50, True),
        ("Bob", 0, 0, False),
    ]


def test_running_totals_count_from_the_starting_score():
    grid = grid_of(game("Ann Figgy Bob", rules=configure("crates-world-series")), hand(Ann="", Figgy="K", Bob="A"))
    assert cells_of(grid, "Figgy")[0].running == -40


def test_crazy_eights_adds_its_100_bonus_to_the_winner_when_the_game_is_decided():
    table = game("Ann Bob", rules=configure("crazy-eights"))
    hands = [hand(Ann="", Bob="8 K"), hand(Ann="K", Bob=""), hand(Ann="", Bob="8")]
    before = grid_of(table, *hands[:2])
    assert not before.finished and not before.with_bonus
    grid = grid_of(table, *hands)
    assert grid.finished and grid.with_bonus and not grid.lowest_wins and not grid.has_pressures
    ann = grid.side("Ann")
    assert (ann.bonus, ann.total) == (100, 60 + 50 + 100)
    # the bonus is no hand's: the running total stops at the points of the hands
    assert cells_of(grid, "Ann")[-1].running == 110
    assert grid.leaders == ("Ann",) and ann.leads and ann.place == 1


def test_hollywood_ranks_games_won_before_points():
    big = "8 8 8 8 K Q"  # 100: a game column won in one hand
    table = game("Ann Bob", rules=configure("hollywood-eights"))
    grid = grid_of(table, hand(Ann="", Bob=big), hand(Ann="K", Bob=""), hand(Ann="", Bob="K Q J"))
    assert [column.winner for column in grid.columns] == ["Ann", None, None]
    assert [(side.name, side.games_won, side.total) for side in grid.standings] == [("Ann", 1, 130), ("Bob", 0, 10)]
    assert grid.leaders == ("Ann",)


def test_tied_sides_share_a_place_and_stand_in_seating_order():
    grid = grid_of(game("Ann Bob Cy"), hand(Ann="K", Bob="", Cy="K"))
    assert [(side.place, side.name) for side in grid.standings] == [(1, "Bob"), (2, "Ann"), (2, "Cy")]


def test_rulings_stay_with_their_hand():
    grid = grid_of(game("Ann Bob"), hand(Ann="", Bob="K"), hand(Ann="", Bob="Q"), notes={2: ["a joker was misdealt"]})
    assert [row.notes for row in grid.rows] == [(), ("a joker was misdealt",)]
