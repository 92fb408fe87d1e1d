"""Ratings across events: openskill's Plackett–Luce over every finished or locked table, in the
order the tables finished, reproducible from the stored results."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper.club.ratings import MODEL, RatedTable, RatingModel, Ratings, tie_breaks
from scorekeeper.gamelog.entries import LEFTOVERS, Change
from scorekeeper.storage import club_results, table_locks
from scorekeeper.storage.games import append, load_state
from scorekeeper.storage.members import all_members
from tests.support.club import club_db, new_event, play, seat

SCRIPT = str(Path(sys.executable).parent / "scorekeeper")


def ratings_by_name(db) -> dict[str, tuple[float, float, int]]:
    club_results.bring_up_to_date(db)
    names = {m.id: m.name for m in all_members(db, removed=True)}
    return {names[member]: (r.mu, r.sigma, r.tables) for member, r in club_results.ranked_ratings(db)}


def openskill_by_hand(results: list[tuple[list[list[str]], list[int]]]) -> dict[str, tuple[float, float, int]]:
    """The model's own calls, table by table, as anyone with openskill would make them."""
    model, ratings, tables = PlackettLuce(), {}, {}
    for sides, ranks in results:
        teams = [[ratings.get(name) or model.rating() for name in side] for side in sides]
        for side, team in zip(sides, model.rate(teams, ranks=ranks), strict=True):
            for name, rating in zip(side, team, strict=True):
                ratings[name] = rating
                tables[name] = tables.get(name, 0) + 1
    return {name: (r.mu, r.sigma, tables[name]) for name, r in ratings.items()}


def test_tables_are_rated_by_plackett_luce_in_the_order_they_finished(db):
    """Round 2 was seated early: its table finished before round 1's table one, and is rated first."""
    first = new_event(db, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    one, two = seat(db, first, [["Ann", "Bob", "Cy", "Di"], ["Ed", "Flo", "Gus", "Hal"]])
    three, _ = seat(db, first, [["Ann", "Ed", "Bob", "Flo"], ["Cy", "Gus", "Di", "Hal"]])
    play(db, two, {"Ed": 1, "Flo": 2, "Gus": 3, "Hal": 4}, at="2026-11-02T19:40:00+00:00")
    assert ratings_by_name(db) == openskill_by_hand([([["Ed"], ["Flo"], ["Gus"], ["Hal"]], [1, 2, 3, 4])])
    play(db, three, {"Ann": 1, "Ed": 2, "Bob": 3, "Flo": 4}, at="2026-11-02T20:10:00+00:00")
    play(db, one, {"Ann": 4, "Bob": 3, "Cy": 2, "Di": 1}, at="2026-11-02T20:30:00+00:00")
    second = new_event(db, ["Ann", "Ed", "Di", "Hal"], name="Next week")
    (four,) = seat(db, second, [["Ann", "Ed", "Di", "Hal"]])
    play(db, four, {"Ann": 1, "Ed": 2, "Di": 3, "Hal": 4}, at="2026-11-09T20:00:00+00:00")
    in_order = [
        ([["Ed"], ["Flo"], ["Gus"], ["Hal"]], [1, 2, 3, 4]),
        ([["Ann"], ["Ed"], ["Bob"], ["Flo"]], [1, 2, 3, 4]),
        ([["Ann"], ["Bob"], ["Cy"], ["Di"]], [4, 3, 2, 1]),
        ([["Ann"], ["Ed"], ["Di"], ["Hal"]], [1, 2, 3, 4]),
    ]
    assert ratings_by_name(db) == openskill_by_hand(in_order)
    by_rounds = [in_order[0], in_order[2], in_order[1], in_order[3]]
    assert openskill_by_hand(by_rounds)["Ann"] != openskill_by_hand(in_order)["Ann"]  # the order tells


def test_a_table_still_playing_is_not_rated_and_one_closed_before_any_hand_counts_for_nobody(db):
    event = new_event(db, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    playing, closed = seat(db, event, [["Ann", "Bob", "Cy", "Di"], ["Ed", "Flo", "Gus", "Hal"]])
    append(db, playing.game, Change(LEFTOVERS, 1, "Ann", {"cards": []}), "k1", "test")
    table_locks.set_locked(db, closed.game, True, closed)
    assert ratings_by_name(db) == {}


def test_partners_are_a_team(db):
    event = new_event(db, ["Ann", "Bob", "Cy", "Di"], partnerships="fixed")
    (table,) = seat(db, event, [["Ann", "Bob", "Cy", "Di"]])  # Ann & Cy opposite, against Bob & Di
    play(db, table, {"Ann": 1, "Cy": 1, "Bob": 2, "Di": 2})
    ratings = ratings_by_name(db)
    assert ratings == openskill_by_hand([([["Ann", "Cy"], ["Bob", "Di"]], [1, 2])])
    assert ratings["Ann"] == ratings["Cy"] and ratings["Ann"][0] > ratings["Bob"][0]


def test_two_tied_players_move_alike_and_above_the_players_below_them(db):
    """openskill's own call gives third place the gain of the two tied winners; rated as the mean
    of both ways to break the tie, the tied players gain alike, and more than the third."""
    model = PlackettLuce()
    raw = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 1, 3, 4])
    assert raw[2][0].mu == raw[0][0].mu  # the reported fault this rating works around
    event = new_event(db, ["Ann", "Bob", "Cy", "Di"])
    (table,) = seat(db, event, [["Ann", "Bob", "Cy", "Di"]])
    play(db, table, {"Ann": 1, "Bob": 1, "Cy": 3, "Di": 4})
    ratings = ratings_by_name(db)
    assert ratings["Ann"] == ratings["Bob"]
    assert ratings["Ann"][0] > ratings["Cy"][0] > ratings["Di"][0]
    ann_first = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 3, 4])
    bob_first = model.rate([[model.rating()] for _ in range(4)], ranks=[2, 1, 3, 4])
    assert ratings["Ann"][0] == pytest.approx((ann_first[0][0].mu + bob_first[0][0].mu) / 2, abs=1e-12)


