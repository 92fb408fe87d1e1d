"""Every text field of every way in, fuzzed: a name, club, title or note with a control or
invisible character, a lone surrogate, or bytes that are not UTF-8 is refused (a 4xx, a refused
line, a non-zero exit), never stored, never answered 500, never read with its bytes replaced.

The ways in: the start form (names, title), an imported record (names, title, notes; as pasted
JSON and as a file), a note from the phone's outbox, the new-event list, a late player, the
club's member form, a roster file, ``scorekeeper seat --players-file`` and ``scorekeeper replay``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote_from_bytes, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.cli import main
from scorekeeper.club.roster import read_roster
from scorekeeper.storage.database import connect
from tests.scoring.test_one_text_rule import OUTBOX, multipart, record
from tests.support.web import new_game_form, start
from tests.web.test_events import event_form, new_event, set_up_director

BUDGET = int(os.environ.get("SCOREKEEPER_FUZZ", "20"))

#: Every control character, and the line and paragraph separators.
CONTROLS = [chr(code) for code in [*range(0x20), *range(0x7F, 0xA0)]] + ["\u2028", "\u2029"]
#: Characters nothing on a page shows: format characters, fillers, blanks, selectors, tags.
INVISIBLE = [
    "\u00ad",
    "\u034f",
    "\u115f",
    "\u1160",
    "\u180b",
    "\u180e",
    "\u200b",
    "\u200c",
    "\u200e",
    "\u200f",
    "\u202a",
    "\u202e",
    "\u2060",
    "\u2066",
    "\u2069",
    "\u2800",
    "\u3164",
    "\ufe00",
    "\ufeff",
    "\uffa0",
    "\U000e0001",
    "\U000e0041",
]
#: What separates the lines of a list (a text area, a CSV, a names file): there it ends a line.
LINE_ENDS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
#: A note keeps its line breaks and tabs.
NOTE_KEEPS = frozenset("\n\r\t")
#: Bytes that are not UTF-8: a stray continuation, a lead byte alone, a surrogate's, Latin-1's é, 0xFF.
NOT_UTF8 = [b"\x80", b"\xc3", b"\xed\xb2\x80", b"\xe9", b"\xff", b"\xf4\x90\x80\x80", b"\xc0\xaf"]

surrogate = st.integers(0xD800, 0xDFFF).map(chr)


def unreadable(excluded: frozenset[str] = frozenset()) -> st.SearchStrategy[str]:
    """A character no name may hold: a control, an invisible one or a lone surrogate."""
    return st.one_of(st.sampled_from([c for c in CONTROLS + INVISIBLE if c not in excluded]), surrogate)


def inside(text: str, bad: str, at: int) -> str:
    """``bad`` put inside ``text`` (never at either end, where a form's strip would take it off)."""
    at = 1 + at % (len(text) - 1)
    return text[:at] + bad + text[at:]


@dataclass
class Way:
    """A way text comes in: ``send(client, text)`` is True when it was refused (and nothing kept)."""

    name: str
    send: Callable[..., bool]
    #: What the way reads as the end of a line (not a fault: the end of one entry).
    excluded: frozenset[str] = frozenset()
    #: Whether text reaches it as UTF-8 bytes of a form (a lone surrogate cannot: its bytes are sent).
    form: bool = False


def posted(client, path: str, fields: dict[str, str], bad_field: str, value: bytes, **headers: str):
    """A form posted as a browser posts it, ``bad_field`` carrying ``value``'s bytes as they are."""
    body = urlencode(fields) + f"&{bad_field}=" + quote_from_bytes(value)
    return client.post(path, data=body, content_type="application/x-www-form-urlencoded", headers=headers)


def token(client) -> str:
    """A CSRF token, as the outbox fetches a fresh one."""
    return str(client.get("/csrf").get_json()["token"])


def count(client, table: str) -> int:
    db = connect(client.application.config["DATABASE"])
    try:
        return int(db.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        db.conn.close()


def as_form(client, path: str, fields: dict[str, str], bad_field: str, text: str | bytes, table: str, **headers: str):
    before = count(client, table)
    value = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    response = posted(client, path, {"csrf_token": token(client), **fields}, bad_field, value, **headers)
    assert response.status_code < 500, response.status_code
    return response.status_code in (400, 409, 422) and count(client, table) == before


def start_name(client, text):
    data = new_game_form(["", "Bob"])
    del data["players-0"]
    return as_form(client, "/new", data, "players-0", text, "games")


def start_title(client, text):
    return as_form(client, "/new", new_game_form(["Ann", "Bob"]), "title", text, "games")


def outbox_note(client, text):
    table = getattr(client, "fuzz_table", None) or start(client, ["Ann", "Bob"])
    client.fuzz_table = table
    fields = {"csrf_token": token(client), "idem": os.urandom(6).hex(), "hand": "1"}
    value = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    before = count(client, "entries")
    response = posted(client, table.base + "/note", fields, "text", value, **OUTBOX)
    assert response.status_code < 500, response.status_code
    return response.status_code in (400, 422) and count(client, "entries") == before


def imported(client, data: dict[str, object] | bytes, how: str) -> bool:
    """``data`` imported as a file, pasted in a multipart form (as a browser sends the import
    form) or in a URL-encoded one."""
    text = data if isinstance(data, bytes) else json.dumps(data).encode()
    before = count(client, "games")
    if how == "file":
        response = client.post("/import", data={"csrf_token": token(client), "file": (io.BytesIO(text), "game.json")})
    elif how == "multipart":
        body, kind = multipart({"csrf_token": token(client).encode(), "text": text})
        response = client.post("/import", data=body, content_type=kind)
    else:
        response = posted(client, "/import", {"csrf_token": token(client)}, "text", text)
    assert response.status_code < 500, response.status_code
    return response.status_code in (400, 422) and count(client, "games") == before


def import_field(where: str, how: str) -> Callable[..., bool]:
    def send(client, text):
        if isinstance(text, bytes):  # a record file or paste whose bytes are not UTF-8
            good = json.dumps(record(title="Table one"), ensure_ascii=False).encode()
            return imported(client, good.replace(b"Table one", b"Table" + text + b"one"), how)
        if where == "name":
            return imported(client, record(players=[text, "Bob"], first_dealer="Bob", hands=[]), how)
        if where == "title":
            return imported(client, record(title=text), how)
        hand = {"leftovers": {"Ann": [], "Bob": ["K"]}, "pressures": [], "notes": [text]}
        return imported(client, record(hands=[hand]), how)

    return send


def event_line(part: int) -> Callable[..., bool]:
    def send(client, text):
        line = ["Eve Lee", "North", "503"]
        line[part] = "@" if isinstance(text, bytes) else text
        fields = event_form(client, ["Ann", "Bob"])
        players = fields.pop("players") + "\n" + ", ".join(line)
        if isinstance(text, bytes):
            value = players.encode().replace(b"@", text)
        else:
            value = players.encode("utf-8", "surrogatepass")
        before = count(client, "events")
        response = posted(client, "/director/events/new", fields, "players", value)
        assert response.status_code < 500, response.status_code
        return response.status_code in (400, 422) and count(client, "events") == before

    return send


def late_player(field: str) -> Callable[..., bool]:
    def send(client, text):
        event_url = getattr(client, "fuzz_event", None) or new_event(client, ["Ann", "Bob", "Cy", "Di"])
        client.fuzz_event = event_url
        fields = {"csrf_token": token(client), "late-from_round": "1"}
        fields.update(
            {
                f"late-{key}": value
                for key, value in {"name": "Eve", "club": "North", "number": "9"}.items()
                if key != field
            }
        )
        value = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
        before = count(client, "event_players")
        response = posted(client, event_url + "/players/late", fields, f"late-{field}", value)
        assert response.status_code < 500, response.status_code
        return response.status_code in (400, 422) and count(client, "event_players") == before

    return send


def member(field: str) -> Callable[..., bool]:
    def send(client, text):
        fields = {"csrf_token": token(client)}
        fields.update(
            {
                f"add-{key}": value
                for key, value in {"name": "Eve", "club": "North", "number": "9"}.items()
                if key != field
            }
        )
        value = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
        before = count(client, "members")
        response = posted(client, "/director/players/", fields, f"add-{field}", value)
        assert response.status_code < 500, response.status_code
        return response.status_code in (400, 422) and count(client, "members") == before

    return send


def roster(part: int) -> Callable[..., bool]:
    def send(client, text):
        cells = [b"Eve Lee", b"North", b"503"]
        cells[part] = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
        data = b"name,club,number\nAnn,North,1\n" + b",".join(cells) + b"\n"
        try:
            found = read_roster(data)
        except ValueError:
            return True  # the file as a whole refused (not UTF-8 where it must be)
        kept = {row.name for row in found.rows}
        # A file that is not UTF-8 is read as Windows Latin-1, as the spreadsheet saved it: then
        # every character is one the rule takes or refuses, and none is replaced by U+FFFD.
        readable = found.encoding != "UTF-8" and all("\ufffd" not in row.text for row in found.rows)
        return kept == {"Ann"} or readable

    return send


def cli(command: str) -> Callable[..., bool]:
    def send(client, text):
        folder = client.application.instance_path
        path = os.path.join(folder, "fuzz-input")
        if command == "seat":
            names = ["Ann", "Bob", "Cy", "@"]
            data = "\n".join(names).encode()
            value = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
            data = data.replace(b"@", b"Di" + value + b"Lee")
            args = ["seat", "--players-file", path, "--rounds", "1", "--seconds", "0.1"]
        else:
            if isinstance(text, bytes):
                data = json.dumps(record(title="Table one"), ensure_ascii=False).encode().replace(b"one", text)
            else:
                data = json.dumps(record(players=[text, "Bob"], first_dealer="Bob", hands=[])).encode()
            args = ["replay", path]
        with open(path, "wb") as file:
            file.write(data)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main(args)
        return status != 0 and err.getvalue().count("\n") == 1

    return send


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One app for every way and example (a refusal leaves nothing behind), its director logged in."""
    folder = tmp_path_factory.mktemp("text-fuzz")
    unlimited = {"START_LIMIT_PER_NETWORK": 10**6, "START_LIMIT_STARTED": 10**6, "START_LIMIT_IMPORTED": 10**6}
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "fuzz", "DATABASE": str(folder / "fuzz.db"), "PLAN_SECONDS": 1, **unlimited}
    )
    client = app.test_client()
    set_up_director(client)
    return client


WAYS = [
    Way("start form: a name", start_name, form=True),
    Way("start form: the title", start_title, form=True),
    Way("import pasted: a name", import_field("name", "multipart")),
    Way("import pasted: the title", import_field("title", "multipart")),
    Way("import pasted: a note", import_field("note", "multipart"), NOTE_KEEPS),
    Way("import pasted, URL-encoded: a name", import_field("name", "urlencoded")),
    Way("import file: a name", import_field("name", "file")),
    Way("import file: a note", import_field("note", "file"), NOTE_KEEPS),
    Way("outbox: a note", outbox_note, NOTE_KEEPS, form=True),
    Way("event list: a name", event_line(0), LINE_ENDS, form=True),
    Way("event list: a club", event_line(1), LINE_ENDS, form=True),
    Way("late player: the name", late_player("name"), form=True),
    Way("late player: the club", late_player("club"), form=True),
    Way("late player: the number", late_player("number"), form=True),
    Way("member form: the name", member("name"), form=True),
    Way("member form: the club", member("club"), form=True),
    Way("roster file: a name", roster(0), LINE_ENDS),
    Way("roster file: a club", roster(1), LINE_ENDS),
    Way("seat --players-file", cli("seat"), LINE_ENDS),
    Way("replay", cli("replay")),
]


@pytest.mark.parametrize("way", WAYS, ids=[way.name for way in WAYS])
@settings(max_examples=BUDGET, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_way_in_refuses_what_no_page_can_show(site, way, data):
    bad = data.draw(unreadable(way.excluded), label="bad")
    at = data.draw(st.integers(0, 100), label="at")
    text = inside("Eve Lee", bad, at)
    if way.form and "\ud800" <= bad <= "\udfff":
        # A form's text is bytes: a lone surrogate reaches the server as its three bytes, not UTF-8.
        text_or_bytes: str | bytes = text.encode("utf-8", "surrogatepass")
    else:
        text_or_bytes = text
    assert way.send(site, text_or_bytes), (way.name, text)


@pytest.mark.parametrize("way", WAYS, ids=[way.name for way in WAYS])
@settings(max_examples=max(BUDGET // 3, 5), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bad=st.sampled_from(NOT_UTF8))
def test_every_way_in_refuses_bytes_that_are_not_utf8(site, way, bad):
    assert way.send(site, b"Eve" + bad + b" Lee"), (way.name, bad)
