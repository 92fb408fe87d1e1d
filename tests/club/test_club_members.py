"""The club's list across events: a membership number identifies a player; a name may be shared
or change its spelling; every event player is a member."""

from __future__ import annotations

import pytest

from scorekeeper.club.members import Member, MemberRefusal, initials, public_names
from scorekeeper.storage import events as event_store
from scorekeeper.storage.event_roster import RosterRefusal, add_late_player
from scorekeeper.storage.events import EventPlayer
from scorekeeper.storage.members import all_members, club_history, get_member
from scorekeeper.storage.migrations import _players_become_members
from tests.support.club import new_event


def member_of(db, event, seat: str) -> Member:
    player = next(p for p in event_store.event_players(db, event.id) if p.name == seat)
    found = get_member(db, player.member_id)
    assert found is not None
    return found


def test_a_membership_number_carries_a_player_from_one_evening_to_the_next(db):
    first = new_event(db, [("Ann Smith", "North", "101"), "Bob"])
    second = new_event(db, [("Ann Smith", "", "101"), "Cy"], name="Next week")
    assert member_of(db, first, "Ann Smith") == member_of(db, second, "Ann Smith")
    assert [m.name for m in all_members(db)] == ["Ann Smith", "Bob", "Cy"]
    # The list knows her club: the second evening's line needed only her number.
    assert next(p for p in event_store.event_players(db, second.id) if p.name == "Ann Smith").club == "North"


def test_a_spelling_changed_under_the_same_number_is_the_same_member(db):
    first = new_event(db, [("Jon Smith", "", "101"), "Bob"])
    second = new_event(db, [("John Smith", "", "101"), "Bob"], name="Next week")
    member = member_of(db, second, "John Smith")
    assert member == member_of(db, first, "Jon Smith")
    assert member.name == "John Smith"  # the list follows the new spelling
    assert [p.name for p in event_store.event_players(db, first.id)][0] == "Jon Smith"  # the evening as played
    assert club_history(db)[0].what == "Jon Smith (number 101) now spelt John Smith"


def test_a_name_alone_is_the_member_of_that_name_in_any_case_and_spacing(db):
    first = new_event(db, ["Bob  Stone", "Ann"])
    second = new_event(db, ["bob stone", "Ann"], name="Next week")
    assert member_of(db, first, "Bob  Stone") == member_of(db, second, "bob stone")


def test_two_members_may_share_a_name_and_are_kept_apart_by_their_numbers(db):
    new_event(db, [("Ann Smith", "", "101"), "Bob"])
    new_event(db, [("Ann Smith", "", "202"), "Bob"], name="Next week")
    assert [m.number for m in all_members(db) if m.name == "Ann Smith"] == ["101", "202"]
    with pytest.raises(
        MemberRefusal, match=r"Line 1: 2 members are named Ann Smith \(numbers 101, 202\): add the membership number"
    ):
        new_event(db, ["Ann Smith", "Bob"], name="Third week")


def test_a_number_given_to_a_member_known_by_name_alone_is_theirs_from_then_on(db):
    first = new_event(db, ["Ann Smith", "Bob"])
    second = new_event(db, [("Ann Smith", "", "101"), "Bob"], name="Next week")
    assert member_of(db, first, "Ann Smith") == member_of(db, second, "Ann Smith")
    assert member_of(db, second, "Ann Smith").number == "101"


def test_two_namesakes_at_one_event_play_under_their_numbers(db):
    event = new_event(db, [("Ann Smith", "", "101"), ("Ann Smith", "", "202"), "Bob", "Cy"])
    seats = [p.name for p in event_store.event_players(db, event.id)]
    assert seats == ["Ann Smith (101)", "Ann Smith (202)", "Bob", "Cy"]
    assert member_of(db, event, "Ann Smith (101)").name == "Ann Smith"  # the list keeps her name


def test_namesakes_without_numbers_and_one_member_twice_are_refused_by_line(db):
    with pytest.raises(MemberRefusal, match="Line 3: ann smith is listed twice: two players of that name need"):
        new_event(db, ["Ann Smith", "Bob", "ann smith"])
    new_event(db, [("Ann Smith", "", "101"), "Bob"])
    with pytest.raises(MemberRefusal, match=r"Line 2: number 101 is on line 1 too\."):
        new_event(db, [("Ann Smith", "", "101"), ("Annie Smith", "", "101")], name="Next week")
    with pytest.raises(MemberRefusal, match=r"Line 2: the same member as line 1 \(Ann Smith \(number 101\)\)"):
        new_event(db, [("Annie Smith", "", "101"), "ann smith"], name="Next week")
    assert len(event_store.list_events(db)) == 1  # nothing of the refused events was kept


