"""One rule for a member's name, club and membership number, whichever way they come in: the
director's member forms (add and edit), the new-event list, a late player and a roster file each
refuse the same club or number in the same words, beside the field it belongs to, with what was
typed kept. So no way in stores what another cannot read back (a comma the new-event list splits
at), and no page, file or terminal is handed a formula, an escape sequence or an invisible
character. A database from before the rule may still hold one: the picker leaves it out of the
lines it offers, and the command line prints it escaped."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
from click.testing import CliRunner

from scorekeeper.cli import cli
from scorekeeper.club.members import (
    CLUB_MAX_LENGTH,
    FORMULA_START,
    NUMBER_MAX_LENGTH,
    Member,
    MemberRefusal,
    field_fault,
    member_faults,
    read_listed,
)
from scorekeeper.club.roster import read_roster
from scorekeeper.reports import csv_text
from scorekeeper.reports.text import terminal_safe
from scorekeeper.storage import events as event_store
from scorekeeper.storage.database import connect
from scorekeeper.storage.event_roster import add_late_player
from scorekeeper.storage.events import EventPlayer
from scorekeeper.storage.members import add_member, all_members, edit_member
from scorekeeper.web.picking import event_line, event_lines, late_options
from tests.support.club import new_event, play, seat, stored_before_the_rule
from tests.support.web import csrf_token
from tests.web.test_events import event_form, set_up_director
from tests.web.test_events import new_event as new_event_on_the_web

FORMULA = "begins like a spreadsheet formula (=, +, -, @): remove that character."
LIST_COMMAS = "the event's list of players separates name, club and number with commas."
FOURTH_PART = "more than three parts (name, club, number): a club or number cannot hold a comma."

#: The same hostile club or number, and the one sentence every way in refuses it with.
HOSTILE = [
    ("club", '=HYPERLINK("http://x")', "The club " + FORMULA),
    ("club", "North\x1b]0;pwn\x07", "The club cannot hold a control character (U+001B)."),
    ("club", "North\u200bClub", "The club cannot hold an invisible character (U+200B)."),
    ("club", "Boston, MA", "The club cannot hold a comma: " + LIST_COMMAS),
    ("club", "C" * 61, "The club is 61 characters long; at most 60 fit."),
    ("number", "+44", "The membership number " + FORMULA),
    ("number", "\x1b]0;pwn\x07X", "The membership number cannot hold a control character (U+001B)."),
    ("number", "10\u200b42", "The membership number cannot hold an invisible character (U+200B)."),
    ("number", "1,042", "The membership number cannot hold a comma: " + LIST_COMMAS),
    ("number", "9" * 31, "The membership number is 31 characters long; at most 30 fit."),
]
IDS = [
    "club formula",
    "club ESC",
    "club zero-width",
    "club comma",
    "club 61",
    "number +44",
    "number ESC",
    "number zero-width",
    "number comma",
    "number 31",
]


def fields(field: str, value: str) -> dict[str, str]:
    """A member Ann Lee of club North, number 503, with ``field`` made ``value``."""
    return {"name": "Ann Lee", "club": "North", "number": "503", field: value}


# The rule itself


@pytest.mark.parametrize(("field", "value", "words"), HOSTILE, ids=IDS)
def test_the_rule_says_what_is_wrong_with_the_field_in_one_sentence(field, value, words):
    assert field_fault(field, value) == words
    assert member_faults(**fields(field, value)) == [(field, words)]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("club", ""),
        ("club", "C" * CLUB_MAX_LENGTH),
        ("club", "Zürich Süd & Ost"),
        ("club", "♠ Spades 👨‍👩‍👧"),
        ("club", "Club (North)"),
        ("number", ""),
        ("number", "9" * NUMBER_MAX_LENGTH),
        ("number", "AB-12"),
        ("number", "0044"),
        ("name", "Zoë O'Brien-Smith"),
    ],
)
def test_what_a_member_may_hold(field, value):
    assert field_fault(field, value) is None


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "The name is empty."),
        ("A" * 31, "The name is 31 characters long; at most 30 fit."),
        ("Lee, Ann", "The name cannot hold a comma: the tables are written with commas between names."),
        ("Ann\tLee", "The name cannot hold a control character (a tab)."),
        ("Ann\u202eLee", "The name cannot hold an invisible character (U+202E)."),
        ("=cmd|' /C calc'!A0", "The name " + FORMULA),
    ],
)
def test_a_name_is_held_to_what_every_event_player_is_and_no_formula(name, words):
    assert field_fault("name", name) == words


def test_every_fault_is_said_beside_its_own_field_at_once():
    assert [field for field, _ in member_faults("", "=x", "1,2")] == ["name", "club", "number"]


def test_the_formula_start_is_what_the_csv_writer_disarms():
    assert FORMULA_START == csv_text.FORMULA_START


# The new-event list: one player a line, "name, club, number"


def test_a_line_of_the_list_is_read_as_name_club_and_number():
    listed = read_listed(3, "  Ann Lee ,  North , 503 ")
    assert (listed.line, listed.name, listed.club, listed.number) == (3, "Ann Lee", "North", "503")
    assert (read_listed(1, "Ann").club, read_listed(1, "Ann, , 7").number) == ("", "7")


def test_a_fourth_part_is_refused_by_line_not_dropped():
    """ "Comma Club, Boston, MA, 503" once became a member Comma Club of number "MA"."""
    with pytest.raises(MemberRefusal) as caught:
        read_listed(4, "Comma Club, Boston, MA, 503")
    assert str(caught.value) == "Line 4: " + FOURTH_PART and caught.value.field == "players"


@pytest.mark.parametrize(("field", "value", "words"), [case for case in HOSTILE if "," not in case[1]])
def test_a_line_breaking_the_rule_is_refused_by_line_in_the_rules_words(field, value, words):
    with pytest.raises(MemberRefusal) as caught:
        read_listed(2, ", ".join(fields(field, value).values()))
    assert str(caught.value) == f"Line 2: {words[0].lower()}{words[1:]}" and caught.value.field == "players"


# Every way in, through storage (whatever the form)


@pytest.mark.parametrize(("field", "value", "words"), HOSTILE, ids=IDS)
def test_storage_refuses_it_on_every_way_in(db, field, value, words):
    typed = fields(field, value)
    with pytest.raises(MemberRefusal) as added:
        add_member(db, typed["name"], typed["club"], typed["number"], "test")
    assert (str(added.value), added.value.field) == (words, field)

    bob, _ = add_member(db, "Bob Stone", "", "", "test")
    with pytest.raises(MemberRefusal) as edited:
        edit_member(db, bob.id, typed["name"], typed["club"], typed["number"], False, "test")
    assert (str(edited.value), edited.value.field) == (words, field)

    event = new_event(db, ["Cy", "Di"])
    with pytest.raises(MemberRefusal) as late:
        add_late_player(db, event, EventPlayer(typed["name"], typed["club"], typed["number"], 1))
    assert (str(late.value), late.value.field) == (words, field)

    with pytest.raises(MemberRefusal) as listed:
        new_event(db, ["Eve", (typed["name"], typed["club"], typed["number"])], name="Another night")
    assert (str(listed.value), listed.value.field) == (f"Line 2: {words[0].lower()}{words[1:]}", "players")

    assert [member.name for member in all_members(db)] == ["Bob Stone", "Cy", "Di"]


@pytest.mark.parametrize(("field", "value", "words"), HOSTILE, ids=IDS)
def test_the_roster_refuses_it_on_its_line_in_the_same_words(field, value, words):
    out = io.StringIO()
    csv.writer(out).writerows([["Name", "Club", "Number"], ["Bob Stone", "", "7"], list(fields(field, value).values())])
    roster = read_roster(out.getvalue().encode())
    assert [(line.line, line.reason) for line in roster.refused] == [(3, words)]
    assert [row.name for row in roster.rows] == ["Bob Stone"]


# Every way in, on the director's pages


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


def page_of(response) -> str:
    return response.get_data(as_text=True)


def said_beside(page: str, field_id: str, words: str) -> bool:
    """``words`` in the error paragraph of the field whose input has ``field_id``."""
    found = re.search(rf'<input[^>]*id="{field_id}"[^>]*>.*?<p class="error" role="alert">([^<]*)</p>', page, re.S)
    return found is not None and html.unescape(found.group(1)) == words


def kept(page: str, field_id: str, value: str) -> bool:
    found = re.search(rf'<input[^>]*id="{field_id}"[^>]*value="([^"]*)"', page) or re.search(
        rf'<input[^>]*value="([^"]*)"[^>]*id="{field_id}"', page
    )
    return found is not None and html.unescape(found.group(1)) == value


@pytest.mark.parametrize(("field", "value", "words"), HOSTILE, ids=IDS)
def test_the_member_forms_refuse_it_beside_the_field_with_what_was_typed(director, field, value, words):
    typed = fields(field, value)
    token = csrf_token(director, "/director/players/")
    added = director.post("/director/players/", data={"csrf_token": token, **{f"add-{k}": v for k, v in typed.items()}})
    assert added.status_code == 422
    assert said_beside(page_of(added), f"add-{field}", words) and kept(page_of(added), f"add-{field}", value)

    made = director.post("/director/players/", data={"csrf_token": token, "add-name": "Bob Stone"})
    member = made.headers["Location"]
    edited = director.post(member, data={"csrf_token": token, **{f"edit-{k}": v for k, v in typed.items()}})
    assert edited.status_code == 422
    assert said_beside(page_of(edited), f"edit-{field}", words) and kept(page_of(edited), f"edit-{field}", value)


@pytest.mark.parametrize(("field", "value", "words"), HOSTILE, ids=IDS)
def test_the_late_player_form_refuses_it_beside_the_field_with_what_was_typed(director, field, value, words):
    event_url = new_event_on_the_web(director, ["Cy", "Di"])
    typed = fields(field, value)
    data = {f"late-{k}": v for k, v in typed.items()}
    data.update({"csrf_token": csrf_token(director, event_url), "late-from_round": "1"})
    response = director.post(event_url + "/players/late", data=data)
    assert response.status_code == 422
    assert said_beside(page_of(response), f"late-{field}", words) and kept(page_of(response), f"late-{field}", value)


@pytest.mark.parametrize(("field", "value", "words"), HOSTILE, ids=IDS)
def test_the_new_event_list_refuses_it_by_line_with_the_list_kept(director, field, value, words):
    line = ", ".join(fields(field, value).values())
    response = director.post("/director/events/new", data=event_form(director, ["Cy", line, "Di"]))
    page = page_of(response)
    assert response.status_code == 422
    # The list cannot tell a comma inside a club from the one after it: a fourth part.
    words = FOURTH_PART if "," in value else words[0].lower() + words[1:]
    beside = r'<textarea[^>]*id="players"[^>]*>\r?\n?(.*?)</textarea>.*?<p class="error" role="alert">([^<]*)</p>'
    found = re.search(beside, page, re.S)
    assert found is not None and html.unescape(found.group(2)) == f"Line 2: {words}"
    assert html.unescape(found.group(1)) == f"Cy\n{line}\nDi"


def test_a_fourth_part_on_the_new_event_list_is_refused_and_no_member_made_of_it(director, app):
    players = ["Ann", "Bob", "Comma Club, Boston, MA, 503"]
    response = director.post("/director/events/new", data=event_form(director, players))
    assert response.status_code == 422 and "Line 3: " + FOURTH_PART in page_of(response)
    db = connect(app.config["DATABASE"])
    try:
        assert all_members(db) == []
    finally:
        db.conn.close()


# A member stored before the rule


def old_member(**fields_: object) -> Member:
    return Member(**{"id": 1, "name": "Comma Club", "club": "", "number": None, **fields_})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("member", "line"),
    [
        (old_member(club="Boston, MA", number="503"), "Comma Club, , 503"),
        (old_member(club="Boston, MA"), "Comma Club"),
        (old_member(club="North", number="5,03"), "Comma Club, North"),
        (old_member(club="=North", number="\x1b[2J"), "Comma Club"),
        (old_member(club="North", number="503"), "Comma Club, North, 503"),
    ],
)
def test_the_picker_leaves_out_a_club_or_number_the_list_could_not_read_back(member, line):
    assert event_line(member) == line
    assert read_listed(1, line).name == "Comma Club"  # it reads back: no fourth part, nothing refused


def test_a_member_stored_with_a_comma_in_their_club_is_picked_and_found_by_number(db):
    event = new_event(db, ["Zed", ("Cy", "", "503"), "Di"])
    stored_before_the_rule(db, event, {"Cy": ("Comma Club", "Boston, MA", "503")})
    members = all_members(db)
    assert "Comma Club, , 503" in event_lines(members)
    (option,) = [option for option in late_options(members, set()) if option.name == "Comma Club"]
    assert (option.club, option.number, option.label) == ("", "503", "number 503")

    listed = read_listed(2, "Comma Club, , 503")
    again = new_event(db, ["Zed", (listed.name, listed.club, listed.number)], name="Next week")
    (found,) = [p for p in event_store.event_players(db, again.id) if p.name == "Comma Club"]
    assert (found.club, found.number) == ("Boston, MA", "503")  # the same member, their club as stored
    assert len(all_members(db)) == 3  # Zed, Comma Club, Di


# The terminal


def test_a_name_with_an_escape_sequence_is_printed_escaped_never_obeyed(db, tmp_path, monkeypatch):
    event = new_event(db, ["Ann", "Bob", "Cy", "Di"])
    stored_before_the_rule(db, event, {"Ann": ("Ann\x1b]0;pwn\x07", "", "\x1b[2J7"), "Bob": ("Bob\u202eenoD", "", "")})
    (table,) = seat(db, event, [["Ann\x1b]0;pwn\x07", "Bob\u202eenoD", "Cy", "Di"]])
    play(db, table, {"Ann\x1b]0;pwn\x07": 1, "Bob\u202eenoD": 2, "Cy": 3, "Di": 4})
    db.conn.close()
    (tmp_path / "club.db").rename(tmp_path / "scorekeeper.db")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    result = CliRunner().invoke(cli, ["ratings"])
    assert result.exit_code == 0, result.output
    assert not [char for char in result.output if char != "\n" and (ord(char) < 32 or 0x7F <= ord(char) < 0xA0)]
    assert "\u202e" not in result.output
    assert "Ann\\x1b]0;pwn\\x07 (\\x1b[2J7)" in result.output and "Bob\\u202eenoD" in result.output


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Ann\x1b[2J", "Ann\\x1b[2J"),
        ("Ann\nLee", "Ann\\nLee"),
        ("Ann\x9b31m", "Ann\\x9b31m"),
        ("Ann\u202eLee", "Ann\\u202eLee"),
        ("Zoë 👨‍👩‍👧", "Zoë 👨‍👩‍👧"),
        ("Ann Lee", "Ann Lee"),
    ],
)
def test_the_terminal_is_handed_control_and_invisible_characters_as_their_escapes(text, shown):
    assert terminal_safe(text) == shown
