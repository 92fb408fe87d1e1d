"""Two entries of the club's list that are one person, merged: every result kept, the merge on
the club's history (who, when), and undone exactly from there."""

from __future__ import annotations

import re

import pytest

from scorekeeper.club.members import MemberRefusal
from scorekeeper.club.ratings import unpack_history
from scorekeeper.storage import club_results
from scorekeeper.storage import events as event_store
from scorekeeper.storage.club_undo import undo
from scorekeeper.storage.member_merges import merge_members
from scorekeeper.storage.member_removal import remove_member
from scorekeeper.storage.members import all_members, club_history, edit_member, get_member
from scorekeeper.storage.player_results import player_results
from tests.club.test_club_ratings import openskill_by_hand
from tests.support.club import new_event, play, seat
from tests.support.web import csrf_token


def member_named(db, name: str):
    return next(m for m in all_members(db, removed=True) if m.name == name)


def two_entries_of_ann(db):
    """Ann Smith (number 101) plays the first evening; the second evening she is typed as
    "Annie Smith" with no number: the list holds her twice. Three tables each finish in turn."""
    first = new_event(db, [("Ann Smith", "", "101"), "Bob", "Cy", "Di"], name="Club night", held_on="2026-11-02")
    (one,) = seat(db, first, [["Ann Smith", "Bob", "Cy", "Di"]])
    play(db, one, {"Ann Smith": 1, "Bob": 2, "Cy": 3, "Di": 4}, at="2026-11-02T20:00:00+00:00")
    second = new_event(db, ["Annie Smith", "Bob", "Cy", "Di"], name="Next week", held_on="2026-11-09")
    (two,) = seat(db, second, [["Annie Smith", "Bob", "Cy", "Di"]])
    play(db, two, {"Annie Smith": 4, "Bob": 1, "Cy": 2, "Di": 3}, at="2026-11-09T20:00:00+00:00")
    third = new_event(db, ["Ann Smith", "Bob", "Cy", "Di"], name="Third week", held_on="2026-11-16")
    (three,) = seat(db, third, [["Ann Smith", "Bob", "Cy", "Di"]])
    play(db, three, {"Ann Smith": 2, "Bob": 1, "Cy": 4, "Di": 3}, at="2026-11-16T20:00:00+00:00")
    return member_named(db, "Ann Smith"), member_named(db, "Annie Smith")


def ratings_now(db) -> dict[int, tuple[float, float, int, list[tuple[float, float]]]]:
    """Every rating with its history of (mu, sigma) (table ids differ once a table is derived again)."""
    club_results.bring_up_to_date(db)
    return {
        member: (rating.mu, rating.sigma, rating.tables, [(mu, sigma) for _, mu, sigma in unpack_history(history)])
        for member, (rating, history) in club_results.stored_ratings(db).items()
    }


def test_every_evening_of_the_absorbed_entry_becomes_the_kept_members(db):
    ann, annie = two_entries_of_ann(db)
    merge_members(db, ann.id, annie.id, "director")
    club_results.bring_up_to_date(db)
    results = player_results(db, ann.id)
    assert [evening.name for evening in results.evenings] == ["Third week", "Next week", "Club night"]
    assert results.tables == 3
    assert [evening.seat for evening in results.evenings] == ["Ann Smith", "Annie Smith", "Ann Smith"]  # as played
    assert player_results(db, annie.id).evenings == ()
    assert [m.name for m in all_members(db)] == ["Ann Smith", "Bob", "Cy", "Di"]
    assert get_member(db, annie.id).merged_into == ann.id


def test_the_merge_is_a_line_of_the_clubs_history_with_who_and_when(db):
    ann, _ = two_entries_of_ann(db)
    annie = member_named(db, "Annie Smith")
    edit_member(db, annie.id, "Annie Smith", "", "55", False, "director")
    line = merge_members(db, ann.id, annie.id, "director at 10.0.0.7")
    latest = club_history(db)[0]
    assert (latest.id, latest.who, latest.what) == (
        line,
        "director at 10.0.0.7",
        "Annie Smith (number 55) merged into Ann Smith (number 101)",
    )
    assert latest.undoable and re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", latest.at)