def test_a_correction_to_a_rated_table_rates_every_table_again_in_order(db):
    event = new_event(db, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    one, two = seat(db, event, [["Ann", "Bob", "Cy", "Di"], ["Ed", "Flo", "Gus", "Hal"]])
    play(db, one, {"Ann": 1, "Bob": 2, "Cy": 3, "Di": 4})
    play(db, two, {"Ed": 1, "Flo": 2, "Gus": 3, "Hal": 4})
    ratings_by_name(db)
    # The director corrects Ann's hand 2 on table one (she held an 8): she drops to last, and table
    # one now finished after table two.
    state = load_state(db, one.game)
    entry = state.hand_leftovers(2)["Ann"]
    append(
        db,
        one.game,
        Change(LEFTOVERS, 2, "Ann", {"cards": ["8", "8", "8", "8"]}, target=entry.id),
        "fix",
        "director",
        True,
    )
    assert ratings_by_name(db) == openskill_by_hand(
        [
            ([["Ed"], ["Flo"], ["Gus"], ["Hal"]], [1, 2, 3, 4]),
            ([["Ann"], ["Bob"], ["Cy"], ["Di"]], [4, 1, 2, 3]),
        ]
    )
    assert club_results.recompute(db).differing == ()


def test_ratings_made_by_another_model_are_recomputed_never_mixed(db):
    event = new_event(db, ["Ann", "Bob", "Cy", "Di"])
    (table,) = seat(db, event, [["Ann", "Bob", "Cy", "Di"]])
    play(db, table, {"Ann": 1, "Bob": 2, "Cy": 3, "Di": 4})
    club_results.bring_up_to_date(db)
    older = RatingModel(MODEL.name, "6.1.0", MODEL.parameters)
    assert club_results.recompute(db, older).replaced_model == MODEL
    assert club_results.stored_model(db) == older
    club_results.bring_up_to_date(db)  # the model in use is another: every rating again
    assert club_results.stored_model(db) == MODEL
    assert ratings_by_name(db) == openskill_by_hand([([["Ann"], ["Bob"], ["Cy"], ["Di"]], [1, 2, 3, 4])])


def test_the_ratings_command_prints_json_best_first_and_recomputes_equal(tmp_path):
    folder = tmp_path / "instance"
    folder.mkdir()
    db = club_db(folder)
    try:
        event = new_event(db, [("Ann", "North", "101"), "Bob", "Cy", "Di"])
        (table,) = seat(db, event, [["Ann", "Bob", "Cy", "Di"]])
        play(db, table, {"Ann": 2, "Bob": 1, "Cy": 3, "Di": 3})
    finally:
        db.conn.close()
    os.rename(folder / "club.db", folder / "scorekeeper.db")
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(folder)}
    shown = subprocess.run([SCRIPT, "ratings", "--json"], capture_output=True, text=True, env=env, timeout=60)
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["model"] == f"openskill.PlackettLuce {MODEL.version}"
    assert [p["name"] for p in data["players"]] == ["Bob", "Ann", "Cy", "Di"]
    assert data["players"][1] == {
        "name": "Ann",
        "number": "101",
        **{k: data["players"][1][k] for k in ("mu", "sigma", "ordinal")},
        "tables": 1,
    }
    assert data["players"][0]["number"] is None
    expected = openskill_by_hand([([["Ann"], ["Bob"], ["Cy"], ["Di"]], [2, 1, 3, 4])])  # Cy before Di: either
    assert data["players"][0]["mu"] == expected["Bob"][0]
    assert all(p["ordinal"] == p["mu"] - 3 * p["sigma"] for p in data["players"])
    assert data["players"][2]["mu"] == data["players"][3]["mu"]  # Cy and Di tied
    again = subprocess.run([SCRIPT, "ratings", "--recompute"], capture_output=True, text=True, env=env, timeout=60)
    assert again.returncode == 0, again.stderr
    assert "all 4 ratings equal the stored ones" in again.stderr
    assert "   1  Bob" in again.stdout


