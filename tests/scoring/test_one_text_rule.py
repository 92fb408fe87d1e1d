"""One rule for every text that comes in (``scoring/text.py``): an imported record, the phone's
outbox and the command line refuse what the forms refuse, in the same words, and nothing they
refuse is stored. A lone surrogate ("\\udc80" in JSON) and bytes that are not UTF-8 are refused
where the text is read, never stored nor replaced by U+FFFD."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import sys
from io import BytesIO

import pytest

from scorekeeper.cli import main
from scorekeeper.cli.reading import HANDS_MAX_BYTES
from scorekeeper.club.roster import read_roster
from scorekeeper.reports.csv_text import csv_text
from scorekeeper.scoring import InvalidRecord, load_record
from scorekeeper.scoring.text import begins_like_formula, text_fault
from scorekeeper.storage.database import connect
from tests.support.web import csrf_token, new_game_form, start

OUTBOX = {"X-Requested-With": "outbox", "Accept": "application/json"}

#: What the start form refuses in a name, each with what the refusal says of it.
UNREADABLE = [
    ("Cy\0Lee", "a control character (a NUL)"),
    ("Cy\nLee", "a control character (a line break)"),
    ("\u202eCy Lee", "an invisible character (U+202E)"),
    ("Cy\u200bLee", "an invisible character (U+200B)"),
    ("\u3164", "an invisible character (U+3164)"),
]


def record(**extra: object) -> dict[str, object]:
    """A game record of two players and one hand, with ``extra`` keys in place of its own."""
    data: dict[str, object] = {
        "format": "scorekeeper-game/1",
        "rules": "crates",
        "players": ["Ann", "Bob"],
        "first_dealer": "Ann",
        "hands": [{"leftovers": {"Ann": [], "Bob": ["K"]}, "pressures": [], "notes": ["Misdeal ruled."]}],
    }
    data.update(extra)
    return data


def post_import(client, data: dict[str, object] | str):
    """The import form sent with ``data`` pasted: JSON as ``json.dumps`` writes it (a lone
    surrogate as its "\\udc80" escape)."""
    text = data if isinstance(data, str) else json.dumps(data)
    return client.post("/import", data={"csrf_token": csrf_token(client, "/import"), "text": text})


def errors_beside(page: str, field_id: str) -> list[str]:
    """The error paragraphs inside the form field (``_macros.field``) whose input is ``field_id``."""
    for block in re.findall(r'<div class="field[^"]* has-error".*?</div>', page, re.S):
        if f'id="{field_id}"' in block:
            return [html.unescape(found) for found in re.findall(r'<p class="error" role="alert">([^<]*)</p>', block)]
    return []


def games_stored(app) -> int:
    db = connect(app.config["DATABASE"])
    try:
        return int(db.conn.execute("SELECT count(*) FROM games").fetchone()[0])
    finally:
        db.conn.close()


# The rule itself


@pytest.mark.parametrize(("text", "words"), [*UNREADABLE, ("D\udc80", "a lone surrogate (U+DC80)")])
def test_the_rule_refuses_what_no_page_can_show(text, words):
    assert words in (text_fault(text) or "")


def test_a_note_keeps_its_line_breaks_and_tabs_and_nothing_else_of_the_kind():
    assert text_fault("First line\n\tsecond line", "a note", lines=True) is None
    assert "NUL" in (text_fault("First\0line", "a note", lines=True) or "")
    assert "U+202E" in (text_fault("First\u202eline", "a note", lines=True) or "")


@pytest.mark.parametrize(
    "sign", ["=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20", "\ufe66", "\ufe62"]
)
def test_full_width_and_small_formula_signs_begin_like_a_formula(sign):
    assert begins_like_formula(sign + "1+1")


# An imported record


@pytest.mark.parametrize(("name", "words"), UNREADABLE, ids=["NUL", "newline", "RLO", "ZWSP", "Hangul filler"])
def test_an_imported_name_the_start_form_refuses_is_refused_beside_the_import_field(client, app, name, words):
    typed = client.post("/new", data={"csrf_token": csrf_token(client, "/new"), **new_game_form([name, "Bob"])})
    assert typed.status_code == 422 and any(
        words in error for error in errors_beside(typed.get_data(as_text=True), "players-0")
    )

    response = post_import(client, record(players=[name, "Bob"], first_dealer="Bob", hands=[]))
    assert response.status_code == 422
    shown = name.replace("\0", "\\x00").replace("\n", "\\x0a").replace("\u202e", "\\u202e")
    shown = shown.replace("\u200b", "\\u200b").replace("\u3164", "\\u3164")
    assert errors_beside(response.get_data(as_text=True), "text") == [
        f"The player “{shown}”: a name cannot hold {words}."
    ]
    assert games_stored(app) == 0


@pytest.mark.parametrize(
    ("first", "second"),
    [("Cy Lee", "Cy  Lee"), ("Ann Lee", "ann  lee")],
    ids=["two spaces", "case and spaces"],
)
def test_two_imported_names_alike_are_refused_naming_both(client, app, first, second):
    response = post_import(client, record(players=[first, second], first_dealer=first, hands=[]))
    assert response.status_code == 422
    said = errors_beside(response.get_data(as_text=True), "text")
    assert said == [f"The players “{first}” and “{second}” have one name: give each a different name."]
    assert games_stored(app) == 0


def test_a_name_and_its_zero_width_twin_are_refused(client, app):
    response = post_import(client, record(players=["Ann", "Ann\u200b"], hands=[]))
    assert response.status_code == 422
    assert "The player “Ann\\u200b”: a name cannot hold an invisible character (U+200B)." in errors_beside(
        response.get_data(as_text=True), "text"
    )
    assert games_stored(app) == 0


@pytest.mark.parametrize(
    "extra",
    [
        {"players": ["Ann", "D\udc80"]},
        {"title": "Table \udc80"},
        {"hands": [{"leftovers": {"Ann": [], "Bob": ["K"]}, "pressures": [], "notes": ["Ruled \ud800"]}]},
        {"created_at": "\udfff"},
        {"\udc80": 1},
    ],
    ids=["name", "title", "note", "another key's value", "a key"],
)
def test_a_lone_surrogate_anywhere_in_an_imported_record_is_refused_where_its_json_is_read(client, app, extra):
    """Before: stored, and the game's pages answered 500 for ever (the title: the import itself)."""
    response = post_import(client, record(**extra))
    assert response.status_code == 422
    (said,) = errors_beside(response.get_data(as_text=True), "text")
    assert "holds a lone surrogate: it is not valid Unicode." in said
    assert games_stored(app) == 0