def test_ratings_after_a_merge_are_those_of_one_player_from_scratch(db):
    ann, annie = two_entries_of_ann(db)
    merge_members(db, ann.id, annie.id, "director")
    club_results.bring_up_to_date(db)
    names = {m.id: m.name for m in all_members(db, removed=True)}
    rated = {names[member]: (r.mu, r.sigma, r.tables) for member, r in club_results.ranked_ratings(db)}
    assert rated == openskill_by_hand(
        [
            ([["Ann Smith"], ["Bob"], ["Cy"], ["Di"]], [1, 2, 3, 4]),
            ([["Ann Smith"], ["Bob"], ["Cy"], ["Di"]], [4, 1, 2, 3]),
            ([["Ann Smith"], ["Bob"], ["Cy"], ["Di"]], [2, 1, 4, 3]),
        ]
    )
    assert club_results.recompute(db).differing == ()


def test_undoing_a_merge_brings_back_exactly_what_was_before(db):
    ann, annie = two_entries_of_ann(db)
    before = ratings_now(db)
    members_before = all_members(db, removed=True)
    players_before = {e.id: event_store.event_players(db, e.id) for e in event_store.list_events(db)}
    line = merge_members(db, ann.id, annie.id, "director")
    assert ratings_now(db) != before
    assert undo(db, line, "director") is True
    assert ratings_now(db) == before
    assert all_members(db, removed=True) == members_before
    assert {e.id: event_store.event_players(db, e.id) for e in event_store.list_events(db)} == players_before
    assert [line.what for line in club_history(db)[:2]] == [
        "Undone: Annie Smith merged into Ann Smith (number 101)",
        "Annie Smith merged into Ann Smith (number 101)",
    ]
    assert club_history(db)[1].undone_at is not None and not club_history(db)[1].undoable


def test_a_number_passes_to_a_kept_member_without_one_and_back_on_undo(db):
    ann, annie = two_entries_of_ann(db)
    line = merge_members(db, annie.id, ann.id, "director")  # kept: Annie, who has no number
    assert get_member(db, annie.id).number == "101"
    later = new_event(db, [("A. Smith", "", "101"), "Bob"], name="Later")
    assert event_store.event_players(db, later.id)[0].member_id == annie.id  # the number names her now
    undo(db, line, "director")
    assert (get_member(db, ann.id).number, get_member(db, annie.id).number) == ("101", None)
    again = new_event(db, [("Ann Smith", "", "101"), "Bob"], name="Again")
    assert event_store.event_players(db, again.id)[0].member_id == ann.id


def test_the_undo_is_refused_when_the_kept_members_number_changed_since(db):
    ann, annie = two_entries_of_ann(db)
    line = merge_members(db, annie.id, ann.id, "director")
    edit_member(db, annie.id, "Annie Smith", "", "999", False, "director")
    with pytest.raises(MemberRefusal, match=r"Annie Smith's number has changed since the merge \(999 now, 101 then\)"):
        undo(db, line, "director")


def test_an_absorbed_entry_is_matched_by_neither_its_name_nor_its_number(db):
    ann, annie = two_entries_of_ann(db)
    edit_member(db, annie.id, "Annie Smith", "", "55", False, "director")
    merge_members(db, ann.id, annie.id, "director")
    later = new_event(db, [("Annie Smith", "", "55"), "Bob"], name="Later")
    newcomer = event_store.event_players(db, later.id)[0].member_id
    assert newcomer not in (ann.id, annie.id)
    assert get_member(db, newcomer).number == "55"  # the absorbed entry's number no longer names anyone


def test_a_member_who_asked_for_initials_keeps_them_through_a_merge(db):
    ann, annie = two_entries_of_ann(db)
    edit_member(db, annie.id, "Annie Smith", "", "", True, "director")
    line = merge_members(db, ann.id, annie.id, "director")
    assert get_member(db, ann.id).initials
    undo(db, line, "director")
    assert not get_member(db, ann.id).initials


