"""A club's roster imported into its list: each row a new member, a member updated (a new
spelling under their number, a first number, another club), a member as the file has them
already, or a line refused with why; all of it at once, one line on the club's history, and
the same file twice changes nothing the second time."""

from __future__ import annotations

import codecs
import time

import pytest

from scorekeeper.club.roster import MAX_ROSTER_ROWS, RosterFileRefusal, read_roster
from scorekeeper.club.roster_plan import shown_file_name
from scorekeeper.storage import events as event_store
from scorekeeper.storage.members import add_member, all_members, club_history
from scorekeeper.storage.roster_import import import_roster, preview
from tests.support.club import new_event


def roster(*lines: str, end: str = "\n", encoding: str = "utf-8", bom: bytes = b""):
    return read_roster(bom + (end.join(lines) + end).encode(encoding))


def listed(db) -> list[tuple[str, str, str | None]]:
    return [(m.name, m.club, m.number) for m in all_members(db)]


def refused(result_or_plan) -> list[tuple[int, str]]:
    plan = getattr(result_or_plan, "plan", result_or_plan)
    return [(line.line, line.reason) for line in plan.refused]


def history(db) -> list[str]:
    return [line.what for line in club_history(db)]


def test_a_windows_file_with_a_byte_order_mark_and_crlf_adds_its_players(db):
    file = roster("Name,Club,Number", "Ann Lee,North,1042", "Zoë Brun,Süd,7", end="\r\n", bom=codecs.BOM_UTF8)
    result = import_roster(db, file, "director", "players.csv")
    assert (result.added, result.updated, result.unchanged, result.refused) == (2, 0, 0, 0)
    assert listed(db) == [("Ann Lee", "North", "1042"), ("Zoë Brun", "Süd", "7")]
    assert history(db) == ["Roster imported from players.csv: 2 added, 0 updated"]


def test_a_latin1_file_is_read_as_windows_latin1_and_its_accents_kept(db):
    file = roster("Name;Club;Number", "Jürgen Müller;Köln;12", "Zoë Brun;Süd;7", encoding="cp1252")
    plan = preview(db, file)
    assert plan.roster.encoding == "Windows Latin-1 (not UTF-8)" and "cp1252" in plan.roster.note
    assert [row.name for row in plan.added] == ["Jürgen Müller", "Zoë Brun"]
    import_roster(db, plan, "director", "players.csv")
    assert listed(db) == [("Jürgen Müller", "Köln", "12"), ("Zoë Brun", "Süd", "7")]


def test_a_file_of_semicolons_is_read(db):
    result = import_roster(db, roster("Ann Lee;North;1042", "Bob Stone;;"), "director")
    assert result.added == 2 and listed(db) == [("Ann Lee", "North", "1042"), ("Bob Stone", "", None)]


BAD_LINES = (
    "name,club,number",
    "Ann Lee,North,101",  # 2
    "Bob Stone,North,101",  # 3: Ann's number again
    '=HYPERLINK("x"),North,102',  # 4: a formula
    ",North,103",  # 5: no name
    "Cy\x07 Moss,North,104",  # 6: a control character
    "Di Vale,South,105",  # 7
)


def test_a_roster_with_bad_lines_imports_the_good_ones_and_refuses_each_bad_one_by_line(db):
    result = import_roster(db, roster(*BAD_LINES), "director", "players.csv")
    assert listed(db) == [("Ann Lee", "North", "101"), ("Di Vale", "South", "105")]
    reasons = dict(refused(result))
    assert sorted(reasons) == [3, 4, 5, 6]
    assert reasons[3] == "Number 101 is on line 2 already."
    assert "formula" in reasons[4]
    assert reasons[5] == "The name is empty."
    assert "control character" in reasons[6]
    assert [line.text for line in result.plan.refused][:1] == ["Bob Stone,North,101"]
    assert history(db) == ["Roster imported from players.csv: 2 added, 0 updated, 4 lines refused"]


def test_importing_the_same_file_twice_changes_nothing_the_second_time(db):
    import_roster(db, roster(*BAD_LINES), "director", "players.csv")
    before, lines = listed(db), history(db)
    again = import_roster(db, roster(*BAD_LINES), "director", "players.csv")
    assert (again.added, again.updated, again.unchanged, again.refused) == (0, 0, 2, 4)
    assert listed(db) == before and history(db) == lines  # nothing changed: nothing on the history


def test_a_number_with_a_new_spelling_renames_its_member_and_the_history_says_so(db):
    event = new_event(db, [("Jon Smith", "North", "101"), "Bob"])
    member_id = event_store.event_players(db, event.id)[0].member_id
    result = import_roster(db, roster("John Smith,North,101"), "director", "players.csv")
    assert (result.added, result.updated) == (0, 1)
    update = result.plan.updated[0]
    assert (update.before.name, update.after.name, update.after.id) == ("Jon Smith", "John Smith", member_id)
    assert history(db)[:2] == [
        "Roster imported from players.csv: 0 added, 1 updated",
        "Jon Smith (number 101): now spelt John Smith (from players.csv)",
    ]
    assert [p.name for p in event_store.event_players(db, event.id)][0] == "Jon Smith"  # the evening as played


def test_a_member_known_by_name_alone_gets_the_files_number_and_club(db):
    new_event(db, ["Bob Stone", "Ann"])
    result = import_roster(db, roster("bob stone,North,77"), "director")
    assert result.updated == 1 and result.plan.updated[0].changes == ("given number 77", "club (none) \u2192 North")
    assert ("Bob Stone", "North", "77") in listed(db)  # the list's spelling stays: the same name in any case