def test_a_surrogate_pair_is_a_character_and_comes_in(client, app):
    response = post_import(client, record(players=["Ann \U0001f600", "Bob"], first_dealer="Bob", hands=[]))
    assert response.status_code == 302 and games_stored(app) == 1


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"title": "Table\0one"}, "The title cannot hold a control character (a NUL)."),
        ({"title": "\u202eTable one"}, "The title cannot hold an invisible character (U+202E)."),
        (
            {"hands": [{"leftovers": {"Ann": [], "Bob": ["K"]}, "pressures": [], "notes": ["Ruled\u202e"]}]},
            "A note cannot hold an invisible character (U+202E).",
        ),
        (
            {
                "rules": "crates-world-series",
                "options": {"dummy": "Fig\tgy"},
                "players": ["Ann", "Bob", "Fig\tgy"],
                "hands": [],
            },
            "The player “Fig\\x09gy”: a name cannot hold a control character (a tab).",
        ),
    ],
    ids=["title NUL", "title RLO", "note RLO", "the dummy's name"],
)
def test_an_imported_title_note_or_named_option_is_held_to_the_rule(client, app, extra, words):
    response = post_import(client, record(**extra))
    assert response.status_code == 422
    assert errors_beside(response.get_data(as_text=True), "text") == [words]
    assert games_stored(app) == 0


