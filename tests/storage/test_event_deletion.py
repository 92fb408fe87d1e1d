"""An event deleted from the director's list: its pages and links stop, its results stay in the
club's record, and the deletion is undone exactly from the club's history."""

from __future__ import annotations

import pytest

from scorekeeper.gamelog.entries import LEFTOVERS, Change, ChangeRefusal
from scorekeeper.storage import club_results, table_locks
from scorekeeper.storage import events as event_store
from scorekeeper.storage.club_undo import undo
from scorekeeper.storage.event_deletion import delete_event
from scorekeeper.storage.event_roster import event_history
from scorekeeper.storage.games import append
from scorekeeper.storage.members import all_members, club_history
from scorekeeper.storage.player_results import player_results
from tests.support.club import new_event, play, seat
from tests.support.web import csrf_token

EIGHT = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def two_evenings(db):
    """A first evening played out (a table locked after 12 hands, one still playing, one locked
    by the director at hand 3), and a second evening after it."""
    first = new_event(db, EIGHT, name="Club night", held_on="2026-11-02")
    one, two = seat(db, first, [EIGHT[:4], EIGHT[4:]])
    play(db, one, {"Ann": 1, "Bob": 2, "Cy": 3, "Di": 4}, at="2026-11-02T20:00:00+00:00")
    play(db, two, {"Ed": 1, "Flo": 2, "Gus": 3, "Hal": 4}, at="2026-11-02T20:10:00+00:00")
    three, four = seat(db, first, [["Ann", "Ed", "Bob", "Flo"], ["Cy", "Gus", "Di", "Hal"]])
    append(db, three.game, Change(LEFTOVERS, 1, "Ann", {"cards": []}), "k1", "test")  # still playing
    for number in range(1, 4):
        for player in four.game.game.players:
            cards = [] if player == "Cy" else ["4"]
            append(db, four.game, Change(LEFTOVERS, number, player, {"cards": cards}), f"f{number}{player}", "test")
    table_locks.set_locked(db, four.game, True, four)
    second = new_event(db, EIGHT[:4], name="Next week", held_on="2026-11-09")
    (five,) = seat(db, second, [EIGHT[:4]])
    play(db, five, {"Ann": 4, "Bob": 3, "Cy": 2, "Di": 1}, at="2026-11-09T20:00:00+00:00")
    return first, second


def the_record(db):
    """Every player's results and rating, and every event's standings, as the club reads them."""
    club_results.bring_up_to_date(db)
    results = {m.name: player_results(db, m.id) for m in all_members(db)}
    standings = db.execute("SELECT * FROM club_standings ORDER BY event_id, member_id").fetchall()
    tables = db.execute("SELECT event_id, round, number, finished_at, result FROM club_tables ORDER BY id").fetchall()
    ratings = [(member, rating) for member, rating in club_results.ranked_ratings(db)]
    return results, standings, tables, ratings


def without_deleted_marks(record):
    """The record with each evening's ``deleted`` mark left out, and whether it is under way (the
    things a deletion changes: a deleted evening is over, its tables still playing never count)."""
    results, *rest = record
    return {
        name: [e.__dict__ | {"deleted": None, "provisional": None} for e in r.evenings] + [r.tables, r.wins, r.rating]
        for name, r in results.items()
    }, *rest


def test_a_deleted_event_leaves_the_list_and_keeps_every_result(db):
    first, second = two_evenings(db)
    before = the_record(db)
    assert delete_event(db, first.id, "director")
    assert [e.id for e in event_store.list_events(db)] == [second.id]
    assert event_store.get_event(db, first.id) is None
    assert event_store.event_by_wall_token(db, first.wall_token) is None
    after = the_record(db)
    assert without_deleted_marks(after) == without_deleted_marks(before)
    assert [e.deleted for e in after[0]["Ann"].evenings] == [False, True]


def test_its_games_are_locked_and_a_table_still_playing_stays_unfinished_in_the_record(db):
    first, _ = two_evenings(db)
    tables_before = the_record(db)[2]
    delete_event(db, first.id, "director")
    tables = event_store.event_tables(db, first.id)
    assert all(table.locked for table in tables)
    playing = tables[2]
    with pytest.raises(ChangeRefusal, match="This game is locked"):
        append(db, playing.game, Change(LEFTOVERS, 1, "Ed", {"cards": []}), "late", "phone")
    assert the_record(db)[2] == tables_before  # the lock closed no table: round 2 table 1 still counts for nobody


def test_undoing_a_deletion_brings_the_event_back_exactly(db):
    first, _ = two_evenings(db)
    before = the_record(db)
    locks = [table.locked for table in event_store.event_tables(db, first.id)]
    assert locks == [True, True, False, True]
    line = delete_event(db, first.id, "director at 10.0.0.7")
    latest = club_history(db)[0]
    assert (latest.id, latest.who, latest.what) == (
        line,
        "director at 10.0.0.7",
        "Club night (2 November) deleted from the list of events",
    )
    assert undo(db, line, "director") is True
    assert event_store.get_event(db, first.id) == first
    assert [table.locked for table in event_store.event_tables(db, first.id)] == locks
    assert the_record(db) == before
    append(db, event_store.event_tables(db, first.id)[2].game, Change(LEFTOVERS, 1, "Ed", {"cards": []}), "on", "phone")
    assert [line.what for line in event_history(db, first.id)[:2]] == [
        "Brought back to the list of events (its deletion undone)",
        "Deleted from the list of events",
    ]