def test_an_empty_club_or_number_keeps_what_the_list_has(db):
    new_event(db, [("Ann Lee", "North", "101"), "Bob"])
    result = import_roster(db, roster("Ann Lee,,"), "director")
    assert (result.updated, result.unchanged) == (0, 1) and ("Ann Lee", "North", "101") in listed(db)


def test_a_name_two_members_share_needs_the_number(db):
    new_event(db, [("Ann Smith", "", "101"), "Bob"])
    new_event(db, [("Ann Smith", "", "202"), "Bob"], name="Next week")
    result = import_roster(db, roster("Bob,,", "Ann Smith,North,", "Cy,,"), "director")
    assert refused(result) == [(2, "2 members are named Ann Smith (numbers 101, 202): add the membership number.")]
    assert result.added == 1 and result.unchanged == 1


def test_a_number_that_is_one_members_beside_a_name_that_is_anothers_is_refused(db):
    """An event would take the line for a new spelling of the number's member; a roster's row
    naming another member on the list is a wrong number, most likely."""
    new_event(db, [("Ann Lee", "", "101"), ("Bob Stone", "", "202")])
    result = import_roster(db, roster("Bob Stone,,101"), "director")
    assert refused(result) == [
        (1, "Number 101 is Ann Lee's, but Bob Stone (number 202) is on the list too: check the number.")
    ]
    assert result.updated == 0


def test_two_rows_of_one_member_refuse_the_second(db):
    new_event(db, [("Jon Smith", "", "101"), "Bob"])
    result = import_roster(db, roster("Jon Smith,,", "John Smith,,101"), "director")
    assert refused(result) == [(2, "The same member as line 1 (Jon Smith (number 101)).")]


def test_a_new_name_with_a_number_and_again_without_is_refused_the_second_time(db):
    result = import_roster(db, roster("Ann Smith,,303", "Ann Smith,,404", "Ann Smith,,"), "director")
    assert result.added == 2  # namesakes told apart by their numbers
    assert refused(result) == [
        (3, "Ann Smith is on line 1 already: two players of that name need their membership numbers.")
    ]


def test_a_number_a_removed_member_had_is_refused(db):
    add_member(db, "Old Timer", "", "999", "director")
    db.conn.execute("UPDATE members SET removed = 1 WHERE number = '999'")
    result = import_roster(db, roster("New Face,,999"), "director")
    assert refused(result) == [
        (1, "Number 999 was a member's who has been removed from the list: give another number.")
    ]


def test_a_preview_writes_nothing(db):
    plan = preview(db, roster("Ann Lee,North,101"))
    assert len(plan.added) == 1 and listed(db) == [] and history(db) == []


def test_a_change_to_the_list_after_the_preview_is_matched_again_under_the_lock(db):
    plan = preview(db, roster("Ann Lee,North,101", "Bob Stone,,"))
    add_member(db, "Ann Lee", "North", "101", "director")  # another tab, meanwhile
    result = import_roster(db, plan, "director")
    assert (result.added, result.unchanged) == (1, 1)
    assert listed(db) == [("Ann Lee", "North", "101"), ("Bob Stone", "", None)]
    assert preview(db, plan.roster).digest != plan.digest  # a confirmation of the old preview is told


def test_an_event_after_the_import_plays_its_members(db):
    import_roster(db, roster("Ann Lee,North,101", "Bob Stone,South,"), "director")
    ids = {m.name: m.id for m in all_members(db)}
    event = new_event(db, [("Ann Lee", "", "101"), "bob stone"])
    assert [p.member_id for p in event_store.event_players(db, event.id)] == [ids["Ann Lee"], ids["Bob Stone"]]


def test_three_thousand_rows_are_imported_in_one_short_transaction_and_one_more_is_refused(db, capsys):
    lines = [f"Player {i:04d},Club {i % 17},{10000 + i}" for i in range(MAX_ROSTER_ROWS)]
    started = time.perf_counter()
    plan = preview(db, roster(*lines))
    matched = time.perf_counter()
    result = import_roster(db, plan, "director", "big.csv")
    done = time.perf_counter()
    assert result.added == MAX_ROSTER_ROWS and len(all_members(db)) == MAX_ROSTER_ROWS
    again = time.perf_counter()
    second = import_roster(db, roster(*lines), "director", "big.csv")
    finished = time.perf_counter()
    assert second.unchanged == MAX_ROSTER_ROWS
    with capsys.disabled():
        print(
            f"\n3,000 rows: read and matched {1000 * (matched - started):.1f} ms, imported {1000 * (done - matched):.1f} ms"
            f" (list read again, inserts, history); the same file again, read, matched and checked "
            f"{1000 * (finished - again):.1f} ms"
        )
    with pytest.raises(RosterFileRefusal, match="at most 3,000"):
        roster(*lines, "Player 3000,Club,13000")


@pytest.mark.parametrize(
    "name, shown",
    [
        ("players.csv", "players.csv"),
        ("C:\\Users\\me\\Desktop\\players.csv", "players.csv"),
        ("../../etc/players.csv", "players.csv"),
        ("bad\x00\nname.csv", "badname.csv"),
        (None, ""),
        ("x" * 100 + ".csv", "x" * 79 + "\u2026"),
    ],
)
def test_a_file_name_is_shown_without_folders_or_control_characters(name, shown):
    assert shown_file_name(name) == shown