def test_a_thirty_character_name_beside_a_namesake_stays_within_thirty(db):
    name = "Bartholomew Montgomery-Fitzroy"
    assert len(name) == 30
    event = new_event(db, [(name, "", "101"), (name, "", "20417-2026-XYZ-0001"), "Bob", "Cy"])
    seats = [p.name for p in event_store.event_players(db, event.id)][:2]
    assert seats == ["Bartholomew Montgomery-F (101)", "Bartholomew Mon (…26-XYZ-0001)"]
    assert all(len(seat) <= 30 for seat in seats)


def test_a_late_player_is_picked_from_the_list_the_same_way(db):
    new_event(db, [("Ann Smith", "North", "101"), "Bob"])
    event = new_event(db, ["Cy", "Di", "Ed", "Flo"], name="Next week", rounds=3)
    assert add_late_player(db, event, EventPlayer("Ann Smith", "", "101", 2))
    assert not add_late_player(db, event, EventPlayer("Ann Smith", "", "101", 2))  # a double click
    ann = member_of(db, event, "Ann Smith")
    assert ann.number == "101" and ann.club == "North"
    with pytest.raises(RosterRefusal, match="Ann Smith is a player of this event already"):
        add_late_player(db, event, EventPlayer("Annie", "", "101", 3))


def test_a_late_namesake_with_a_number_plays_under_it(db):
    event = new_event(db, [("Ann Smith", "", "101"), "Bob", "Cy", "Di"], rounds=3)
    with pytest.raises(RosterRefusal, match="another player of that name, give their number"):
        add_late_player(db, event, EventPlayer("Ann Smith", "", "", 2))
    assert add_late_player(db, event, EventPlayer("Ann Smith", "", "202", 2))
    assert [p.name for p in event_store.event_players(db, event.id)][-1] == "Ann Smith (202)"
    assert len([m for m in all_members(db) if m.name == "Ann Smith"]) == 2


def test_the_players_of_events_made_before_the_list_become_its_members(db):
    """The migration: one member per membership number, else one per name; a number's member
    spelt as its latest event spells them, as the list would have followed them."""
    new_event(db, [("Jon Smith", "", "101"), "Bob"], name="First")
    new_event(db, [("John Smith", "", "101"), "bob", ("Ann", "", "")], name="Second")
    db.conn.execute("UPDATE event_players SET member_id = NULL")
    db.conn.execute("DELETE FROM members")
    _players_become_members(db)
    members = all_members(db)
    assert sorted(m.name for m in members) == ["Ann", "Bob", "John Smith"]
    assert db.execute("SELECT COUNT(*) FROM event_players WHERE member_id IS NULL").fetchone()[0] == 0


@pytest.mark.parametrize(
    "name, shown", [("Ann Smith", "A. S."), ("Mary-Jo de la Cruz", "M.-J. D. L. C."), ("Zoë", "Z."), ("  ", "?")]
)
def test_a_member_who_asks_is_shown_by_initials(name, shown):
    assert initials(name) == shown


def test_public_names_are_initials_where_asked_and_never_two_alike():
    members = {
        "Ann Smith": Member(1, "Ann Smith", initials=True),
        "Al Stone": Member(2, "Al Stone", initials=True),
        "Bob": Member(3, "Bob"),
        "Gone": Member(4, "a former member", removed=True),
    }
    assert public_names(members) == {
        "Ann Smith": "A. S.",
        "Al Stone": "A. S. (2)",
        "Bob": "Bob",
        "Gone": "a former member",
    }


def test_the_players_new_to_the_list_join_it_with_their_event_on_the_history(db):
    new_event(db, [("Ann Smith", "North", "101"), "Bob"], name="Club night", held_on="2026-11-02")
    new_event(db, [("Ann Smith", "", "101"), "Cy"], name="Next week", held_on="2026-11-09")
    assert [line.what for line in club_history(db)] == [
        "1 new on the list with Next week (2026-11-09): Cy",
        "2 new on the list with Club night (2026-11-02): Ann Smith, Bob",
    ]
    assert {line.who for line in club_history(db)} == {"director"}