def test_a_double_click_deletes_once_and_undoes_once(db):
    first, _ = two_evenings(db)
    line = delete_event(db, first.id, "director")
    assert delete_event(db, first.id, "director") is False
    assert undo(db, line, "director") is True
    assert undo(db, line, "director") is False
    assert [line.what for line in club_history(db)][:2] == [
        "Undone: Club night (2 November) deleted from the list of events",
        "Club night (2 November) deleted from the list of events",
    ]


# The director's pages.


def test_the_director_deletes_an_event_after_a_question_and_its_pages_stop(director):
    first, second = two_evenings(director.db)
    before = the_record(director.db)
    url = f"/director/events/{first.id}"
    assert f'href="{url}/delete"' in director.get(url).get_data(as_text=True)
    question = director.get(url + "/delete").get_data(as_text=True)
    assert (
        "Delete Club night (2 November)?</strong> It leaves the list of events, and its links, join codes and wall "
        "screen stop working (its games are locked); its results stay in the players' records, the ratings and "
        "seasons." in question
    )
    assert "You can undo it from the club's history" in question
    token = csrf_token(director, url + "/delete")
    assert director.post(url + "/delete").status_code == 400  # no CSRF token
    response = director.post(url + "/delete", data={"csrf_token": token})
    assert response.status_code == 302 and response.headers["Location"].endswith("/director/")
    listing = director.get("/director/").get_data(as_text=True)
    assert f'href="{url}"' not in listing and f'href="/director/events/{second.id}"' in listing
    assert "Club night (2026-11-02)" in listing  # among the deleted, with the way back
    for path in (
        "",
        "/standings",
        "/standings.pdf",
        "/export.json",
        "/export.csv",
        "/table-cards.pdf",
        "/round-sheet.pdf",
        "/delete",
        "/booklet/abc",
    ):
        assert director.get(url + path).status_code == 404, path
    assert director.get(f"/e/{first.wall_token}/").status_code == 404
    assert director.get(f"/e/{first.wall_token}/version").status_code == 404
    again = director.post(url + "/delete", data={"csrf_token": token})  # a double click
    assert "was deleted already" in director.get(again.headers["Location"]).get_data(as_text=True)
    assert without_deleted_marks(the_record(director.db)) == without_deleted_marks(before)


def test_a_deleted_events_table_opens_but_takes_no_change_from_a_player(director, app):
    first, _ = two_evenings(director.db)
    playing = event_store.event_tables(director.db, first.id)[2]
    token = csrf_token(director, f"/director/events/{first.id}/delete")
    director.post(f"/director/events/{first.id}/delete", data={"csrf_token": token})
    phone = app.test_client()
    assert phone.get(f"/t/{playing.game.record_token}/").status_code == 200
    assert phone.get(f"/v/{playing.game.view_token}/").status_code == 200
    page = f"/t/{playing.game.record_token}/hand/1/seat/1"
    form = {"csrf_token": csrf_token(phone, page), "cards": "", "went_out": "y", "replaces": "", "idem": "x1"}
    refused = phone.post(page, data=form, headers={"X-Requested-With": "outbox", "Accept": "application/json"})
    assert refused.status_code == 422 and "locked" in refused.get_json()["error"]


def test_the_clubs_history_brings_a_deleted_event_back(director):
    first, _ = two_evenings(director.db)
    line = delete_event(director.db, first.id, "director")
    token = csrf_token(director, "/director/players/")
    response = director.post(f"/director/players/history/{line}/undo", data={"csrf_token": token})
    assert response.status_code == 302
    assert director.get(f"/director/events/{first.id}").status_code == 200
    assert f'href="/director/events/{first.id}"' in director.get("/director/").get_data(as_text=True)


def test_an_evening_deleted_while_a_table_played_is_over_not_under_way_for_ever(db):
    """Seen in the fresh-clone check: its players' pages and its season said "under way" for good."""
    from scorekeeper.storage.player_results import player_results
    from scorekeeper.storage.seasons import add_event, create_season, season_evenings

    first, _ = two_evenings(db)
    season, _ = create_season(db, "Autumn", "points", None, "a4", "director")
    add_event(db, season.id, first.id, "director")
    club_results.bring_up_to_date(db)
    ann = next(p.member_id for p in event_store.event_players(db, first.id) if p.name == "Ann")
    assert [e.provisional for e in player_results(db, ann).evenings if e.event_id == first.id] == [True]
    delete_event(db, first.id, "director")
    club_results.bring_up_to_date(db)
    assert [e.provisional for e in player_results(db, ann).evenings if e.event_id == first.id] == [False]
    assert [evening.under_way for evening in season_evenings(db, season.id)] == [False]


def test_an_event_not_begun_is_no_evening_on_its_players_pages(db):
    from scorekeeper.storage.player_results import player_results

    event = new_event(db, EIGHT, name="Next month", held_on="2026-12-07")
    club_results.bring_up_to_date(db)
    ann = event_store.event_players(db, event.id)[0].member_id
    assert player_results(db, ann).evenings == ()