@pytest.mark.parametrize("who", ["keep", "absorb"])
def test_a_merge_with_an_entry_no_longer_on_the_list_is_refused(db, who):
    ann, annie = two_entries_of_ann(db)
    bob = member_named(db, "Bob")
    merge_members(db, ann.id, annie.id, "director")
    with pytest.raises(MemberRefusal, match="is not on the list"):
        merge_members(db, annie.id, bob.id, "director") if who == "keep" else merge_members(db, bob.id, annie.id, "d")


def test_a_member_cannot_be_merged_into_themselves(db):
    ann, _ = two_entries_of_ann(db)
    with pytest.raises(MemberRefusal, match="cannot be merged into themselves"):
        merge_members(db, ann.id, ann.id, "director")


def test_two_entries_that_played_the_same_evening_are_two_people(db):
    ann, _ = two_entries_of_ann(db)
    bob = member_named(db, "Bob")
    with pytest.raises(
        MemberRefusal, match="Bob and Ann Smith both played Club night, 2 November: one person cannot sit twice"
    ):
        merge_members(db, ann.id, bob.id, "director")


def test_the_same_merge_twice_is_made_once(db):
    ann, annie = two_entries_of_ann(db)
    assert merge_members(db, ann.id, annie.id, "director")
    assert merge_members(db, ann.id, annie.id, "director") is False
    assert sum("merged into" in line.what for line in club_history(db)) == 1


def test_a_second_undo_does_nothing(db):
    ann, annie = two_entries_of_ann(db)
    line = merge_members(db, ann.id, annie.id, "director")
    assert undo(db, line, "director") is True
    assert undo(db, line, "director") is False
    assert sum(line.what.startswith("Undone") for line in club_history(db)) == 1


def test_the_undo_is_refused_once_the_kept_member_is_merged_into_a_third(db):
    ann, annie = two_entries_of_ann(db)
    third = new_event(db, ["Ann S.", "Ed"], name="Elsewhere", held_on="2026-12-01")
    ann_s = event_store.event_players(db, third.id)[0].member_id
    line = merge_members(db, ann.id, annie.id, "director")
    merge_members(db, ann_s, ann.id, "director")
    with pytest.raises(MemberRefusal, match="Ann Smith was merged into Ann S. since: undo that merge first"):
        undo(db, line, "director")
    assert get_member(db, annie.id).merged_into == ann.id  # nothing undone


def test_the_undo_is_refused_once_the_kept_members_name_is_removed(db):
    ann, annie = two_entries_of_ann(db)
    line = merge_members(db, ann.id, annie.id, "director")
    remove_member(db, ann.id, "director")
    with pytest.raises(MemberRefusal, match="cannot be undone"):
        undo(db, line, "director")


def test_undoing_an_earlier_merge_leaves_a_later_one(db):
    ann, annie = two_entries_of_ann(db)
    extra = new_event(db, ["Ann  Smyth", "Ed"], name="Elsewhere", held_on="2026-12-01")
    (table,) = seat(db, extra, [["Ann  Smyth", "Ed"]])  # an evening begun: one on her page
    play(db, table, {"Ann  Smyth": 1, "Ed": 2}, at="2026-12-01T20:00:00+00:00")
    smyth = event_store.event_players(db, extra.id)[0].member_id
    first = merge_members(db, ann.id, annie.id, "director")
    merge_members(db, ann.id, smyth, "director")
    undo(db, first, "director")
    club_results.bring_up_to_date(db)
    assert [e.name for e in player_results(db, ann.id).evenings] == ["Elsewhere", "Third week", "Club night"]
    assert [e.name for e in player_results(db, annie.id).evenings] == ["Next week"]


# The director's pages: the merge asked first, then made; its Undo on the club's history.