@st.composite
def tables(draw):
    players = list(range(draw(st.integers(4, 9))))
    result = []
    for index in range(draw(st.integers(1, 12))):
        size = draw(st.integers(2, 5))
        seated = draw(st.permutations(players))[:size]
        sides = [(p,) for p in seated]
        if size == 4 and draw(st.booleans()):
            sides = [(seated[0], seated[2]), (seated[1], seated[3])]
        places = tuple(draw(st.lists(st.integers(1, len(sides)), min_size=len(sides), max_size=len(sides))))
        result.append(RatedTable(tuple(sides), places, index + 1))
    return result


@settings(max_examples=60, deadline=None)
@given(tables(), st.data())
def test_rating_on_top_of_stored_ratings_equals_rating_all_at_once(results, data):
    """However the tables are split into looks (each rated on top of what was stored), the
    ratings and every player's history are those of rating them all at once."""
    cut = data.draw(st.integers(0, len(results)))
    whole = Ratings[int]().rate_all(results)
    before = Ratings[int]().rate_all(results[:cut])
    after = Ratings[int].resumed(MODEL, before.current()).rate_all(results[cut:])
    assert after.current() == whole.current()
    for player in whole.history:
        assert before.points(player) + after.points(player) == whole.points(player)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=5))
def test_players_tied_from_equal_ratings_end_equal_and_above_those_placed_below(places):
    model = PlackettLuce()
    ratings = Ratings[int]().rate_all([RatedTable(tuple((i,) for i in range(len(places))), tuple(places))])
    now = ratings.current()
    for i, a in enumerate(places):
        for j, b in enumerate(places):
            if a == b:
                assert now[i] == now[j]
            elif a < b:
                assert now[i].mu > now[j].mu
    assert model.mu == MODEL.parameters["mu"]


def test_each_way_to_break_a_tie_keeps_the_places_around_it():
    assert sorted(tie_breaks([1, 1, 3])) == [(1, 2, 3), (2, 1, 3)]
    assert len(list(tie_breaks([2, 1, 2, 2, 1]))) == 2 * 6
    assert all(sorted(order) == [1, 2, 3, 4, 5] for order in tie_breaks([2, 1, 2, 2, 1]))


def test_the_club_record_moves_when_standings_move_though_no_table_changed(db):
    """A player withdrawn changes an evening's standings (and a season's ladder, and its wall
    screen) with no table changed: the record's version moves all the same."""
    from scorekeeper.storage.event_roster import withdraw_player

    event = new_event(db, ["Ann", "Bob", "Cy", "Di"], rounds=2)
    (table,) = seat(db, event, [["Ann", "Bob", "Cy", "Di"]])
    play(db, table, {"Ann": 1, "Bob": 2, "Cy": 3, "Di": 4})
    club_results.bring_up_to_date(db)
    before = club_results.club_version(db)
    withdraw_player(db, event, "Di", 2)
    club_results.bring_up_to_date(db)
    assert club_results.club_version(db) > before


@settings(max_examples=100, deadline=None)
@given(tables())
def test_a_table_packed_for_the_ratings_reads_back_as_it_was(results):
    """The club's record keeps each table's sides and places packed, to rate thousands at once."""
    from scorekeeper.club.ratings import pack_table, unpack_table

    for table in results:
        back = unpack_table(pack_table(table.sides, table.places), table.id)
        assert [tuple(side) for side in back.sides] == [tuple(side) for side in table.sides]
        assert tuple(back.places) == tuple(table.places) and back.id == table.id