def test_an_imported_file_that_is_not_utf8_is_refused_beside_the_file_never_replaced(client, app):
    """Before: read with its byte replaced by U+FFFD, and a player "Ren\ufffd" imported."""
    data = json.dumps(record(players=["René", "Bob"], hands=[]), ensure_ascii=False).encode("latin-1")
    response = client.post(
        "/import",
        data={"csrf_token": csrf_token(client, "/import"), "file": (BytesIO(data), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    (said,) = errors_beside(response.get_data(as_text=True), "file")
    where = data.index("é".encode("latin-1")) + 1
    assert said.startswith(f"This file is not UTF-8 text (byte {where} is not)")
    assert games_stored(app) == 0


# The phone's outbox


def test_a_note_from_the_outbox_is_held_to_the_rule_beside_its_field(client):
    table = start(client, ["Ann", "Bob"])
    token = csrf_token(client, table.base + "/")
    response = client.post(
        table.base + "/note",
        data={"csrf_token": token, "idem": "n1", "hand": 1, "text": "Ruled \u202eno"},
        headers=OUTBOX,
    )
    assert response.status_code == 422
    assert response.get_json()["field"] == "text"
    assert "U+202E" in response.get_json()["error"]
    assert "Ruled" not in table.page("/hand/1")


def test_a_form_whose_bytes_are_not_utf8_is_refused_not_kept_as_escapes(client):
    """Before: werkzeug read the bytes ED B2 80 (a surrogate's) as the text "%ED%B2%80", kept as a note."""
    table = start(client, ["Ann", "Bob"])
    token = csrf_token(client, table.base + "/")
    body = f"csrf_token={token}&idem=n1&hand=1&text=Ruled+%ED%B2%80"
    response = client.post(
        table.base + "/note", data=body, content_type="application/x-www-form-urlencoded", headers=OUTBOX
    )
    assert response.status_code == 422
    assert response.get_json()["error"] == "What was sent as 'text' is not UTF-8 text: nothing was saved."
    assert response.get_json()["field"] == "text"
    assert "Ruled" not in table.page("/hand/1")
    plain = client.post(table.base + "/note", data=body, content_type="application/x-www-form-urlencoded")
    assert plain.status_code == 422 and "is not UTF-8 text: nothing was saved." in plain.get_data(as_text=True)
    assert "Ruled" not in table.page("/hand/1")


def multipart(fields: dict[str, bytes]) -> tuple[bytes, str]:
    """A multipart form's body with each field's bytes as they are, and its content type."""
    boundary = "----scorekeeper-test"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value + b"\r\n"
        for name, value in fields.items()
    ]
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


@pytest.mark.parametrize("bad", [b"\xed\xb2\x80", b"\xff", b"\xe9"])
def test_a_pasted_record_whose_bytes_are_not_utf8_is_refused_not_replaced(client, app, bad):
    """The import form is multipart: werkzeug read a byte that is not UTF-8 there as U+FFFD."""
    text = json.dumps(record(title="Table one")).encode().replace(b"Table one", b"Table" + bad + b"one")
    body, kind = multipart({"csrf_token": csrf_token(client, "/import").encode(), "text": text})
    response = client.post("/import", data=body, content_type=kind)
    assert response.status_code == 422
    assert "What was sent as &#39;text&#39; is not UTF-8 text: nothing was saved." in response.get_data(as_text=True)
    assert games_stored(app) == 0


def test_a_replacement_character_typed_as_such_still_comes_in(client, app):
    text = json.dumps(record(title="Table \ufffd one"), ensure_ascii=False).encode()
    body, kind = multipart({"csrf_token": csrf_token(client, "/import").encode(), "text": text})
    response = client.post("/import", data=body, content_type=kind)
    assert response.status_code == 302 and games_stored(app) == 1


# The command line


def test_the_command_line_refuses_a_record_with_a_lone_surrogate_in_one_line(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(players=["Ann", "D\udc80"], hands=[])))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lone surrogate" in err


def test_the_command_line_refuses_a_record_whose_names_the_forms_refuse():
    with pytest.raises(InvalidRecord, match="a control character"):
        load_record(json.dumps(record(players=["Ann", "Cy\0Lee"], hands=[])))


@pytest.mark.parametrize(
    "extra",
    [
        {"title": "\u202eTable one"},
        {"hands": [{"leftovers": {"Ann": [], "Bob": ["K"]}, "pressures": [], "notes": ["Ruled\0"]}]},
        {"hands": [], "in_play": {"hand": 1, "pressures": [], "notes": ["Ruled\u200b"]}},
    ],
    ids=["title RLO", "note NUL", "note in play ZWSP"],
)
def test_replay_and_report_refuse_a_title_or_note_the_import_page_refuses(tmp_path, capsys, extra):
    """Found by an attack from a fresh clone: the import page refused these, the command line took them."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(**extra)))
    for command in (["replay", str(path)], ["report", str(path), "-o", str(tmp_path / "sheet.pdf")]):
        assert main(command) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "cannot hold" in err
    assert not (tmp_path / "sheet.pdf").exists()


@pytest.mark.parametrize(
    "extra",
    [{"options": {"pressure_increase_cap": 10**400}}, {"hands": [], "in_play": {"hand": 10**400, "pressures": []}}],
    ids=["an option", "the hand in play"],
)
def test_a_number_longer_than_any_form_takes_is_refused_in_a_record(client, app, extra):
    """Found by an attack from a fresh clone: a 400-digit option was imported and exported again."""
    response = post_import(client, record(**extra))
    assert response.status_code == 422
    assert "more than 12 digits" in response.get_data(as_text=True)
    assert games_stored(app) == 0
    with pytest.raises(InvalidRecord, match="more than 12 digits"):
        load_record(json.dumps(record(**extra)))


# The club's CSV: a roster read, and every CSV written


@pytest.mark.parametrize("sign", ["\uff1d", "\uff0b", "\uff0d", "\uff20", "\ufe66"])
@pytest.mark.parametrize("column", [0, 1])
def test_a_roster_line_beginning_with_a_full_width_formula_sign_is_refused(sign, column):
    """Before: ＝CMD was taken as a name, ＋x as a club."""
    cells = ["Di Lee", "North", "4"]
    cells[column] = sign + "HYPERLINK(1)"
    found = read_roster(("name,club,number\nAnn,North,1\n" + ",".join(cells) + "\n").encode())
    assert [row.name for row in found.rows] == ["Ann"]
    (refused,) = found.refused
    assert "begins like a spreadsheet formula" in refused.reason


@pytest.mark.parametrize(("club", "words"), [("\u202eNorth", "invisible character (U+202E)"), ("No\tth", "a tab")])
def test_a_roster_club_with_an_override_or_a_tab_is_refused(club, words):
    found = read_roster(f"name,club,number\nAnn,North,1\nDi,{club},4\n".encode())
    assert [row.name for row in found.rows] == ["Ann"] and words in found.refused[0].reason


@pytest.mark.parametrize("sign", ["\uff1d", "\uff0b", "\uff0d", "\uff20", "\ufe62"])
def test_every_csv_written_disarms_a_full_width_formula_sign(sign):
    rows = list(csv.reader(io.StringIO(csv_text([[sign + "1+1", "Ann"]]))))
    assert rows == [["'" + sign + "1+1", "Ann"]]


# scorekeeper score, reading standard input


class EndlessInput:
    """Standard input that never ends ("A 2 3" a line), counting what was read of it."""

    def __init__(self) -> None:
        self.taken = 0
        self.buffer = self

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            raise AssertionError("standard input read without a limit")
        self.taken += size
        return (b"A 2 3\n" * (size // 6 + 1))[:size]


def test_score_reads_standard_input_only_as_far_as_a_list_of_hands_can_go(monkeypatch, capsys):
    """Before: read to its end (2.47 GB in 15 s of an endless input)."""
    endless = EndlessInput()
    monkeypatch.setattr(sys, "stdin", endless)
    assert main(["score"]) == 1
    assert endless.taken == HANDS_MAX_BYTES + 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "larger than a list of hands can be" in err


def test_score_refuses_standard_input_that_is_not_utf8(monkeypatch, capsys):
    class Latin1:
        buffer = io.BytesIO("A 2 3\nRen\u00e9\n".encode("latin-1"))

    monkeypatch.setattr(sys, "stdin", Latin1())
    assert main(["score"]) == 1
    assert "not UTF-8 text (byte 10)" in capsys.readouterr().err


# Every form's text field


#: The text fields that are not text a page shows as typed: each is read by a parser of its
#: own, which refuses anything it does not know (or, for the lists, holds each line to the rule).
PARSED = {
    "players": "the new-event list: each line read by club.members.read_listed, the club's rule",
    "pick": "the search: what it adds goes into the players list, read as above",
    "seats": "seat numbers",
    "special": "card=points pairs",
    "deal": "numbers of cards",
    "text": "a game record: its JSON read by decode_json, its names, title and notes by the rule",
    "code": "a join code, looked up",
    "cards": "card tokens",
    "best": "a number of evenings",
    "tables": "names matched to the event's players",
}


def test_every_text_field_of_every_form_carries_the_rule_or_is_parsed(app):
    """A new text field cannot forget the rule: it carries ``TextRule`` (``NoteRule``, ``MemberRule``)
    or is named above with the parser that reads it."""
    from wtforms import HiddenField, PasswordField, StringField

    from scorekeeper.web.forms import MemberRule, NoteRule, TextRule
    from tests.web.test_number_fields import every_form_class, fields_of

    with app.test_request_context("/", method="POST"):
        for cls in every_form_class():
            for field in fields_of(cls(meta={"csrf": False})):
                if not isinstance(field, StringField) or isinstance(field, HiddenField | PasswordField):
                    continue
                ruled = any(isinstance(check, TextRule | NoteRule | MemberRule) for check in field.validators)
                assert ruled or field.short_name in PARSED, (cls.__name__, field.name)