def test_the_director_merges_from_the_members_page_after_a_question(director):
    ann, annie = two_entries_of_ann(director.db)
    page_url = f"/director/players/{ann.id}"
    page = director.get(page_url).get_data(as_text=True)
    assert "Merge another entry into this one" in page
    assert f'<option value="{annie.id}">Annie Smith · 1 evening</option>' in page
    token = csrf_token(director, page_url)
    asked = director.post(page_url + "/merge", data={"csrf_token": token, "merge-absorb": annie.id})
    question = asked.get_data(as_text=True)
    assert asked.status_code == 200 and get_member(director.db, annie.id).merged_into is None
    assert "Merge <strong>Annie Smith (no number)</strong> into <strong>Ann Smith (number 101)</strong>?" in question
    assert "The 1 evening of Annie Smith (no number) becomes this member’s" in question
    confirm = {"csrf_token": token, "merge-absorb": annie.id, "merge-confirm": "y"}
    done = director.post(page_url + "/merge", data=confirm)
    assert done.status_code == 302 and get_member(director.db, annie.id).merged_into == ann.id
    assert director.post(page_url + "/merge", data=confirm).status_code == 302  # a double click merges once
    assert "Those two are merged already." in director.get(page_url).get_data(as_text=True)
    moved = director.get(f"/director/players/{annie.id}")  # the absorbed entry's page is the kept member's
    assert moved.status_code == 302 and moved.headers["Location"].endswith(page_url)
    assert director.get(f"/club/players/{annie.id}").headers["Location"].endswith(f"/club/players/{ann.id}")


def test_a_refused_merge_says_why_beside_the_choice(director):
    ann, _ = two_entries_of_ann(director.db)
    bob = member_named(director.db, "Bob")
    page_url = f"/director/players/{ann.id}"
    token = csrf_token(director, page_url)
    response = director.post(
        page_url + "/merge", data={"csrf_token": token, "merge-absorb": bob.id, "merge-confirm": "y"}
    )
    assert response.status_code == 422
    assert "Bob and Ann Smith both played Club night, 2 November: one person cannot sit twice." in response.get_data(
        as_text=True
    )


def test_the_clubs_history_undoes_a_merge_with_its_undo_button(director):
    ann, annie = two_entries_of_ann(director.db)
    line = merge_members(director.db, ann.id, annie.id, "director")
    page = director.get("/director/players/").get_data(as_text=True)
    assert f'action="/director/players/history/{line}/undo"' in page
    token = csrf_token(director, "/director/players/")
    assert director.post(f"/director/players/history/{line}/undo").status_code == 400  # no CSRF token
    response = director.post(f"/director/players/history/{line}/undo", data={"csrf_token": token})
    assert response.status_code == 302 and get_member(director.db, annie.id).merged_into is None
    again = director.post(f"/director/players/history/{line}/undo", data={"csrf_token": token})
    assert "That change was undone already." in director.get(again.headers["Location"]).get_data(as_text=True)
    page = director.get("/director/players/").get_data(as_text=True)
    assert "Undone: Annie Smith merged into Ann Smith (number 101)" in page
    assert f'action="/director/players/history/{line}/undo"' not in page


def test_a_merge_refused_because_the_other_tab_merged_the_other_way_says_so(director):
    """Seen in the fresh-clone check: tab A asked to merge Annie into Ann while tab B merged Ann
    into Annie; A landed on Annie's page with nothing saying its own merge did not happen."""
    ann, annie = two_entries_of_ann(director.db)
    token = csrf_token(director, f"/director/players/{ann.id}")
    other_way = {"csrf_token": token, "merge-absorb": ann.id, "merge-confirm": "y"}
    assert director.post(f"/director/players/{annie.id}/merge", data=other_way).status_code == 302
    mine = {"csrf_token": token, "merge-absorb": annie.id, "merge-confirm": "y"}
    response = director.post(f"/director/players/{ann.id}/merge", data=mine, follow_redirects=True)
    page = response.get_data(as_text=True)
    assert "Not merged:" in page and "Ann Smith was merged into this member" in page
